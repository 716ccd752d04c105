/* next_pow2_no.c with the range check n <= 2^31: the powers of two reach
   2^31 >= n without a wrap, and the loop stops at the first p >= n (at most
   31 doublings).
   Terminates for every input. */
extern unsigned int __VERIFIER_nondet_uint(void);

int main(void) {
  unsigned int n = __VERIFIER_nondet_uint();
  if (n > 0x80000000u) return 0;
  unsigned int p = 1;
  while (p < n) p <<= 1;
  return (int)(p & 1);
}
