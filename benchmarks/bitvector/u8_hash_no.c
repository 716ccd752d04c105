/* Multiplies an 8-bit h by 31 until it is 0. h * 31 is computed in int (at
   most 7905, no overflow) and converted back to unsigned char modulo 2^8.
   Since 31 is odd, multiplication by 31 is a bijection modulo 2^8 that maps 0
   to 0, so a nonzero h never becomes 0; h takes at most 255 values, so the run
   is a lasso: non-terminating for every h != 0.
   Witness: h = 1.
   witness-input: 1 */
extern unsigned char __VERIFIER_nondet_uchar(void);

int main(void) {
  unsigned char h = __VERIFIER_nondet_uchar();
  while (h != 0) h = (unsigned char)(h * 31);
  return 0;
}
