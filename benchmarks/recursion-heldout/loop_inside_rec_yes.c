/* f(n) finds by a loop the largest power of two k <= n: k doubles while k <= n - k (that is
   2k <= n, tested without overflow, so k * 2 <= n never overflows and the loop runs at most
   31 times), then f recurses on n - k, which is in [0, n) for n >= 1. So n strictly
   decreases to 0; the result counts the set bits of n (at most 31). Terminating. */
extern int __VERIFIER_nondet_int(void);

int f(int n) {
  if (n <= 0) return 0;
  int k = 1;
  while (k <= n - k) k = k * 2;
  return 1 + f(n - k);
}

int main(void) {
  int n = __VERIFIER_nondet_int();
  return f(n);
}
