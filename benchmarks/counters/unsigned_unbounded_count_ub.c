/* n is unsigned, up to 2^32 - 1 iterations: for n = 4294967295 the int
   counter reaches INT_MAX after 2^31 - 1 iterations and the next c++
   overflows (undefined behaviour). witness-input: 4294967295 */
extern unsigned int __VERIFIER_nondet_uint(void);
int main(void) {
  unsigned int n = __VERIFIER_nondet_uint();
  int c = 0;
  while (n > 0) {
    n--;
    c++;
  }
  return c;
}
