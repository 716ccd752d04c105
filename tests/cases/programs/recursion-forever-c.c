/* The same list builder as recursion-forever-math.c under the default --int-semantics c:
   for n < 0 the argument reaches INT_MIN after 2^31 levels and n - 1 overflows (undefined
   behaviour), so the infinite recursion of the mathematical semantics is not a C run.
   Expected: MAYBE (no NO may be claimed). */
#include <stdlib.h>
extern int __VERIFIER_nondet_int(void);

struct node { int val; struct node *next; };

struct node *new_ll(int n) {
  if (n == 0) return NULL;
  struct node *head = malloc(sizeof(struct node));
  head->val = n;
  head->next = new_ll(n - 1);
  return head;
}

int main(void) {
  struct node *head = new_ll(__VERIFIER_nondet_int());
  return head == NULL;
}
