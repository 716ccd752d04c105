/* Under `--int-semantics math`: i alternates in sign and its magnitude grows by one per
 * iteration, so it never becomes 0 once |i| > 5 (no state repeats: no concrete lasso).
 * The recurrent set |i| >= 6 is closed under every iteration: NO. Under `c` the magnitude
 * would overflow. */
extern int __VERIFIER_nondet_int(void);

int main(void) {
  int i = __VERIFIER_nondet_int();
  while (i != 0) {
    if (i < -5) {
      i = -(i - 1);
    } else if (i > 5) {
      i = -(i + 1);
    } else {
      i = 0;
    }
  }
  return 0;
}
