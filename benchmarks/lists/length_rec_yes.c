/* Build a list of n cells (0 <= n <= 1000) in a loop, then compute its length by
   recursion on next: each call moves one cell on along the acyclic NULL-terminated list,
   so the depth is n. Terminating and memory safe. */
#include <stdlib.h>
extern int __VERIFIER_nondet_int(void);

struct node {
  int value;
  struct node *next;
};

static int length(struct node *p) {
  if (p == NULL) return 0;
  return 1 + length(p->next);
}

int main(void) {
  int n = __VERIFIER_nondet_int();
  if (n < 0 || n > 1000) return 0;
  struct node *head = NULL;
  for (int k = 0; k < n; k++) {
    struct node *c = malloc(sizeof(struct node));
    if (c == NULL) return 0;
    c->value = k;
    c->next = head;
    head = c;
  }
  return length(head);
}
