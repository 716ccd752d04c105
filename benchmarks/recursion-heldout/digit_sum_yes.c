/* Sum of the decimal digits of n >= 0 by recursion on n / 10: for n >= 1, 0 <= n / 10 < n,
   so the argument strictly decreases to 0. The sum is at most 9 * 10 = 90. Terminating. */
extern int __VERIFIER_nondet_int(void);

int digits(int n) {
  if (n == 0) return 0;
  return n % 10 + digits(n / 10);
}

int main(void) {
  int n = __VERIFIER_nondet_int();
  if (n < 0) return 0;
  return digits(n);
}
