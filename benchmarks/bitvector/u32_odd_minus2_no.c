/* Subtracts 2 until x is 0. Subtracting 2 modulo 2^32 keeps the parity of x
   (2^32 is even), so an odd x is never 0; x cycles through the 2^31 odd values
   and the state repeats: non-terminating. Unsigned arithmetic only.
   Witness: x = 1 (1 - 2 wraps to 4294967295, which is odd).
   witness-input: 1 */
extern unsigned int __VERIFIER_nondet_uint(void);

int main(void) {
  unsigned int x = __VERIFIER_nondet_uint();
  while (x != 0) x -= 2;
  return 0;
}
