/* Under `--int-semantics math`: x grows without bound as long as the inputs choose the first
 * branch, so no state repeats and no concrete lasso exists. The run that feeds a non-zero
 * value forever never ends (x >= 1 is kept by every iteration with that input): NO. An input
 * 0 would end the loop, so the witness names its inputs (not "any further inputs"). */
extern int __VERIFIER_nondet_int(void);

int main(void) {
  int x = __VERIFIER_nondet_int();
  while (x >= 0) {
    if (__VERIFIER_nondet_int() != 0) {
      x = x + 2;
    } else {
      x = -1;
    }
  }
  return 0;
}
