/* Sums n input values stored in a heap block of n ints, but the summing loop
   runs while i <= n and so reads a[n], one element past the end of the block.
   Every run with 1 <= n <= 100 reaches that read: memory unsafe.
   The sum is unsigned (wraps, no undefined behaviour) and both loops are
   bounded by n <= 100, so termination is not in question.
   Witness: n = 1, a[0] = 5; the second loop reads a[1].
   witness-input: 1 5 */
#include <stdlib.h>
extern int __VERIFIER_nondet_int(void);

int main(void) {
  int n = __VERIFIER_nondet_int();
  if (n < 1 || n > 100) return 0;
  int *a = malloc(sizeof(int) * n);
  if (a == NULL) return 0;
  for (int i = 0; i < n; i++) a[i] = __VERIFIER_nondet_int();
  unsigned sum = 0;
  for (int i = 0; i <= n; i++) sum += (unsigned)a[i];
  free(a);
  return (int)(sum & 0xff);
}
