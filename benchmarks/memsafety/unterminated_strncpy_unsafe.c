/* copy_bounded() behaves like strncpy: it copies at most size characters and
   pads with '\0', but does NOT terminate dst when src has size or more
   characters. main copies a string of len letters into an 8-byte local dst
   with size 8; for len >= 8 dst has no '\0' and the strlen-like loop reads
   dst[8], past the stack array: memory unsafe. Loops are bounded by 8 and 20.
   Witness: len = 8.
   witness-input: 8 */
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
  copy_bounded(dst, src, 8);
  int n = 0;
  while (dst[n] != '\0') n++;
  free(src);
  return n;
}
