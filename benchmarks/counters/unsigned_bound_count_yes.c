/* n is unsigned and below 2^31 after the check, so the loop runs at most
   2^31 - 1 times and the signed counter c <= 2^31 - 2 before c++. */
extern unsigned int __VERIFIER_nondet_uint(void);
int main(void) {
  unsigned int n = __VERIFIER_nondet_uint();
  if (n >= 0x80000000u) return 0;
  int c = 0;
  while (n > 0) {
    n--;
    c++;
  }
  return c;
}
