/* Build a list of n cells (1 <= n <= 1000) holding 0..n-1, close it into a cycle (the
   last cell, the first one created, points back to the head), then search for -1 until
   NULL or a hit. No cell holds -1 and no next is NULL, so for every n >= 1 the search runs
   forever (all accesses are to live cells). Non-terminating.
   witness-input: 3 */
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
  struct node *last = NULL;
  for (int k = 0; k < n; k++) {
    struct node *c = malloc(sizeof(struct node));
    if (c == NULL) return 0;
    c->value = k;
    c->next = head;
    if (head == NULL) last = c;
    head = c;
  }
  last->next = head;
  struct node *p = head;
  while (p != NULL && p->value != -1) {
    p = p->next;
  }
  return 0;
}
