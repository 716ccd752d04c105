/* Normalises a nonzero x by shifting it left until bit 31 is set. A nonzero
   x has a highest set bit at position b <= 31; each shift moves it up by one
   (unsigned shift, defined) and no set bit is lost before bit 31 is reached:
   at most 31 iterations.
   Terminates for every input. */
extern unsigned int __VERIFIER_nondet_uint(void);

int main(void) {
  unsigned int x = __VERIFIER_nondet_uint();
  if (x == 0) return 0;
  unsigned int shifts = 0;
  while (!(x & 0x80000000u)) {
    x <<= 1;
    shifts++;
  }
  return (int)shifts;
}
