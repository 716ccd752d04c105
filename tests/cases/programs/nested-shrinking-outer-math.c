/* Under `--int-semantics math`: the same nest as nested-growing-outer-math, but n falls by 1
 * per outer round, so it terminates; no recurrent set may be claimed. */
extern int __VERIFIER_nondet_int(void);

int main(void) {
  int n = __VERIFIER_nondet_int();
  int j;
  while (n > 0) {
    j = 0;
    while (j < n) {
      j = j + 1;
    }
    n = n - 1;
  }
  return 0;
}
