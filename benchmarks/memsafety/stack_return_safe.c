/* Safe twin of stack_return_unsafe.c: the defaults live in main's frame and
   are passed in, so the returned pointer is either the caller's heap array of
   n >= 4 ints or main's live 4-int array; cfg[0..3] is inside either. The sum
   is unsigned; free(NULL) for n < 4 does nothing. Terminating and memory safe. */
#include <stdlib.h>
extern int __VERIFIER_nondet_int(void);

int *settings(int *user, int n, int *defaults) {
  int *chosen = defaults;
  if (user != NULL && n >= 4) chosen = user;
  return chosen;
}

int main(void) {
  int defaults[4] = {1, 2, 3, 4};
  int n = __VERIFIER_nondet_int();
  if (n < 0 || n > 100) return 0;
  int *user = NULL;
  if (n >= 4) {
    user = malloc(sizeof(int) * n);
    if (user == NULL) return 0;
    for (int i = 0; i < n; i++) user[i] = __VERIFIER_nondet_int();
  }
  int *cfg = settings(user, n, defaults);
  unsigned s = 0;
  for (int i = 0; i < 4; i++) s += (unsigned)cfg[i];
  free(user);
  return (int)(s & 0xff);
}
