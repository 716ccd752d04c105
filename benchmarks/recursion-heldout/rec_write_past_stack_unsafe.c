/* put(a, i, n) writes a[i] for i from 0 while i < n, recursing on i + 1; main's stack array
   has 8 cells but n may be up to 9: for n = 9 the write a[8] is one past the end.
   witness-input: 9 */
extern int __VERIFIER_nondet_int(void);

void put(int *a, int i, int n) {
  if (i >= n) return;
  a[i] = 1;
  put(a, i + 1, n);
}

int main(void) {
  int a[8];
  int n = __VERIFIER_nondet_int();
  if (n < 0 || n > 9) return 0;
  put(a, 0, n);
  return a[0];
}
