/* Build a list of n cells (0 <= n <= 1000), then walk it, stopping early whenever the
   input says so. Whatever the inputs, each round either stops or moves one cell on along
   the acyclic NULL-terminated list: at most n rounds. Terminating and memory safe. */
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
    c->value = k;
    c->next = head;
    head = c;
  }
  struct node *p = head;
  while (p != NULL) {
    if (__VERIFIER_nondet_int() == 0) break;
    p = p->next;
  }
  return p != NULL;
}
