/* Builds a list of n nodes and frees it with
   for (p = head; p != NULL; p = p->next) free(p);
   The step p = p->next reads the next field of the node that was just freed:
   use after free, memory unsafe for every n >= 1. The build loop is bounded
   by n <= 100.
   Witness: n = 1.
   witness-input: 1 */
#include <stdlib.h>
extern int __VERIFIER_nondet_int(void);

struct node { int value; struct node *next; };

int main(void) {
  int n = __VERIFIER_nondet_int();
  if (n < 1 || n > 100) return 0;
  struct node *head = NULL;
  for (int i = 0; i < n; i++) {
    struct node *e = malloc(sizeof(struct node));
    if (e == NULL) return 0;
    e->value = i;
    e->next = head;
    head = e;
  }
  for (struct node *p = head; p != NULL; p = p->next) free(p);
  return 0;
}
