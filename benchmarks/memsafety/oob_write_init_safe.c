/* Safe twin of oob_write_init_unsafe.c: the loop runs while i < n and writes
   a[0..n-1], all inside the block of n ints; a[0] is then read after being
   written. n is in 1..100. Terminating and memory safe for every input. */
#include <stdlib.h>
extern int __VERIFIER_nondet_int(void);

int main(void) {
  int n = __VERIFIER_nondet_int();
  if (n < 1 || n > 100) return 0;
  int *a = malloc(sizeof(int) * n);
  if (a == NULL) return 0;
  for (int i = 0; i < n; i++) a[i] = 0;
  int r = a[0];
  free(a);
  return r;
}
