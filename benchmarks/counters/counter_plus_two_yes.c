/* n decreases by 4 while n > 3: at most INT_MAX/4 iterations; c grows by 2
   per iteration, so c <= 2 * (2^29) = 2^30 < INT_MAX. */
extern int __VERIFIER_nondet_int(void);
int main(void) {
  int n = __VERIFIER_nondet_int();
  int c = 0;
  while (n > 3) {
    n -= 4;
    c += 2;
  }
  return c;
}
