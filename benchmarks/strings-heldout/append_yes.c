/* strcat: find the end of dst's string (a 0 at index k - 1, k <= size of dst), then copy src
   (n bytes, 0 at n - 1) behind it. dst's allocation has room: size >= k - 1 + n. Terminating
   and memory safe. */
#include <alloca.h>
extern int __VERIFIER_nondet_int(void);

static char *append(char *dst, const char *src) {
  char *d = dst;
  while (*d != 0)
    d++;
  while ((*d++ = *src++) != 0)
    ;
  return dst;
}

int main(void) {
  int n = __VERIFIER_nondet_int();
  int k = __VERIFIER_nondet_int();
  int size = __VERIFIER_nondet_int();
  if (n < 1 || n > 1000 || k < 1 || k > 1000 || size > 2000 || size < k - 1 + n) return 0;
  char *src = alloca(n);
  char *dst = alloca(size);
  src[n - 1] = 0;
  dst[k - 1] = 0;
  append(dst, src);
  return 0;
}
