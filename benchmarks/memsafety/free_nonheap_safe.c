/* Safe twin of free_nonheap_unsafe.c: the counter is freed only when it is
   the heap block (count != &local), so free() only ever gets a pointer that
   malloc returned, once. No loops. Terminating and memory safe. */
#include <stdlib.h>
extern int __VERIFIER_nondet_int(void);

int main(void) {
  int local = 0;
  int n = __VERIFIER_nondet_int();
  if (n < 0 || n > 100) return 0;
  int *count = &local;
  if (n > 0) {
    count = malloc(sizeof(int));
    if (count == NULL) return 0;
  }
  *count = n;
  int r = *count;
  if (count != &local) free(count);
  return r;
}
