/* Shifts a 64-bit unsigned x right until it is 0: a logical shift halves x,
   so at most 64 iterations. Terminates for every input. */
extern unsigned long long __VERIFIER_nondet_ulonglong(void);

int main(void) {
  unsigned long long x = __VERIFIER_nondet_ulonglong();
  int bits = 0;
  while (x != 0) {
    x >>= 1;
    bits++;
  }
  return bits;
}
