/* strcpy into a destination one byte shorter than the source's allocation: with src's only
   0 at n - 1 (contents before it nonzero), the copy writes n bytes into n - 1.
   The witness makes n = 2, m = 1 and src[0] = 'x' (the fill loop's value): the second write
   dst[1] is out of bounds. Memory unsafe. witness-input: 2 120 */
#include <stdlib.h>
extern int __VERIFIER_nondet_int(void);

static void copy(char *d, const char *s) {
  while ((*d++ = *s++) != '\0')
    ;
}

int main(void) {
  int n = __VERIFIER_nondet_int();
  if (n < 2 || n > 1000) return 0;
  int m = n - 1;
  char *src = malloc(n);
  char *dst = malloc(m);
  if (!src || !dst) return 0;
  for (int i = 0; i < n - 1; i++) {
    int c = __VERIFIER_nondet_int();
    src[i] = (char)(c == 0 ? 1 : c);
  }
  src[n - 1] = '\0';
  copy(dst, src);
  free(src);
  free(dst);
  return 0;
}
