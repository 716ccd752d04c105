/* Squares a byte modulo 2^8 until it is 0 or 1. x * x is computed in int
   (at most 65025, no overflow) and converted back modulo 2^8. An even
   x = 2^v * u (v >= 1) has 2v trailing zeros after squaring, so it is 0
   after at most 3 squarings. An odd x is a unit modulo 2^8, whose group has
   exponent 2^6, so x^(2^6) = 1: at most 6 squarings.
   Terminates for every input. */
extern unsigned char __VERIFIER_nondet_uchar(void);

int main(void) {
  unsigned char x = __VERIFIER_nondet_uchar();
  while (x > 1) x = (unsigned char)(x * x);
  return x;
}
