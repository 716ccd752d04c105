/* Searches the lowest set bit of x with a mask m = 1, 2, 4, ... For x = 0
   no bit is ever set: m doubles up to 2^31, then m <<= 1 gives 0 (unsigned
   shift, modulo 2^32, defined), and 0 << 1 stays 0, so x & m == 0 forever:
   non-terminating (the state (x, m) = (0, 0) repeats).
   Witness: x = 0.
   witness-input: 0 */
extern unsigned int __VERIFIER_nondet_uint(void);

int main(void) {
  unsigned int x = __VERIFIER_nondet_uint();
  unsigned int m = 1;
  while ((x & m) == 0) m <<= 1;
  return (int)(m & 1);
}
