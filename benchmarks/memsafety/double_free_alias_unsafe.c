/* Fills a table of 4 pointers; slot i reuses the block of slot i - 1 when the
   input says so, otherwise it gets a fresh block. The cleanup loop frees every
   slot, so a reused block is freed twice: double free, memory unsafe whenever
   some reuse flag is 1. Loops run exactly 4 times.
   Witness: flags 0 1 (slot 0 fresh, slot 1 reuses slot 0's block).
   witness-input: 0 1 0 0 */
#include <stdlib.h>
extern int __VERIFIER_nondet_int(void);

int main(void) {
  int *slot[4];
  for (int i = 0; i < 4; i++) {
    int reuse = __VERIFIER_nondet_int();
    if (i > 0 && reuse == 1) {
      slot[i] = slot[i - 1];
    } else {
      slot[i] = malloc(sizeof(int));
      if (slot[i] == NULL) return 0;
      *slot[i] = i;
    }
  }
  for (int i = 0; i < 4; i++) free(slot[i]);
  return 0;
}
