/* Build a list of n cells (0 <= n <= 1000), then walk it two cells per round (the second
   step only when the first did not reach NULL). Every round moves at least one cell on
   along the acyclic NULL-terminated list, so there are at most n rounds. Terminating and
   memory safe. */
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
  int rounds = 0;
  struct node *p = head;
  while (p != NULL) {
    p = p->next;
    if (p != NULL) p = p->next;
    rounds++;
  }
  return rounds;
}
