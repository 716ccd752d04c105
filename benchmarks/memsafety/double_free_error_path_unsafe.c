/* Copies len input bytes into a 16-byte heap buffer. If len is too large the
   error path frees the buffer and jumps to the common cleanup, which frees it
   again: double free, memory unsafe for every len > 16. The copy loop is
   bounded by len <= 16.
   Witness: len = 17.
   witness-input: 17 */
#include <stdlib.h>
extern int __VERIFIER_nondet_int(void);
extern char __VERIFIER_nondet_char(void);

int main(void) {
  int status = 0;
  char *buf = malloc(16);
  if (buf == NULL) return 0;
  int len = __VERIFIER_nondet_int();
  if (len < 0 || len > 16) {
    free(buf);
    status = 1;
    goto out;
  }
  for (int i = 0; i < len; i++) buf[i] = __VERIFIER_nondet_char();
out:
  free(buf);
  return status;
}
