/* Doubles an unsigned x until it is 0. x * 2 modulo 2^32 equals x << 1, so
   after k iterations the low k bits are 0 and x is 0 after at most 32
   iterations (with mathematical integers a nonzero x would grow forever).
   Terminates for every input. */
extern unsigned int __VERIFIER_nondet_uint(void);

int main(void) {
  unsigned int x = __VERIFIER_nondet_uint();
  int n = 0;
  while (x != 0) {
    x *= 2;
    n++;
  }
  return n;
}
