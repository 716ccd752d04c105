/* sum(a, i, n) reads a[i] for every i <= n (the guard is i > n instead of i >= n), one past
   the end of the heap block of n ints: for n = 3 the fourth read a[3] is out of bounds.
   Every input n in [1, 16] reaches it.
   witness-input: 3 */
#include <stdlib.h>
extern int __VERIFIER_nondet_int(void);

int sum(int *a, int i, int n) {
  if (i > n) return 0;
  return a[i] + sum(a, i + 1, n);
}

int main(void) {
  int n = __VERIFIER_nondet_int();
  if (n < 1 || n > 16) return 0;
  int *a = malloc(n * sizeof(int));
  if (!a) return 0;
  for (int i = 0; i < n; i++) a[i] = i;
  int s = sum(a, 0, n);
  free(a);
  return s;
}
