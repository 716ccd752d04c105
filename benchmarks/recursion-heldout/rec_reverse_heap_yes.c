/* In-place reversal of a heap array of n ints (0 <= n <= 100) by recursion on (lo + 1,
   hi - 1) while lo < hi: hi - lo decreases by 2; every access has 0 <= lo < hi <= n - 1.
   The block is freed once afterwards. Terminating and memory safe. */
#include <stdlib.h>
extern int __VERIFIER_nondet_int(void);

void rev(int *a, int lo, int hi) {
  if (lo >= hi) return;
  int t = a[lo];
  a[lo] = a[hi];
  a[hi] = t;
  rev(a, lo + 1, hi - 1);
}

int main(void) {
  int n = __VERIFIER_nondet_int();
  if (n < 0 || n > 100) return 0;
  int *a = malloc((n + 1) * sizeof(int));
  if (!a) return 0;
  for (int i = 0; i < n; i++) a[i] = i;
  rev(a, 0, n - 1);
  int r = n > 0 ? a[0] : 0;
  free(a);
  return r;
}
