/* Counts n input values in a histogram of 10 buckets but checks only the
   upper bound v < 10; a negative value indexes hist[v] before the start of
   the stack array: memory unsafe. The loop runs n <= 100 times, so no count
   can overflow.
   Witness: n = 1, v = -1 (writes hist[-1]).
   witness-input: 1 -1 */
extern int __VERIFIER_nondet_int(void);

int main(void) {
  int hist[10];
  for (int i = 0; i < 10; i++) hist[i] = 0;
  int n = __VERIFIER_nondet_int();
  if (n < 1 || n > 100) return 0;
  for (int k = 0; k < n; k++) {
    int v = __VERIFIER_nondet_int();
    if (v < 10) hist[v]++;
  }
  return hist[0];
}
