/* Chooses a counter to bump by the sign of k; the chain of ifs forgets the
   case k == 0, so target stays NULL and (*target)++ dereferences NULL: memory
   unsafe. No loops; the counters start at 0 and are bumped once.
   Witness: k = 0.
   witness-input: 0 */
#include <stddef.h>
extern int __VERIFIER_nondet_int(void);

int main(void) {
  int positive = 0, negative = 0;
  int *target = NULL;
  int k = __VERIFIER_nondet_int();
  if (k > 0) target = &positive;
  else if (k < 0) target = &negative;
  (*target)++;
  return positive - negative;
}
