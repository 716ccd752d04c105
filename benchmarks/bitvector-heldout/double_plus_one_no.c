/* x = 2x + 1 modulo 2^32 while x > 1000. For x = 0xFFFFFFFF, 2x + 1 =
   2^33 - 1 = 0xFFFFFFFF modulo 2^32: a fixed point above 1000, so the loop
   never ends (unsigned arithmetic only). Most other values wrap below 1000.
   Witness: x = 4294967295.
   witness-input: 4294967295 */
extern unsigned int __VERIFIER_nondet_uint(void);

int main(void) {
  unsigned int x = __VERIFIER_nondet_uint();
  while (x > 1000) x = 2 * x + 1;
  return (int)(x & 1);
}
