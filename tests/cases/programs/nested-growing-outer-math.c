/* Under `--int-semantics math`: the inner loop counts j up to n and stops, then n grows, so
 * the outer loop never ends for n >= 1 (no state repeats: no concrete lasso). Recurrent sets
 * at both loop headers (n >= 1; n >= 1 with j <= n inside), closed under every path between
 * the two headers: NO. */
extern int __VERIFIER_nondet_int(void);

int main(void) {
  int n = __VERIFIER_nondet_int();
  int j;
  if (n < 1) return 0;
  while (n > 0) {
    j = 0;
    while (j < n) {
      j = j + 1;
    }
    n = n + 1;
  }
  return 0;
}
