/* Clears the lowest bit of x and then subtracts 2 until x is 0. x is even, so
   whenever x != 0 we have x >= 2 and x - 2 does not wrap; x decreases by 2 each
   iteration: at most 2^31 - 1 iterations. Unsigned arithmetic only.
   Terminates for every input. */
extern unsigned int __VERIFIER_nondet_uint(void);

int main(void) {
  unsigned int x = __VERIFIER_nondet_uint();
  x &= ~1u;
  while (x != 0) x -= 2;
  return 0;
}
