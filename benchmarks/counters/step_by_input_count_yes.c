/* The step s is at least 1 and n >= s in the body, so n - s >= 0 never
   overflows; n decreases by s >= 1 per iteration, so at most n0 iterations
   and the counter c < n0 <= INT_MAX before each increment. */
extern int __VERIFIER_nondet_int(void);
int main(void) {
  int n = __VERIFIER_nondet_int();
  int s = __VERIFIER_nondet_int();
  if (s < 1) return 0;
  int c = 0;
  while (n >= s) {
    n -= s;
    c++;
  }
  return c;
}
