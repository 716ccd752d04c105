/* Uses a heap counter when n > 0 and a local variable otherwise, then frees
   the counter unconditionally. For n = 0 it frees the address of a stack
   variable, which was never returned by malloc: invalid free, memory unsafe.
   No loops.
   Witness: n = 0.
   witness-input: 0 */
#include <stdlib.h>
extern int __VERIFIER_nondet_int(void);

int main(void) {
  int local = 0;
  int n = __VERIFIER_nondet_int();
  if (n < 0 || n > 100) return 0;
  int *count = &local;
  if (n > 0) {
    count = malloc(sizeof(int));
    if (count == NULL) return 0;
  }
  *count = n;
  int r = *count;
  free(count);
  return r;
}
