/* Shifts an unsigned x left until it is 0. x <<= 1 discards the top bit and
   adds a zero at the bottom (defined for unsigned: the result is modulo 2^32),
   so after k shifts the low k bits are 0 and after at most 32 iterations x is
   0; n <= 32. Terminates for every input (only mathematical integers would
   make this loop run forever). */
extern unsigned int __VERIFIER_nondet_uint(void);

int main(void) {
  unsigned int x = __VERIFIER_nondet_uint();
  int n = 0;
  while (x != 0) {
    x <<= 1;
    n++;
  }
  return n;
}
