/* Adds 4 to a 16-bit s until it is 0. s + 4 is computed in int (at most
   65539, no overflow) and converted back to unsigned short modulo 2^16; since
   4 divides 2^16, s mod 4 never changes. For s = 1, s is always 1 mod 4, never
   0, and s cycles through 16384 values: non-terminating.
   Witness: s = 1.
   witness-input: 1 */
extern unsigned short __VERIFIER_nondet_ushort(void);

int main(void) {
  unsigned short s = __VERIFIER_nondet_ushort();
  while (s != 0) s += 4;
  return 0;
}
