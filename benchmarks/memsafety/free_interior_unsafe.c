/* Reads a line of n characters into a terminated heap buffer, skips leading
   blanks by advancing the buffer pointer itself, and then frees the advanced
   pointer. If the line starts with a blank, free() gets an address inside the
   block, not its start: invalid free, memory unsafe. The skip loop stops at
   the terminator line[n] at the latest.
   Witness: n = 1, line[0] = ' ' (32).
   witness-input: 1 32 */
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
  while (*line == ' ') line++;
  int first = *line;
  free(line);
  return first;
}
