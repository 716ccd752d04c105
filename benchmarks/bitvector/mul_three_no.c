/* Multiplies x by 3 (modulo 2^32) while x > 1. Since 3 is odd, x * 3 modulo
   2^32 keeps the number of trailing zero bits of a nonzero x. For x = 2 every
   value of x has exactly one trailing zero: it is even and nonzero, hence
   never 0 or 1, so x > 1 always holds; x ranges over a finite set, so the run
   is a lasso: non-terminating. Unsigned arithmetic only.
   Witness: x = 2.
   witness-input: 2 */
extern unsigned int __VERIFIER_nondet_uint(void);

int main(void) {
  unsigned int x = __VERIFIER_nondet_uint();
  while (x > 1) x *= 3;
  return 0;
}
