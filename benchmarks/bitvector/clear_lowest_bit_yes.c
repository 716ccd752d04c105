/* Population count by clearing the lowest set bit: x &= x - 1. For x != 0,
   x - 1 does not wrap and x & (x - 1) has exactly one set bit less than x, so
   the loop ends after popcount(x) <= 32 iterations; count <= 32.
   Terminates for every input. */
extern unsigned int __VERIFIER_nondet_uint(void);

int main(void) {
  unsigned int x = __VERIFIER_nondet_uint();
  int count = 0;
  while (x != 0) {
    x &= x - 1;
    count++;
  }
  return count;
}
