/* Twin of signed_shift_no.c that also stops at -1: an arithmetic shift right
   (clang's ashr for signed >>) computes floor(x / 2): a positive x moves toward
   0 and a negative x toward -1, each step at least halving the distance; with
   31 value bits that takes at most 31 iterations. No overflow.
   Terminates for every input. */
extern int __VERIFIER_nondet_int(void);

int main(void) {
  int x = __VERIFIER_nondet_int();
  int steps = 0;
  while (x != 0 && x != -1) {
    x >>= 1;
    steps++;
  }
  return steps;
}
