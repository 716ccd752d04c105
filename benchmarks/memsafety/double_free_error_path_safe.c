/* Safe twin of double_free_error_path_unsafe.c: the error path sets buf to
   NULL after freeing it, and free(NULL) does nothing (C11 7.22.3.3), so the
   block is freed exactly once on every path. The copy loop writes buf[0..len-1]
   with 0 <= len <= 16, inside the 16-byte block. Terminating and memory safe. */
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
    buf = NULL;
    status = 1;
    goto out;
  }
  for (int i = 0; i < len; i++) buf[i] = __VERIFIER_nondet_char();
out:
  free(buf);
  return status;
}
