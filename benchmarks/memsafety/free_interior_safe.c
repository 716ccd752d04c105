/* Safe twin of free_interior_unsafe.c: blanks are skipped with a separate
   cursor p and the original block start is freed. The skip loop reads
   line[0..k] with k <= n, because line[n] = '\0' is not a blank.
   Terminating and memory safe for every input. */
#include <stdlib.h>
extern int __VERIFIER_nondet_int(void);
extern char __VERIFIER_nondet_char(void);

int main(void) {
  int n = __VERIFIER_nondet_int();
  if (n < 1 || n > 64) return 0;
  char *line = malloc(n + 1);
  if (line == NULL) return 0;
  for (int i = 0; i < n; i++) line[i] = __VERIFIER_nondet_char();
  line[n] = '\0';
  char *p = line;
  while (*p == ' ') p++;
  int first = *p;
  free(line);
  return first;
}
