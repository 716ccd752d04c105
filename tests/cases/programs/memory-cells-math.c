/* Under `--int-semantics math`: the loop keeps its state in a local array (two cells at
 * constant offsets of one alloca), so the recurrent set is over memory cells: v[1] >= 1 and
 * v[0] > 0 stay true while both grow without bound (no state repeats: no concrete lasso).
 * Under `c` v[0] would overflow. */
extern int __VERIFIER_nondet_int(void);

int main(void) {
  int v[2];
  v[0] = __VERIFIER_nondet_int();
  v[1] = 1;
  while (v[0] > 0) {
    v[1] = v[1] + 1;
    v[0] = v[0] + v[1];
  }
  return 0;
}
