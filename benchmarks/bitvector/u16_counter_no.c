/* A 16-bit loop counter compared against a 32-bit bound. i < n promotes both
   to 32 bits; i is at most 65535, so for n > 65535 the condition always holds.
   i++ is computed in int (65535 + 1 = 65536, no overflow) and converted back
   to unsigned short, which is 0 (conversion to an unsigned type is modulo
   2^16). i cycles through 0..65535: non-terminating.
   Witness: n = 65536.
   witness-input: 65536 */
extern unsigned int __VERIFIER_nondet_uint(void);

int main(void) {
  unsigned int n = __VERIFIER_nondet_uint();
  unsigned int sum = 0;
  for (unsigned short i = 0; i < n; i++) sum += i;
  return (int)(sum & 1);
}
