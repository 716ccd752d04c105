/* Safe twin of unterminated_heap_unsafe.c: the buffer has n + 1 bytes and
   s[n] = '\0', so the strlen-like loop stops at the first '\0' at index
   len <= n, reading only s[0..len], all inside the block and all written.
   n is in 1..64. Terminating and memory safe for every input. */
#include <stdlib.h>
extern int __VERIFIER_nondet_int(void);
extern char __VERIFIER_nondet_char(void);

int main(void) {
  int n = __VERIFIER_nondet_int();
  if (n < 1 || n > 64) return 0;
  char *s = malloc(n + 1);
  if (s == NULL) return 0;
  for (int i = 0; i < n; i++) s[i] = __VERIFIER_nondet_char();
  s[n] = '\0';
  int len = 0;
  while (s[len] != '\0') len++;
  free(s);
  return len;
}
