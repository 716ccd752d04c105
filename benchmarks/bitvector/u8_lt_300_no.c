/* An unsigned char counter compared with 300: c is at most 255 < 300, so the
   condition is always true. c++ is computed in int (255 + 1 = 256, no
   overflow) and converted back to unsigned char as 0 (modulo 2^8). c cycles
   through 0..255 forever: non-terminating for every input. The hash h is
   unsigned (wraps, defined).
   Witness: h = 0 (any value).
   witness-input: 0 */
extern unsigned int __VERIFIER_nondet_uint(void);

int main(void) {
  unsigned int h = __VERIFIER_nondet_uint();
  for (unsigned char c = 0; c < 300; c++) h = h * 31u + c;
  return (int)(h & 1);
}
