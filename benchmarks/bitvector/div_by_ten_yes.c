/* Counts decimal digits: x /= 10 on an unsigned x at least divides it by 10
   (rounding down), so x is 0 after at most 10 iterations.
   Terminates for every input. */
extern unsigned int __VERIFIER_nondet_uint(void);

int main(void) {
  unsigned int x = __VERIFIER_nondet_uint();
  int digits = 0;
  while (x != 0) {
    x /= 10;
    digits++;
  }
  return digits;
}
