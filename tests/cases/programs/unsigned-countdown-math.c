/* Under `--int-semantics math` signed integers are unbounded, but an unsigned value still
 * wraps below zero: i = 0, i-- gives UINT_MAX, so `i >= 0` always holds and this loop never
 * ends (a YES would be wrong). The cycle is 2^32 steps long, so no lasso is replayed; the
 * recurrent set over mathematical integers (no iteration can leave the loop) gives NO. */
extern int __VERIFIER_nondet_int(void);

int main(void) {
  int n = __VERIFIER_nondet_int();
  int s = 0;
  for (unsigned i = n; i >= 0; i--) {
    s = 1 - s;
  }
  return s;
}
