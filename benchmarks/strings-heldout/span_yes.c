/* strspn with a nested scan: for each byte of s the set is scanned up to its 0; the outer
   loop continues only on a byte found in the set, i.e. a nonzero byte, so it stops at the
   latest at s's 0. Both strings end in a 0 at their last byte (sizes 1..1000). Terminating
   and memory safe. */
#include <stdlib.h>
#include <stddef.h>
extern int __VERIFIER_nondet_int(void);

static size_t span(const char *s, const char *set) {
  size_t k = 0;
  for (;;) {
    char c = s[k];
    const char *q = set;
    while (*q != 0 && *q != c)
      q++;
    if (*q == 0)
      return k;
    k++;
  }
}

int main(void) {
  int n = __VERIFIER_nondet_int();
  int m = __VERIFIER_nondet_int();
  if (n < 1 || n > 1000 || m < 1 || m > 1000) return 0;
  char *s = malloc(n);
  char *set = malloc(m);
  if (!s || !set) return 0;
  s[n - 1] = 0;
  set[m - 1] = 0;
  size_t r = span(s, set);
  free(s);
  free(set);
  return (int)r;
}
