/* Reads n values into a heap block; if the first value is negative the error
   path frees the block, but the code after it still reads buf[0] from the
   freed block: use after free, memory unsafe. No loop except the bounded
   fill loop (n <= 100).
   Witness: n = 1, buf[0] = -1.
   witness-input: 1 -1 */
#include <stdlib.h>
extern int __VERIFIER_nondet_int(void);

int main(void) {
  int n = __VERIFIER_nondet_int();
  if (n < 1 || n > 100) return 0;
  int *buf = malloc(sizeof(int) * n);
  if (buf == NULL) return 0;
  for (int i = 0; i < n; i++) buf[i] = __VERIFIER_nondet_int();
  int failed = 0;
  if (buf[0] < 0) {
    free(buf);
    failed = 1;
  }
  int first = buf[0];
  if (!failed) free(buf);
  return first > 0;
}
