/* n is a short (at most 32767), so the loop runs at most 32767 times and the
   int counter c stays far below INT_MAX. */
extern short __VERIFIER_nondet_short(void);
int main(void) {
  short n = __VERIFIER_nondet_short();
  int c = 0;
  while (n > 0) {
    n--;
    c++;
  }
  return c;
}
