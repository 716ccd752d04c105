/* Builds a list of n >= 0 nodes and reads the value of its first node. For
   n = 0 the list is empty, head is NULL and head->value dereferences NULL:
   memory unsafe. The loops are bounded by n <= 100 and the acyclic list.
   Witness: n = 0.
   witness-input: 0 */
#include <stdlib.h>
extern int __VERIFIER_nondet_int(void);

struct node { int value; struct node *next; };

int main(void) {
  int n = __VERIFIER_nondet_int();
  if (n < 0 || n > 100) return 0;
  struct node *head = NULL;
  for (int i = 0; i < n; i++) {
    struct node *e = malloc(sizeof(struct node));
    if (e == NULL) return 0;
    e->value = i;
    e->next = head;
    head = e;
  }
  int first = head->value;
  while (head != NULL) {
    struct node *next = head->next;
    free(head);
    head = next;
  }
  return first;
}
