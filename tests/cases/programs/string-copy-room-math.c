/* Issue 11 part 3: strcpy through two walking pointers into a block at least as large as the
 * source's. The source's only known 0 is its last byte, so the copy reads and writes at most
 * n bytes; the merge keeps `d - s <= end(dst) - end(src)` (room), which bounds every write.
 * Terminating and memory safe. */
#include <stdlib.h>

extern int __VERIFIER_nondet_int(void);

static char *copy(char *s1, const char *s2) {
  char *d = s1;
  while ((*d++ = *s2++) != '\0')
    ;
  return s1;
}

int main(void) {
  int n = __VERIFIER_nondet_int();
  int m = __VERIFIER_nondet_int();
  if (n < 1 || m < n) return 0;
  char *src = (char *) alloca(n);
  char *dst = (char *) alloca(m);
  src[n - 1] = '\0';
  copy(dst, src);
  return 0;
}
