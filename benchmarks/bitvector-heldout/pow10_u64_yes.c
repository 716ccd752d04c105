/* pow10_u32_no.c with a 64-bit p. In the loop p <= a < 2^32, so
   10 * p < 10 * 2^32 < 2^64: no wrap, p grows tenfold and exceeds a after at
   most 10 iterations.
   Terminates for every input. */
extern unsigned int __VERIFIER_nondet_uint(void);

int main(void) {
  unsigned int a = __VERIFIER_nondet_uint();
  unsigned long long p = 1;
  unsigned int digits = 0;
  while (p <= a) {
    p *= 10;
    digits++;
  }
  return (int)digits;
}
