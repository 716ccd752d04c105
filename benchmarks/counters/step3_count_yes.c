/* n drops by 3 while n > 2 (n - 3 >= 0, no overflow); at most n0/3
   iterations, so the counter c <= INT_MAX/3 never overflows. */
extern int __VERIFIER_nondet_int(void);
int main(void) {
  int n = __VERIFIER_nondet_int();
  int c = 0;
  while (n > 2) {
    n -= 3;
    c++;
  }
  return c;
}
