/* A signed loop i = lo..hi with i <= hi. Without the guard, hi = INT_MAX would
   make i++ overflow (undefined behaviour). The guard hi < INT_MAX ensures that
   inside the loop i <= hi <= INT_MAX - 1, so i + 1 never overflows; hi - i
   decreases by 1 per iteration (at most 2^32 - 1 iterations).
   Terminates for every input, without signed overflow. */
#include <limits.h>
extern int __VERIFIER_nondet_int(void);

int main(void) {
  int lo = __VERIFIER_nondet_int();
  int hi = __VERIFIER_nondet_int();
  if (hi == INT_MAX) return 0;
  unsigned int s = 0;
  for (int i = lo; i <= hi; i++) s += (unsigned int)i;
  return (int)(s & 1);
}
