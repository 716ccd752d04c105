/* Keeps a pointer `first` into a heap array, then grows the array when more
   room is needed: grow() copies into a new block and frees the old one. The
   stale alias `first` still points into the freed block and is read: use
   after free, memory unsafe whenever need > n. Loops are bounded by n <= 50.
   Witness: n = 1, a[0] = 7, need = 2 (nondet calls in this order).
   witness-input: 1 7 2 */
#include <stdlib.h>
extern int __VERIFIER_nondet_int(void);

int *grow(int *a, int n) {
  int *b = malloc(sizeof(int) * 2 * n);
  if (b == NULL) return a;
  for (int i = 0; i < n; i++) b[i] = a[i];
  free(a);
  return b;
}

int main(void) {
  int n = __VERIFIER_nondet_int();
  if (n < 1 || n > 50) return 0;
  int *a = malloc(sizeof(int) * n);
  if (a == NULL) return 0;
  for (int i = 0; i < n; i++) a[i] = __VERIFIER_nondet_int();
  int *first = &a[0];
  int need = __VERIFIER_nondet_int();
  if (need > n) a = grow(a, n);
  int r = *first;
  free(a);
  return r > 0;
}
