/* Safe twin of neg_index_histogram_unsafe.c: a value is counted only if
   0 <= v < 10, so every access is inside the 10-bucket stack array. The loop
   runs n <= 100 times and no count exceeds 100. Terminating and memory safe. */
extern int __VERIFIER_nondet_int(void);

int main(void) {
  int hist[10];
  for (int i = 0; i < 10; i++) hist[i] = 0;
  int n = __VERIFIER_nondet_int();
  if (n < 1 || n > 100) return 0;
  for (int k = 0; k < n; k++) {
    int v = __VERIFIER_nondet_int();
    if (v >= 0 && v < 10) hist[v]++;
  }
  return hist[0];
}
