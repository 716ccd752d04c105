/* memset as a do-while over a size_t count: the count equals the buffer's size (1 <= n <= 1000),
   each iteration writes one byte and decrements the count, so exactly n bytes are written.
   Terminating and memory safe. */
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
  int c = __VERIFIER_nondet_int();
  if (n < 1 || n > 1000) return 0;
  char *buf = alloca(n);
  fill(buf, c, n);
  return 0;
}
