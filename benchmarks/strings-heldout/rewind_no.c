/* A walk that restarts at the string's start whenever it reaches the terminator: the state
   (p = s, memory unchanged) repeats forever, for every input; with n = 1 the loop is
   p = s, *p == 0, p = s, ... Does not terminate. witness-input: 1 */
#include <alloca.h>
extern int __VERIFIER_nondet_int(void);

int main(void) {
  int n = __VERIFIER_nondet_int();
  if (n < 1 || n > 1000) return 0;
  char *s = alloca(n);
  for (int i = 0; i < n - 1; i++)
    s[i] = 'a';
  s[n - 1] = 0;
  char *p = s;
  for (;;) {
    if (*p == 0)
      p = s;
    else
      p++;
  }
}
