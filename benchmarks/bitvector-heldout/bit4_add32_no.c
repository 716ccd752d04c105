/* Adds 32 while bit 4 of x is set. Adding 32 = 2^5 (modulo 2^32) only
   changes bits 5..31, so bit 4 never changes: once set it stays set and the
   loop never ends (x cycles with period 2^27).
   Witness: x = 16.
   witness-input: 16 */
extern unsigned int __VERIFIER_nondet_uint(void);

int main(void) {
  unsigned int x = __VERIFIER_nondet_uint();
  while (x & 0x10u) x += 32;
  return (int)(x & 1);
}
