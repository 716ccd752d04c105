/* Two cells pointing at each other (a -> b -> a), values 1 and 2; search for value 3: it is
   absent and no next is NULL, so the search never stops; all accesses are to live cells.
   Non-terminating (no input).
   witness-input: 0 */
#include <stdlib.h>

struct node {
  int v;
  struct node *next;
};

int main(void) {
  struct node *a = malloc(sizeof(struct node));
  struct node *b = malloc(sizeof(struct node));
  if (!a || !b) return 0;
  a->v = 1;
  b->v = 2;
  a->next = b;
  b->next = a;
  struct node *p = a;
  while (p != NULL && p->v != 3) p = p->next;
  return 0;
}
