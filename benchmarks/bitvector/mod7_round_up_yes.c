/* Rounds x up to a multiple of 7 by incrementing. Among 7 consecutive values
   one is a multiple of 7; if x wraps first (x near UINT_MAX; UINT_MAX % 7 == 3)
   it wraps to 0, which is a multiple of 7 too. So the loop ends after at most
   6 iterations. Unsigned arithmetic only. Terminates for every input. */
extern unsigned int __VERIFIER_nondet_uint(void);

int main(void) {
  unsigned int x = __VERIFIER_nondet_uint();
  while (x % 7 != 0) x++;
  return (int)(x & 1);
}
