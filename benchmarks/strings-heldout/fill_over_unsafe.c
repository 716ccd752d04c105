/* memset one byte past the end: the count is the size + 1. Every run with 1 <= n <= 1000
   writes n + 1 bytes into n; witness n = 1. Memory unsafe. witness-input: 1 */
#include <alloca.h>
#include <stddef.h>
extern int __VERIFIER_nondet_int(void);

static void fill(void *dst, int c, size_t n) {
  unsigned char *d = dst;
  do
    *d++ = (unsigned char)c;
  while (--n != 0);
}

int main(void) {
  int n = __VERIFIER_nondet_int();
  if (n < 1 || n > 1000) return 0;
  char *buf = alloca(n);
  fill(buf, 0, (size_t)n + 1);
  return 0;
}
