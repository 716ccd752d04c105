/* Issue 11 part 3: the same copy into a block one byte shorter than the source's. With n = 2
 * and a nonzero first byte the copy writes dst[1], one past the end: the room invariant does
 * not hold, the write stays an error state, and the interpreter replays a faulting run. */
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
  if (n < 2) return 0;
  char *src = (char *) alloca(n);
  char *dst = (char *) alloca(n - 1);
  for (int i = 0; i < n - 1; i++)
    src[i] = 'x';
  src[n - 1] = '\0';
  copy(dst, src);
  return 0;
}
