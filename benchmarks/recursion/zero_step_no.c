/* g returns 0 for every argument (recursion down to n <= 0), so main's loop x = x - g(x)
   never changes x: for x > 0 the loop runs forever. g(x) itself terminates (depth x) and
   has no undefined behaviour.
   witness-input: 1 */
extern int __VERIFIER_nondet_int(void);

int g(int n) {
  if (n <= 0) return 0;
  return g(n - 1);
}

int main(void) {
  int x = __VERIFIER_nondet_int();
  while (x > 0) x = x - g(x);
  return 0;
}
