/* j <= n is always true when n == UINT_MAX: for that input the loop never ends, but the
   run repeats a state only after 2^32 iterations (no concrete lasso within any step bound). */
extern unsigned int __VERIFIER_nondet_uint(void);

int main(void) {
  unsigned int n = __VERIFIER_nondet_uint();
  for (unsigned int j = 0; j <= n; j++) {
  }
  return 0;
}
