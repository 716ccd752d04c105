/* Safe twin of oob_write_terminator_unsafe.c: the buffer has len + 1 bytes,
   so the letters go to buf[0..len-1] and the terminator to buf[len], all
   inside the block. len is in 1..64 (len + 1 cannot overflow). The fill loop
   ends after len steps. Terminating and memory safe for every input. */
#include <stdlib.h>
extern int __VERIFIER_nondet_int(void);

int main(void) {
  int len = __VERIFIER_nondet_int();
  if (len < 1 || len > 64) return 0;
  char *buf = malloc(len + 1);
  if (buf == NULL) return 0;
  for (int i = 0; i < len; i++) buf[i] = (char)('a' + i % 26);
  buf[len] = '\0';
  int first = buf[0];
  free(buf);
  return first;
}
