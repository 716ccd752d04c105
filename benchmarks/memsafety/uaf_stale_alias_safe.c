/* Safe twin of uaf_stale_alias_unsafe.c: the element pointer is taken after
   the possible grow(), so it points into the live (new) block; grow() copies
   n ints from a live block of n ints into a block of 2n ints and frees the old
   block once; main frees the current block once. n is in 1..50, so 2 * n
   cannot overflow. Loops are bounded by n. Terminating and memory safe. */
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
  int need = __VERIFIER_nondet_int();
  if (need > n) a = grow(a, n);
  int *first = &a[0];
  int r = *first;
  free(a);
  return r > 0;
}
