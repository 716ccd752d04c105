/* Negates x until it is 0. INT_MIN is excluded, so -x never overflows. For
   x = 1 the values alternate 1, -1, 1, ... and never reach 0; the state
   repeats after two iterations: non-terminating, with no undefined behaviour.
   Witness: x = 1.
   witness-input: 1 */
#include <limits.h>
extern int __VERIFIER_nondet_int(void);

int main(void) {
  int x = __VERIFIER_nondet_int();
  if (x == INT_MIN) return 0;
  while (x != 0) x = -x;
  return 0;
}
