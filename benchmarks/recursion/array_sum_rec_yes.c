/* Recursive sum over an array on main's stack: sum(p, n) reads p[0] and recurses on
   (p + 1, n - 1) until n == 0; main passes its 8-element array with n = 8, so every read is
   in bounds. Values are in [-100, 100]: the sum cannot overflow. Terminating and memory
   safe. */
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
  return sum(a, 8) > 800;
}
