/* bzero of a prefix: the post-decrement loop `for (p = b; len--;)` writes len bytes, and
   len <= size of the allocation (1 <= len <= size <= 1000). Terminating and memory safe. */
#include <stdlib.h>
#include <stddef.h>
extern int __VERIFIER_nondet_int(void);

static void zero(void *b, size_t len) {
  char *p;
  for (p = b; len--;)
    *p++ = 0;
}

int main(void) {
  int size = __VERIFIER_nondet_int();
  int len = __VERIFIER_nondet_int();
  if (size < 1 || size > 1000 || len < 1 || len > size) return 0;
  char *b = malloc(size);
  if (!b) return 0;
  zero(b, len);
  free(b);
  return 0;
}
