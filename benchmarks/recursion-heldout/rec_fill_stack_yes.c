/* fill(a, i, n) writes a[i] = i and recurses on i + 1 while i < n; main passes its 32-cell
   stack array and n <= 32, so every write index is in [0, 31] and n - i decreases. Then a
   loop reads the first n cells. Terminating and memory safe. */
extern int __VERIFIER_nondet_int(void);

void fill(int *a, int i, int n) {
  if (i >= n) return;
  a[i] = i;
  fill(a, i + 1, n);
}

int main(void) {
  int a[32];
  int n = __VERIFIER_nondet_int();
  if (n < 0 || n > 32) return 0;
  fill(a, 0, n);
  int s = 0;
  for (int i = 0; i < n; i++) s += a[i];
  return s;
}
