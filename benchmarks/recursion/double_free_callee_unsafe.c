/* drain(p, n) decrements *p n times by recursion and frees p at the end; main frees q
   again after the call: a double free for every input.
   witness-input: 3 2 */
#include <stdlib.h>
extern int __VERIFIER_nondet_int(void);

int drain(int *p, int n) {
  if (n <= 0 || *p <= 0) {
    int v = *p;
    free(p);
    return v;
  }
  *p = *p - 1;
  return drain(p, n - 1);
}

int main(void) {
  int *q = malloc(sizeof(int));
  if (!q) return 0;
  *q = __VERIFIER_nondet_int();
  int n = __VERIFIER_nondet_int();
  int r = drain(q, n);
  free(q);
  return r;
}
