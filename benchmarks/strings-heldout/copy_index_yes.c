/* strcpy written with an index: dst[i] = src[i] until src[i] is 0, then the terminator.
   src has n bytes (1 <= n <= 1000) and a 0 at n - 1, so i < n at every read and i <= n - 1
   at the final write; dst has m >= n bytes. Terminating and memory safe. */
#include <alloca.h>
extern int __VERIFIER_nondet_int(void);

static void copy(char *dst, const char *src) {
  int i = 0;
  while (src[i] != 0) {
    dst[i] = src[i];
    i++;
  }
  dst[i] = 0;
}

int main(void) {
  int n = __VERIFIER_nondet_int();
  int m = __VERIFIER_nondet_int();
  if (n < 1 || n > 1000 || m < n || m > 1000) return 0;
  char *src = alloca(n);
  char *dst = alloca(m);
  src[n - 1] = 0;
  copy(dst, src);
  return 0;
}
