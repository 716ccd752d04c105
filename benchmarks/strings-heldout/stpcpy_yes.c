/* stpcpy: copy a 0-terminated string and return a pointer to the copied terminator; the
   caller then writes one more byte behind it. src has n bytes (0 at n - 1), dst has m >= n + 1
   bytes: the copy writes at most n bytes, the returned pointer is at most dst + n - 1, the
   byte behind it at most dst + n <= dst + m - 1. Terminating and memory safe. */
#include <alloca.h>
extern int __VERIFIER_nondet_int(void);

static char *my_stpcpy(char *to, const char *from) {
  for (; (*to = *from) != '\0'; ++from, ++to)
    ;
  return to;
}

int main(void) {
  int n = __VERIFIER_nondet_int();
  int m = __VERIFIER_nondet_int();
  if (n < 1 || n > 1000 || m <= n || m > 1000) return 0;
  char *src = alloca(n);
  char *dst = alloca(m);
  src[n - 1] = 0;
  char *e = my_stpcpy(dst, src);
  e[1] = 0;
  return 0;
}
