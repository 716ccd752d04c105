/* Doubles a 16-bit x until it is 0. x * 2 is computed in int (at most 131070,
   no overflow) and converted back to unsigned short modulo 2^16, which drops
   the top bit: after k doublings the low k bits are 0, so x is 0 after at most
   16 iterations. Terminates for every input. */
extern unsigned short __VERIFIER_nondet_ushort(void);

int main(void) {
  unsigned short x = __VERIFIER_nondet_ushort();
  int n = 0;
  while (x != 0) {
    x = x * 2;
    n++;
  }
  return n;
}
