/* Counts the set bits of x by testing 1u << i for i = 0..31. The shift amount
   is below 32 in every iteration (no undefined shift) and i counts up to 32:
   exactly 32 iterations. Terminates for every input. */
extern unsigned int __VERIFIER_nondet_uint(void);

int main(void) {
  unsigned int x = __VERIFIER_nondet_uint();
  int c = 0;
  for (unsigned int i = 0; i < 32; i++)
    if (x & (1u << i)) c++;
  return c;
}
