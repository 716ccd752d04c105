/* As array_sum_rec_yes.c, but main passes n = 9 for its 8-element array: the ninth call
   reads a[8], one past the end, for every input.
   witness-input: 0 0 0 0 0 0 0 0 */
extern int __VERIFIER_nondet_int(void);

int sum(const int *p, int n) {
  if (n <= 0) return 0;
  return p[0] + sum(p + 1, n - 1);
}

int main(void) {
  int a[8];
  for (int i = 0; i < 8; i++) {
    int v = __VERIFIER_nondet_int();
    if (v < -100 || v > 100) v = 0;
    a[i] = v;
  }
  return sum(a, 9) > 900;
}
