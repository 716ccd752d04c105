/* Twin of mul_double_until_no.c with an overflow guard: the capacity is
   doubled only while cap <= UINT_MAX / 2, so cap * 2 never wraps and cap
   takes the values 1, 2, 4, ..., at most 2^31: at most 32 iterations.
   Terminates for every input. */
#include <limits.h>
extern unsigned int __VERIFIER_nondet_uint(void);

int main(void) {
  unsigned int n = __VERIFIER_nondet_uint();
  unsigned int cap = 1;
  while (cap < n) {
    if (cap > UINT_MAX / 2) break;
    cap *= 2;
  }
  return (int)(cap & 1);
}
