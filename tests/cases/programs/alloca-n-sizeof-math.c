/* Issue 11: under `--int-semantics math` the int `n` is an unbounded integer. Its conversion
 * to size_t keeps the value (sext), and the size_t product n * sizeof(int) is never reduced
 * from above, so its unsigned reading is 4n: the array has n elements and every access below
 * is in bounds. Every run terminates (i counts up to n). */
#include <stdlib.h>

extern int __VERIFIER_nondet_int(void);

int main(void) {
  int n = __VERIFIER_nondet_int();
  if (n < 1) {
    n = 1;
  }
  int *a = (int *) alloca(n * sizeof(int));
  for (int i = 0; i < n; i++) {
    a[i] = i;
  }
  return a[n - 1];
}
