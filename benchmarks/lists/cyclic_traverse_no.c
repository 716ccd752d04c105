/* Three cells linked into a cycle a -> b -> c -> a, then walked until NULL: no next is
   NULL, so the walk never ends (all accesses are to live cells). Non-terminating for every
   input (there is none).
   witness-input: 0 */
#include <stdlib.h>

struct node {
  int value;
  struct node *next;
};

int main(void) {
  struct node *a = malloc(sizeof(struct node));
  struct node *b = malloc(sizeof(struct node));
  struct node *c = malloc(sizeof(struct node));
  if (a == NULL || b == NULL || c == NULL) return 0;
  a->value = 1;
  b->value = 2;
  c->value = 3;
  a->next = b;
  b->next = c;
  c->next = a;
  struct node *p = a;
  while (p != NULL) p = p->next;
  return 0;
}
