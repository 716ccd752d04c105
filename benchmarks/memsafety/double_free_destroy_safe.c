/* Safe twin of double_free_destroy_unsafe.c: after the early free, o->data is
   set to NULL, and free(NULL) does nothing, so destroy() frees the data block
   only if it is still owned; each block is freed exactly once. No loops.
   Terminating and memory safe for every input. */
#include <stdlib.h>
extern int __VERIFIER_nondet_int(void);

struct obj { int size; int *data; };

void destroy(struct obj *o) {
  free(o->data);
  free(o);
}

int main(void) {
  struct obj *o = malloc(sizeof(struct obj));
  if (o == NULL) return 0;
  o->size = 8;
  o->data = malloc(sizeof(int) * 8);
  if (o->data == NULL) { free(o); return 0; }
  int shrink = __VERIFIER_nondet_int();
  if (shrink == 1) {
    free(o->data);
    o->data = NULL;
    o->size = 0;
  }
  destroy(o);
  return 0;
}
