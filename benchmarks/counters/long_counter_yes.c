/* An int bound, a long counter: at most INT_MAX iterations, the long
   counter cannot overflow. */
extern int __VERIFIER_nondet_int(void);
int main(void) {
  int n = __VERIFIER_nondet_int();
  long c = 0;
  while (n > 0) {
    n--;
    c++;
  }
  return (int)(c & 1);
}
