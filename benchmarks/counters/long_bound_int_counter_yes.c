/* The bound n is a long but capped at 1000 before the loop: at most 1000
   iterations, the int counter stays <= 1000. */
extern long __VERIFIER_nondet_long(void);
int main(void) {
  long n = __VERIFIER_nondet_long();
  if (n > 1000) n = 1000;
  int c = 0;
  while (n > 0) {
    n--;
    c++;
  }
  return c;
}
