/* Checks whether a heap array of n ints is sorted by comparing a[i] with
   a[i + 1] for every i < n. For i = n - 1 this reads a[n], one past the end
   of the block (unless an earlier pair was already out of order, which ends
   the loop). With n = 1 the very first comparison reads a[1]: memory unsafe.
   The loop is bounded by n <= 100; only comparisons, no arithmetic on values.
   Witness: n = 1, a[0] = 0; the loop reads a[1].
   witness-input: 1 0 */
#include <stdlib.h>
extern int __VERIFIER_nondet_int(void);

int main(void) {
  int n = __VERIFIER_nondet_int();
  if (n < 1 || n > 100) return 0;
  int *a = malloc(sizeof(int) * n);
  if (a == NULL) return 0;
  for (int i = 0; i < n; i++) a[i] = __VERIFIER_nondet_int();
  int sorted = 1;
  for (int i = 0; i < n && sorted; i++)
    if (a[i + 1] < a[i]) sorted = 0;
  free(a);
  return sorted;
}
