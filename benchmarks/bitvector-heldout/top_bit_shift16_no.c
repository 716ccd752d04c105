/* top_bit_shift_yes.c on the low 16 bits, but the zero check is on the
   32-bit value: x = 65536 is nonzero while y = (unsigned short)x is 0.
   y <<= 1 is computed in int (no overflow) and converted back modulo 2^16;
   0 stays 0 and bit 15 is never set: non-terminating.
   Witness: x = 65536.
   witness-input: 65536 */
extern unsigned int __VERIFIER_nondet_uint(void);

int main(void) {
  unsigned int x = __VERIFIER_nondet_uint();
  if (x == 0) return 0;
  unsigned short y = (unsigned short)x;
  while (!(y & 0x8000)) y <<= 1;
  return y & 1;
}
