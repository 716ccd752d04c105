/* settings() returns the caller's heap array when it has at least 4 entries,
   otherwise a pointer to its own local array of defaults. That local array
   dies when settings() returns, so for n < 4 main reads cfg[0..3] from a dead
   stack frame: use after return (use after scope), memory unsafe.
   Loops are bounded by n <= 100 and by 4.
   Witness: n = 0.
   witness-input: 0 */
#include <stdlib.h>
extern int __VERIFIER_nondet_int(void);

int *settings(int *user, int n) {
  int defaults[4] = {1, 2, 3, 4};
  int *chosen = defaults;
  if (user != NULL && n >= 4) chosen = user;
  return chosen;
}

int main(void) {
  int n = __VERIFIER_nondet_int();
  if (n < 0 || n > 100) return 0;
  int *user = NULL;
  if (n >= 4) {
    user = malloc(sizeof(int) * n);
    if (user == NULL) return 0;
    for (int i = 0; i < n; i++) user[i] = __VERIFIER_nondet_int();
  }
  int *cfg = settings(user, n);
  unsigned s = 0;
  for (int i = 0; i < 4; i++) s += (unsigned)cfg[i];
  free(user);
  return (int)(s & 0xff);
}
