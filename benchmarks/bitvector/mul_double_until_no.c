/* Finds a power of two >= n by doubling i. For n > 2^31 the doubling passes
   1, 2, ..., 2^31 (all < n) and then 2^31 * 2 wraps to 0 (unsigned, defined);
   0 < n and 0 * 2 == 0, so i stays 0 forever: non-terminating.
   Witness: n = 2147483649.
   witness-input: 2147483649 */
extern unsigned int __VERIFIER_nondet_uint(void);

int main(void) {
  unsigned int n = __VERIFIER_nondet_uint();
  unsigned int i = 1;
  while (i < n) i *= 2;
  return (int)(i & 1);
}
