/* A signed char counter that counts up while c >= 0. c++ is computed in int
   (127 + 1 = 128: no overflow, int is 32 bits) and converted back to signed
   char; 128 is not representable, so the result is implementation-defined
   (C11 6.3.1.3p3, not undefined), and clang defines it as modulo 2^8: -128.
   In clang's IR this is `add nsw i32` (no overflow) followed by
   `trunc i32 to i8`. So c reaches -128 after at most 128 iterations and the
   loop ends; a negative start skips it. Terminates for every input. */
extern char __VERIFIER_nondet_char(void);

int main(void) {
  signed char c = (signed char)__VERIFIER_nondet_char();
  unsigned int count = 0;
  for (; c >= 0; c++) count++;
  return (int)(count & 1);
}
