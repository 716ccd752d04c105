/* As free_in_callee_yes.c, but main reads *op after f has freed it: use after free on the
   first iteration of the loop, for any input i > 0.
   witness-input: 1 */
#include <stdlib.h>
extern int __VERIFIER_nondet_int(void);

int f(int *p) {
  if (*p < 0) {
    int pv = *p;
    free(p);
    return pv;
  }
  (*p)--;
  return f(p);
}

int main(void) {
  int i = __VERIFIER_nondet_int();
  while (i > 0) {
    int *op = malloc(sizeof(int));
    if (op == NULL) return 0;
    *op = i;
    i += f(op);
    i += *op;
  }
  return 0;
}
