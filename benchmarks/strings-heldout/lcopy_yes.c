/* strlcpy: copy at most siz - 1 bytes (siz = size of dst, 1..1000), always terminate dst,
   then walk the rest of src to its 0 (src has n bytes, 0 at n - 1). The first loop writes at
   most siz - 1 bytes, the terminator lands at most at dst + siz - 1, the final walk stops at
   src's 0. Terminating and memory safe. */
#include <stdlib.h>
#include <stddef.h>
extern int __VERIFIER_nondet_int(void);

static size_t lcopy(char *dst, const char *src, size_t siz) {
  char *d = dst;
  const char *s = src;
  size_t left = siz;
  while (--left != 0) {
    if ((*d++ = *s++) == 0)
      break;
  }
  if (left == 0) {
    *d = 0;
    while (*s++)
      ;
  }
  return (size_t)(s - src - 1);
}

int main(void) {
  int n = __VERIFIER_nondet_int();
  int siz = __VERIFIER_nondet_int();
  if (n < 1 || n > 1000 || siz < 1 || siz > 1000) return 0;
  char *src = malloc(n);
  char *dst = malloc(siz);
  if (!src || !dst) return 0;
  src[n - 1] = 0;
  lcopy(dst, src, siz);
  free(src);
  free(dst);
  return 0;
}
