/* strcpy through two walking pointers into a malloc'd destination at least as large as the
   source's allocation. The source (n bytes, 1 <= n <= 1000, contents arbitrary) ends in a 0
   written by main, so the copy loop stops at the latest at that 0: it reads at most n bytes of
   src and writes at most n <= m bytes of dst. Terminating and memory safe. */
#include <stdlib.h>
extern int __VERIFIER_nondet_int(void);

static void copy(char *d, const char *s) {
  while ((*d++ = *s++) != '\0')
    ;
}

int main(void) {
  int n = __VERIFIER_nondet_int();
  int m = __VERIFIER_nondet_int();
  if (n < 1 || n > 1000 || m < n || m > 1000) return 0;
  char *src = malloc(n);
  char *dst = malloc(m);
  if (!src || !dst) return 0;
  src[n - 1] = '\0';
  copy(dst, src);
  free(src);
  free(dst);
  return 0;
}
