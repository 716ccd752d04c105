/* Euclid's gcd by recursion on (b, a % b) for a, b >= 0: the second argument strictly
   decreases (0 <= a % b < b) until it is 0. No division by zero (b > 0 when dividing),
   no overflow (all values in [0, INT_MAX]). Terminating. */
extern int __VERIFIER_nondet_int(void);

int gcd(int a, int b) {
  if (b == 0) return a;
  return gcd(b, a % b);
}

int main(void) {
  int a = __VERIFIER_nondet_int();
  int b = __VERIFIER_nondet_int();
  if (a < 0 || b < 0) return 0;
  return gcd(a, b) < 0;
}
