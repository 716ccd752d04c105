/* half(n) returns n / 2 for n >= 0 (recursion on n - 2 adding 1; it terminates: n decreases
   by 2 to 0 or 1). The loop subtracts half(x) from x, which is 0 for x = 1: from x = 1 (and
   from every x >= 1, since x - x / 2 >= 1 for x >= 1 and reaches 1) x stays 1 forever.
   No overflow (x only shrinks, stays >= 1). Non-terminating.
   witness-input: 1 */
extern int __VERIFIER_nondet_int(void);

int half(int n) {
  if (n < 2) return 0;
  return 1 + half(n - 2);
}

int main(void) {
  int x = __VERIFIER_nondet_int();
  if (x > 1000) return 0;
  while (x > 0) x = x - half(x);
  return 0;
}
