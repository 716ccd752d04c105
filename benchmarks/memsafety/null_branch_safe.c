/* Safe twin of null_branch_unsafe.c: the case k == 0 selects its own counter,
   so target points to a live local on every path before (*target)++. No loops,
   each counter is at most 1. Terminating and memory safe for every input. */
#include <stddef.h>
extern int __VERIFIER_nondet_int(void);

int main(void) {
  int positive = 0, negative = 0, zero = 0;
  int *target = NULL;
  int k = __VERIFIER_nondet_int();
  if (k > 0) target = &positive;
  else if (k < 0) target = &negative;
  else target = &zero;
  (*target)++;
  return positive - negative + zero;
}
