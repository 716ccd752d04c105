/* Multiplies a 16-bit value by 4 until it is 0. s * 4 is computed in int
   (at most 262140, no overflow) and converted back to unsigned short modulo
   2^16: each step adds two trailing zero bits, so after at most 8 steps all
   16 bits are zero.
   Terminates for every input. */
extern unsigned short __VERIFIER_nondet_ushort(void);

int main(void) {
  unsigned short s = __VERIFIER_nondet_ushort();
  unsigned int steps = 0;
  while (s != 0) {
    s = (unsigned short)(s * 4);
    steps++;
  }
  return (int)steps;
}
