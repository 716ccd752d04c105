/* id(n) returns n for n >= 0 (recursion on n - 1 adding 1 back), so x = id(x) never
   changes x and the loop runs forever for x > 1. id terminates for every argument and
   1 + id(n - 1) = n never overflows.
   witness-input: 2 */
extern int __VERIFIER_nondet_int(void);

int id(int n) {
  if (n <= 0) return n;
  return 1 + id(n - 1);
}

int main(void) {
  int x = __VERIFIER_nondet_int();
  while (x > 1) x = id(x);
  return 0;
}
