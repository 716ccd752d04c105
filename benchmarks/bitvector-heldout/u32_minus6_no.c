/* Counts down by 6 modulo 2^32 until i is 0. 2^32 and 6 are even, so
   i - 6 modulo 2^32 has the parity of i: an odd i is never 0 and the loop
   never ends (unsigned, wrap-around defined).
   Witness: i = 1.
   witness-input: 1 */
extern unsigned int __VERIFIER_nondet_uint(void);

int main(void) {
  unsigned int i = __VERIFIER_nondet_uint();
  while (i != 0) i -= 6;
  return 0;
}
