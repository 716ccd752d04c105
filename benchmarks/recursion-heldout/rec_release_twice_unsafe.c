/* release(p, d) recurses d times and frees p at depth 0; main then frees p again when its
   flag input is non-zero: double free for d = 2, flag = 1 (any d in [0, 10], flag != 0).
   witness-input: 2 1 */
#include <stdlib.h>
extern int __VERIFIER_nondet_int(void);

int release(int *p, int d) {
  if (d <= 0) {
    free(p);
    return 0;
  }
  return 1 + release(p, d - 1);
}

int main(void) {
  int d = __VERIFIER_nondet_int();
  int flag = __VERIFIER_nondet_int();
  if (d < 0 || d > 10) return 0;
  int *p = malloc(sizeof(int));
  if (!p) return 0;
  *p = d;
  int r = release(p, d);
  if (flag) free(p);
  return r;
}
