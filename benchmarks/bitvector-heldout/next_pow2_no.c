/* Smallest power of two >= n, without a range check. For n > 2^31 the
   powers 1, 2, ..., 2^31 are all < n, and 2^31 << 1 is 0 modulo 2^32
   (unsigned, defined); 0 < n and 0 << 1 == 0: non-terminating.
   Witness: n = 2^31 + 1.
   witness-input: 2147483649 */
extern unsigned int __VERIFIER_nondet_uint(void);

int main(void) {
  unsigned int n = __VERIFIER_nondet_uint();
  unsigned int p = 1;
  while (p < n) p <<= 1;
  return (int)(p & 1);
}
