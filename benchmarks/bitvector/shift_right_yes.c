/* Counts the bits needed to represent x by shifting it right until it is 0.
   x >>= 1 on an unsigned value halves it (logical shift), so x is 0 after at
   most 32 iterations; bits <= 32. Terminates for every input. */
extern unsigned int __VERIFIER_nondet_uint(void);

int main(void) {
  unsigned int x = __VERIFIER_nondet_uint();
  int bits = 0;
  while (x != 0) {
    x >>= 1;
    bits++;
  }
  return bits;
}
