/* Build n cells (1 <= n <= 100), free every cell in a walk, then free the old head again:
   a double free for every n >= 1. Memory-unsafe.
   witness-input: 1 */
#include <stdlib.h>
extern int __VERIFIER_nondet_int(void);

struct node {
  int v;
  struct node *next;
};

int main(void) {
  int n = __VERIFIER_nondet_int();
  if (n < 1 || n > 100) return 0;
  struct node *h = NULL;
  for (int i = 0; i < n; i++) {
    struct node *c = malloc(sizeof(struct node));
    if (!c) return 0;
    c->v = i;
    c->next = h;
    h = c;
  }
  struct node *first = h;
  while (h != NULL) {
    struct node *nx = h->next;
    free(h);
    h = nx;
  }
  free(first);
  return 0;
}
