/* drain(p, n) decrements *p by recursion while n > 0 and *p > 0 and leaves the block to its
   caller, which frees it once after the call. n (capped at 1000) decreases on every call: terminating;
   *p - 1 with *p > 0 cannot overflow; the block is live for every access and freed once.
   Terminating and memory safe. */
#include <stdlib.h>
extern int __VERIFIER_nondet_int(void);

int drain(int *p, int n) {
  if (n <= 0 || *p <= 0) return *p;
  *p = *p - 1;
  return drain(p, n - 1);
}

int main(void) {
  int *q = malloc(sizeof(int));
  if (!q) return 0;
  *q = __VERIFIER_nondet_int();
  int n = __VERIFIER_nondet_int();
  if (n > 1000) n = 1000;
  int r = drain(q, n);
  free(q);
  return r;
}
