/* Build a NULL-terminated list of n cells (0 <= n <= 1000) by consing at the head, then
   walk it with p = p->next until NULL. The list is acyclic (each cell points to a cell
   created before it), so the walk takes n steps. Every p->next read is of a live cell
   (p != NULL inside the loop and every non-NULL next is a cell of the list). Terminating
   and memory safe. */
#include <stdlib.h>
extern int __VERIFIER_nondet_int(void);

struct node {
  int value;
  struct node *next;
};

int main(void) {
  int n = __VERIFIER_nondet_int();
  if (n < 0 || n > 1000) return 0;
  struct node *head = NULL;
  for (int k = 0; k < n; k++) {
    struct node *c = malloc(sizeof(struct node));
    if (c == NULL) return 0;
    c->value = __VERIFIER_nondet_int();
    c->next = head;
    head = c;
  }
  struct node *p = head;
  while (p != NULL) {
    p = p->next;
  }
  return 0;
}
