/* Zero-initialises a heap block of n ints with a loop that runs while i <= n,
   so its last iteration writes a[n], one past the end: memory unsafe for every
   n in 1..100. The loop is bounded by n + 1 <= 101 iterations.
   Witness: n = 1; the loop writes a[1].
   witness-input: 1 */
#include <stdlib.h>
extern int __VERIFIER_nondet_int(void);

int main(void) {
  int n = __VERIFIER_nondet_int();
  if (n < 1 || n > 100) return 0;
  int *a = malloc(sizeof(int) * n);
  if (a == NULL) return 0;
  for (int i = 0; i <= n; i++) a[i] = 0;
  int r = a[0];
  free(a);
  return r;
}
