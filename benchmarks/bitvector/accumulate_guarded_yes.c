/* Twin of accumulate_wrap_no.c with an overflow check: total += step is done
   only if total <= UINT_MAX - step, so it never wraps and total strictly
   grows by step >= 1 while total < n: at most n iterations (then the loop
   condition or the break ends it). Terminates for every input. */
#include <limits.h>
extern unsigned int __VERIFIER_nondet_uint(void);

int main(void) {
  unsigned int n = __VERIFIER_nondet_uint();
  unsigned int step = __VERIFIER_nondet_uint();
  if (step == 0) return 0;
  unsigned int total = 0;
  while (total < n) {
    if (total > UINT_MAX - step) break;
    total += step;
  }
  return (int)(total & 1);
}
