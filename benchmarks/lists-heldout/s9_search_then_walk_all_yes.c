/* Build a list of n cells (0 <= n <= 500) by consing, values 0..n-1 from the head's n-1
   down; search for an arbitrary key (stops at the first match or at NULL), then walk the
   whole list again from the head counting its cells. Both walks follow the acyclic
   NULL-terminated list of n fresh cells (at most n steps each); the count is at most 500.
   Terminating and memory safe. */
#include <stdlib.h>
extern int __VERIFIER_nondet_int(void);

struct node {
  int v;
  struct node *next;
};

int main(void) {
  int n = __VERIFIER_nondet_int();
  if (n < 0 || n > 500) return 0;
  struct node *head = NULL;
  for (int i = 0; i < n; i++) {
    struct node *c = malloc(sizeof(struct node));
    if (!c) return 0;
    c->v = i;
    c->next = head;
    head = c;
  }
  int key = __VERIFIER_nondet_int();
  struct node *p = head;
  while (p != NULL && p->v != key) p = p->next;
  int found = p != NULL;
  int count = 0;
  for (struct node *q = head; q != NULL; q = q->next) count++;
  return count > 250 && found;
}
