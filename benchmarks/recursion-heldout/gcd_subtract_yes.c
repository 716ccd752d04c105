/* gcd by repeated subtraction for a, b >= 1: each call subtracts the smaller from the larger,
   so both stay >= 1 and a + b strictly decreases until a == b. No overflow (values only
   shrink). Inputs capped at 1000 to keep the native run short. Terminating. */
extern int __VERIFIER_nondet_int(void);

int gcd(int a, int b) {
  if (a == b) return a;
  if (a > b) return gcd(a - b, b);
  return gcd(a, b - a);
}

int main(void) {
  int a = __VERIFIER_nondet_int();
  int b = __VERIFIER_nondet_int();
  if (a < 1 || b < 1 || a > 1000 || b > 1000) return 0;
  return gcd(a, b);
}
