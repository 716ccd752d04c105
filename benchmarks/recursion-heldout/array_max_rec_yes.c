/* Maximum of a heap array of n elements (1 <= n <= 64) by recursion on the index i from 0:
   each call reads a[i] with 0 <= i < n and recurses on i + 1 only while i + 1 < n, so
   n - i strictly decreases. Every read is in bounds, the block is freed once after the call.
   Terminating and memory safe. */
#include <stdlib.h>
extern int __VERIFIER_nondet_int(void);

int max_from(int *a, int i, int n) {
  if (i + 1 >= n) return a[i];
  int rest = max_from(a, i + 1, n);
  return a[i] > rest ? a[i] : rest;
}

int main(void) {
  int n = __VERIFIER_nondet_int();
  if (n < 1 || n > 64) return 0;
  int *a = malloc(n * sizeof(int));
  if (!a) return 0;
  for (int i = 0; i < n; i++) a[i] = __VERIFIER_nondet_int();
  int m = max_from(a, 0, n);
  free(a);
  return m > 0;
}
