/* n halves while positive: at most 31 iterations, the counter c <= 31. */
extern int __VERIFIER_nondet_int(void);
int main(void) {
  int n = __VERIFIER_nondet_int();
  int c = 0;
  while (n > 0) {
    n /= 2;
    c++;
  }
  return c;
}
