/* Build a list of n cells (1 <= n <= 1000) with arbitrary values, then compute the
   maximum in one walk (acyclic NULL-terminated list: n - 1 steps after the head).
   Terminating and memory safe. */
#include <stdlib.h>
extern int __VERIFIER_nondet_int(void);

struct node {
  int value;
  struct node *next;
};

int main(void) {
  int n = __VERIFIER_nondet_int();
  if (n < 1 || n > 1000) return 0;
  struct node *head = NULL;
  for (int k = 0; k < n; k++) {
    struct node *c = malloc(sizeof(struct node));
    if (c == NULL) return 0;
    c->value = __VERIFIER_nondet_int();
    c->next = head;
    head = c;
  }
  int max = head->value;
  for (struct node *p = head->next; p != NULL; p = p->next)
    if (p->value > max) max = p->value;
  return max > 0;
}
