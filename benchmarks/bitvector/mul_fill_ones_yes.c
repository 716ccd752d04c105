/* Grows a mask of the form 2^k - 1 (i = 2 * i + 1) until it is >= n. The
   values are 1, 3, 7, ..., 2^32 - 1; 2 * (2^k - 1) + 1 = 2^(k+1) - 1 does not
   wrap for k <= 31, and 2^32 - 1 = UINT_MAX is >= every n, so the loop ends
   after at most 31 iterations. Terminates for every input. */
extern unsigned int __VERIFIER_nondet_uint(void);

int main(void) {
  unsigned int n = __VERIFIER_nondet_uint();
  unsigned int i = 1;
  while (i < n) i = 2 * i + 1;
  return (int)(i & 1);
}
