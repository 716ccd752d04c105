/* Safe twin of double_free_alias_unsafe.c: shared slots are still possible,
   but each slot records whether it owns a fresh block, and the cleanup frees
   only owning slots. Every block is created by exactly one owning slot, so
   each block is freed exactly once and no freed pointer is ever used.
   Both loops run 4 times. Terminating and memory safe for every input. */
#include <stdlib.h>
extern int __VERIFIER_nondet_int(void);

int main(void) {
  int *slot[4];
  int owns[4];
  for (int i = 0; i < 4; i++) {
    int reuse = __VERIFIER_nondet_int();
    if (i > 0 && reuse == 1) {
      slot[i] = slot[i - 1];
      owns[i] = 0;
    } else {
      slot[i] = malloc(sizeof(int));
      if (slot[i] == NULL) return 0;
      *slot[i] = i;
      owns[i] = 1;
    }
  }
  for (int i = 0; i < 4; i++)
    if (owns[i]) free(slot[i]);
  return 0;
}
