/* i climbs to n (both inputs): at most n0 - i0 iterations; with i0 >= 0 the
   count is at most INT_MAX, and the counter starts at 0, so c <= INT_MAX - 1
   before each increment (i < n <= INT_MAX keeps i++ safe too). */
extern int __VERIFIER_nondet_int(void);
int main(void) {
  int i = __VERIFIER_nondet_int();
  int n = __VERIFIER_nondet_int();
  if (i < 0) return 0;
  int c = 0;
  while (i < n) {
    i++;
    c++;
  }
  return c;
}
