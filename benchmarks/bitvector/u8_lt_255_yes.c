/* An unsigned char counter compared with 255: inside the loop c <= 254, so
   c + 1 <= 255 fits and c never wraps; the loop ends after 255 iterations.
   The hash h is unsigned (wraps, defined). Terminates for every input. */
extern unsigned int __VERIFIER_nondet_uint(void);

int main(void) {
  unsigned int h = __VERIFIER_nondet_uint();
  for (unsigned char c = 0; c < 255; c++) h = h * 31u + c;
  return (int)(h & 1);
}
