/* Loops c = 0..lim with an unsigned char counter and the condition c <= lim.
   For lim = 255 the condition holds for every unsigned char value; c++ (done
   in int, converted back modulo 2^8) wraps from 255 to 0, so c cycles through
   0..255: non-terminating.
   Witness: lim = 255.
   witness-input: 255 */
extern unsigned char __VERIFIER_nondet_uchar(void);

int main(void) {
  unsigned char lim = __VERIFIER_nondet_uchar();
  unsigned int count = 0;
  for (unsigned char c = 0; c <= lim; c++) count++;
  return (int)(count & 1);
}
