/* Seed 002's example: f decrements *p recursively and frees p once it is negative, so it
   always returns a negative number; main's loop adds it to i (capped at 1000, so native runs stay within the stack), which
   decreases. Each block
   is freed exactly once (by f) and never used afterwards. Terminating and memory safe. */
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
  if (i > 1000) i = 1000;
  while (i > 0) {
    int *op = malloc(sizeof(int));
    if (op == NULL) return 0;
    *op = i;
    i += f(op);
  }
  return 0;
}
