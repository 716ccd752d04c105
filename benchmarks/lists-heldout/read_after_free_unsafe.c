/* Build n cells (1 <= n <= 100), free the list front to back, but read the next field
   AFTER freeing the cell: the first iteration already reads freed memory. Memory-unsafe
   (use after free) for every n >= 1.
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
  while (h != NULL) {
    free(h);
    h = h->next;
  }
  return 0;
}
