/* Adds 3 to a 16-bit s until it is 0. s + 3 is computed in int (no overflow)
   and converted back modulo 2^16. Since 3 is odd, it is invertible modulo
   2^16, so s + 3k == 0 (mod 2^16) for k = -s * 3^-1 mod 2^16 < 65536: the loop
   reaches 0 after at most 65535 iterations (it ends only thanks to the wrap).
   Terminates for every input. */
extern unsigned short __VERIFIER_nondet_ushort(void);

int main(void) {
  unsigned short s = __VERIFIER_nondet_ushort();
  unsigned int steps = 0;
  while (s != 0) {
    s += 3;
    steps++;
  }
  return (int)(steps & 1);
}
