/* Starts c at the low byte of x and counts it up until it equals x. c is an
   unsigned char, so c is at most 255 and c == x needs x <= 255 (in that case
   c == x from the start). For x >= 256, c != x always, and c++ (in int, then
   converted modulo 2^8) cycles through 0..255: non-terminating.
   Witness: x = 256.
   witness-input: 256 */
extern unsigned int __VERIFIER_nondet_uint(void);

int main(void) {
  unsigned int x = __VERIFIER_nondet_uint();
  unsigned char c = (unsigned char)x;
  while (c != x) c++;
  return c;
}
