/* Reads n characters into a heap buffer of n bytes without a terminating
   '\0' and then measures the string with a strlen-like loop. If none of the
   n input characters is '\0', the loop reads s[n], one past the block: memory
   unsafe. (Until that read the loop is bounded by the block.)
   Witness: n = 1, s[0] = 'a' (97).
   witness-input: 1 97 */
#include <stdlib.h>
extern int __VERIFIER_nondet_int(void);
extern char __VERIFIER_nondet_char(void);

int main(void) {
  int n = __VERIFIER_nondet_int();
  if (n < 1 || n > 64) return 0;
  char *s = malloc(n);
  if (s == NULL) return 0;
  for (int i = 0; i < n; i++) s[i] = __VERIFIER_nondet_char();
  int len = 0;
  while (s[len] != '\0') len++;
  free(s);
  return len;
}
