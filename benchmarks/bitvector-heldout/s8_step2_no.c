/* Steps a signed char by 2 until it is 0. s + 2 is computed in int (no
   overflow); converting 128 or 129 back to signed char is
   implementation-defined (C11 6.3.1.3p3) and clang wraps modulo 2^8. The
   parity never changes, so an odd s is never 0: non-terminating, without
   undefined behaviour.
   Witness: s = 1.
   witness-input: 1 */
extern char __VERIFIER_nondet_char(void);

int main(void) {
  signed char s = (signed char)__VERIFIER_nondet_char();
  while (s != 0) s = (signed char)(s + 2);
  return 0;
}
