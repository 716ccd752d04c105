/* Rotates x right by one bit until it equals 1. A rotation
   (x >> 1) | (x << 31) on a 32-bit unsigned permutes the bits and keeps the
   number of set bits. For x = 3 (two set bits) x can never become 1 (one set
   bit); after 32 rotations x is 3 again, so the state repeats:
   non-terminating. Shift amounts 1 and 31 are below the width (no undefined
   behaviour); unsigned arithmetic only.
   Witness: x = 3.
   witness-input: 3 */
extern unsigned int __VERIFIER_nondet_uint(void);

int main(void) {
  unsigned int x = __VERIFIER_nondet_uint();
  while (x != 1) x = (x >> 1) | (x << 31);
  return 0;
}
