/* strncpy: copy at most k bytes of a 0-terminated string, then pad with 0 up to k bytes.
   dst has k bytes (1 <= k <= 1000); src has n bytes with a 0 at n - 1 (any n, also larger or
   smaller than k). Both loops together write exactly k bytes of dst; the copy loop reads src
   only until its 0 or until k bytes are copied. Terminating and memory safe. */
#include <stdlib.h>
extern int __VERIFIER_nondet_int(void);

static char *ncopy(char *dst, const char *src, unsigned long k) {
  char *d = dst;
  while (k != 0) {
    k--;
    if ((*d++ = *src++) == 0)
      break;
  }
  while (k != 0) {
    *d++ = 0;
    k--;
  }
  return dst;
}

int main(void) {
  int n = __VERIFIER_nondet_int();
  int k = __VERIFIER_nondet_int();
  if (n < 1 || n > 1000 || k < 1 || k > 1000) return 0;
  char *src = malloc(n);
  char *dst = malloc(k);
  if (!src || !dst) return 0;
  src[n - 1] = 0;
  ncopy(dst, src, k);
  free(src);
  free(dst);
  return 0;
}
