/* Replace every byte equal to `from` by `to` in place, until the terminator. `to` may be 0:
   a replaced byte was nonzero, so it is not the terminator at n - 1, which stays 0; the walk
   stops at the latest there. Terminating and memory safe. */
#include <alloca.h>
extern int __VERIFIER_nondet_int(void);

static int replace(char *s, char from, char to) {
  int count = 0;
  for (char *p = s; *p != 0; p++) {
    if (*p == from) {
      *p = to;
      count++;
    }
  }
  return count;
}

int main(void) {
  int n = __VERIFIER_nondet_int();
  if (n < 1 || n > 1000) return 0;
  char *s = alloca(n);
  s[n - 1] = 0;
  return replace(s, (char)__VERIFIER_nondet_int(), (char)__VERIFIER_nondet_int());
}
