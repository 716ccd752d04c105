/* Recursion with a loop inside each call: f(n) runs an inner countdown of n steps and then
   recurses on n - 1; n <= 1000 keeps the sums small. Both the loop and the recursion
   terminate. No undefined behaviour (s <= n). */
extern int __VERIFIER_nondet_int(void);

int f(int n) {
  if (n <= 0) return 0;
  int s = 0;
  for (int i = n; i > 0; i--) s++;
  return f(n - 1) + (s == n);
}

int main(void) {
  int n = __VERIFIER_nondet_int();
  if (n > 1000) n = 1000;
  return f(n) < 0;
}
