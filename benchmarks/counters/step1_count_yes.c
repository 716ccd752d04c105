/* n decreases by 1 while positive: at most n0 <= INT_MAX - 0 iterations;
   c starts at 0 and is incremented once per iteration, so c <= n0 - 1 before
   each increment: c++ cannot overflow. Terminates for every input. */
extern int __VERIFIER_nondet_int(void);
int main(void) {
  int n = __VERIFIER_nondet_int();
  int c = 0;
  while (n > 0) {
    n--;
    c++;
  }
  return c;
}
