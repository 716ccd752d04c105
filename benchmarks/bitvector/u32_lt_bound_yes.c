/* Counts j from 0 while j < x. Inside the loop j < x <= UINT_MAX, so j + 1
   <= x never wraps; x - j decreases by 1 per iteration and is >= 1 while the
   loop runs: at most x <= 2^32 - 1 iterations. Only unsigned arithmetic.
   Terminates for every input. */
extern unsigned int __VERIFIER_nondet_uint(void);

int main(void) {
  unsigned int x = __VERIFIER_nondet_uint();
  unsigned int count = 0;
  for (unsigned int j = 0; j < x; j++) count++;
  return (int)(count & 1);
}
