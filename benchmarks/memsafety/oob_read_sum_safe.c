/* Safe twin of oob_read_sum_unsafe.c: the summing loop runs while i < n, so it
   reads exactly a[0..n-1], all inside the block of n ints and all written by the
   first loop. n is bounded to 1..100 (no malloc(0), no overflow in n * 4); the
   sum is unsigned, so no signed overflow. Both loops count i up to n: terminates.
   The block is freed once. Terminating and memory safe for every input. */
#include <stdlib.h>
extern int __VERIFIER_nondet_int(void);

int main(void) {
  int n = __VERIFIER_nondet_int();
  if (n < 1 || n > 100) return 0;
  int *a = malloc(sizeof(int) * n);
  if (a == NULL) return 0;
  for (int i = 0; i < n; i++) a[i] = __VERIFIER_nondet_int();
  unsigned sum = 0;
  for (int i = 0; i < n; i++) sum += (unsigned)a[i];
  free(a);
  return (int)(sum & 0xff);
}
