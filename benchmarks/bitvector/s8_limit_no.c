/* Mixed signedness: an unsigned char counter compared with a signed char
   limit. Both are promoted to int: c is in 0..255, lim in -128..127. For a
   negative lim, c != lim always holds, and c++ (in int, converted back modulo
   2^8) cycles through 0..255: non-terminating. No overflow anywhere (the
   addition is on small ints, the conversion to unsigned char is defined).
   Witness: lim = -1.
   witness-input: -1 */
extern char __VERIFIER_nondet_char(void);

int main(void) {
  signed char lim = (signed char)__VERIFIER_nondet_char();
  unsigned int count = 0;
  for (unsigned char c = 0; c != lim; c++) count++;
  return (int)(count & 1);
}
