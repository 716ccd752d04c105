/* Safe twin of unterminated_strncpy_unsafe.c: copy_bounded() gets size 7 and
   main then sets dst[7] = '\0', so all 8 bytes of dst are written and dst
   always holds a '\0' at index <= 7; the strlen-like loop stops there. The
   copy reads src[0..min(len, 7)], inside the terminated heap string of len + 1
   bytes (it stops at src's '\0'). Terminating and memory safe for every input. */
#include <stdlib.h>
extern int __VERIFIER_nondet_int(void);

void copy_bounded(char *dst, const char *src, int size) {
  int i = 0;
  for (; i < size && src[i] != '\0'; i++) dst[i] = src[i];
  for (; i < size; i++) dst[i] = '\0';
}

int main(void) {
  int len = __VERIFIER_nondet_int();
  if (len < 0 || len > 20) return 0;
  char *src = malloc(len + 1);
  if (src == NULL) return 0;
  for (int i = 0; i < len; i++) src[i] = 'a';
  src[len] = '\0';
  char dst[8];
  copy_bounded(dst, src, 7);
  dst[7] = '\0';
  int n = 0;
  while (dst[n] != '\0') n++;
  free(src);
  return n;
}
