/* Safe twin of uaf_error_path_unsafe.c: the error path returns right after
   freeing, so buf[0] is only read while the block is live, and the block is
   freed exactly once on each path. The fill loop is bounded by n <= 100.
   Terminating and memory safe for every input. */
#include <stdlib.h>
extern int __VERIFIER_nondet_int(void);

int main(void) {
  int n = __VERIFIER_nondet_int();
  if (n < 1 || n > 100) return 0;
  int *buf = malloc(sizeof(int) * n);
  if (buf == NULL) return 0;
  for (int i = 0; i < n; i++) buf[i] = __VERIFIER_nondet_int();
  if (buf[0] < 0) {
    free(buf);
    return 1;
  }
  int first = buf[0];
  free(buf);
  return first > 0;
}
