/* Safe twin of null_empty_list_unsafe.c: the first value is read only when the
   list is non-empty (head != NULL). Loops are bounded by n <= 100 and the
   acyclic list; every node is freed once. Terminating and memory safe. */
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
  int first = (head != NULL) ? head->value : -1;
  while (head != NULL) {
    struct node *next = head->next;
    free(head);
    head = next;
  }
  return first;
}
