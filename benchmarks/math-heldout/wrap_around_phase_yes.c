/* Terminates: t starts at s + 1 and counts up to m, then wraps to 0 and counts up to s,
   where the loop stops (0 <= s < m): at most m + 1 iterations; the guard t != s and the
   wrap make one linear function impossible, two regions (t > s, t < s) rank linearly. */
extern int __VERIFIER_nondet_int(void);
int main(void) {
  int s = __VERIFIER_nondet_int();
  int m = __VERIFIER_nondet_int();
  if (s < 0 || s >= m) return 0;
  int t = s + 1;
  while (t != s) {
    if (t < m) {
      t = t + 1;
    } else {
      t = 0;
    }
  }
  return 0;
}
