/* memchr over n bytes of an n-byte buffer (1 <= n <= 1000), filled with a nondeterministic
   byte first: the count n bounds both the fill and the search, each iteration advances the
   pointer by one. Terminating and memory safe. */
#include <alloca.h>
#include <stddef.h>
extern int __VERIFIER_nondet_int(void);

static const char *find(const char *s, int c, size_t n) {
  while (n-- != 0) {
    if (*s == (char)c)
      return s;
    s++;
  }
  return NULL;
}

int main(void) {
  int n = __VERIFIER_nondet_int();
  int c = __VERIFIER_nondet_int();
  if (n < 1 || n > 1000) return 0;
  char *buf = alloca(n);
  for (int i = 0; i < n; i++)
    buf[i] = (char)__VERIFIER_nondet_int();
  return find(buf, c, n) != NULL;
}
