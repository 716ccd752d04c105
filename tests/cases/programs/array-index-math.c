/* Under `--int-semantics math`: the loop walks a local array with a variable index
 * (i = (i + 1) % 4) and adds the previous cell to the one it visits; every cell stays
 * positive and grows without bound, so no state repeats (no concrete lasso). The recurrent
 * set is over the array's four cells and the index, which stays in 0..3 (an index outside
 * the array would be undefined behaviour, which the set excludes). Under `c` the cells
 * would overflow. */
extern int __VERIFIER_nondet_int(void);

int main(void) {
  int a[4];
  int x = __VERIFIER_nondet_int();
  for (int k = 0; k < 4; k++)
    a[k] = x;
  int i = 0;
  while (a[i] > 0) {
    a[i] = a[i] + a[(i + 3) % 4];
    i = (i + 1) % 4;
  }
  return 0;
}
