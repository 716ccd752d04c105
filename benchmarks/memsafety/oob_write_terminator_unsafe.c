/* Builds a string of len letters in a heap buffer of len bytes and then
   writes the terminating '\0' at buf[len], one byte past the end (the classic
   missing "+ 1" for the terminator): memory unsafe for every len in 1..64.
   The fill loop is bounded by len <= 64.
   Witness: len = 1; the program writes buf[1].
   witness-input: 1 */
#include <stdlib.h>
extern int __VERIFIER_nondet_int(void);

int main(void) {
  int len = __VERIFIER_nondet_int();
  if (len < 1 || len > 64) return 0;
  char *buf = malloc(len);
  if (buf == NULL) return 0;
  for (int i = 0; i < len; i++) buf[i] = (char)('a' + i % 26);
  buf[len] = '\0';
  int first = buf[0];
  free(buf);
  return first;
}
