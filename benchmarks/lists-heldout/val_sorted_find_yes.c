/* Build n cells (1 <= n <= 500) by appending at the tail, each value at least the previous
   one (the previous value plus a nondeterministic step of 0..3), then search for a key with
   `while (p != NULL && p->val < key)`: the walk stops at NULL or at the first value >= key.
   The list is acyclic, so the walk ends within n steps whatever the values. Terminating and
   memory safe (the cells are leaked; values stay below 4 * 500). */
#include <stdlib.h>
extern int __VERIFIER_nondet_int(void);

struct node {
  int val;
  struct node *next;
};

int main(void) {
  int n = __VERIFIER_nondet_int();
  if (n < 1 || n > 500) return 0;
  struct node *head = malloc(sizeof(struct node));
  if (!head) return 0;
  head->val = 0;
  head->next = NULL;
  struct node *tail = head;
  for (int k = 1; k < n; k++) {
    struct node *c = malloc(sizeof(struct node));
    if (!c) return 0;
    int d = __VERIFIER_nondet_int();
    if (d < 0 || d > 3) d = 1;
    c->val = tail->val + d;
    c->next = NULL;
    tail->next = c;
    tail = c;
  }
  int key = __VERIFIER_nondet_int();
  struct node *p = head;
  while (p != NULL && p->val < key) p = p->next;
  return p != NULL;
}
