/* An object owns a heap data block; destroy() frees the data and then the
   object. When the input asks to shrink, main frees the data early but leaves
   the stale pointer in o->data, so destroy() frees the data block a second
   time: double free, memory unsafe. No loops.
   Witness: shrink = 1.
   witness-input: 1 */
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
    o->size = 0;
  }
  destroy(o);
  return 0;
}
