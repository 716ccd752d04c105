/* Build a list of n cells (0 <= n <= 1000) with arbitrary values, then search for an
   arbitrary key: the loop stops at the first cell holding the key or at NULL. The list is
   acyclic and NULL-terminated, so the search takes at most n steps whatever the values.
   Terminating and memory safe. */
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
  int key = __VERIFIER_nondet_int();
  struct node *p = head;
  while (p != NULL && p->value != key) {
    p = p->next;
  }
  return p != NULL;
}
