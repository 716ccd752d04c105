/* Safe twin of oob_read_sorted_unsafe.c: the loop condition is i + 1 < n, so
   the largest index read is n - 1, inside the block of n ints, all written
   before. n is in 1..100, so i + 1 cannot overflow. The loop counts i up to
   n - 1 and ends. Terminating and memory safe for every input. */
#include <stdlib.h>
extern int __VERIFIER_nondet_int(void);

int main(void) {
  int n = __VERIFIER_nondet_int();
  if (n < 1 || n > 100) return 0;
  int *a = malloc(sizeof(int) * n);
  if (a == NULL) return 0;
  for (int i = 0; i < n; i++) a[i] = __VERIFIER_nondet_int();
  int sorted = 1;
  for (int i = 0; i + 1 < n && sorted; i++)
    if (a[i + 1] < a[i]) sorted = 0;
  free(a);
  return sorted;
}
