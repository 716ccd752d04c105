/* Smallest power of ten above a, computed in 32 bits. For a = UINT_MAX,
   p <= a always holds; p = 10^k modulo 2^32, and 10^32 = 2^32 * 5^32 is 0
   modulo 2^32, after which p stays 0: non-terminating (unsigned only).
   Witness: a = 4294967295.
   witness-input: 4294967295 */
extern unsigned int __VERIFIER_nondet_uint(void);

int main(void) {
  unsigned int a = __VERIFIER_nondet_uint();
  unsigned int p = 1;
  unsigned int digits = 0;
  while (p <= a) {
    p *= 10;
    digits++;
  }
  return (int)digits;
}
