/* new_ll(n) builds a list of n cells for n >= 0; for n < 0 it calls itself on n - 1, n - 2,
   ... and never reaches 0: over mathematical integers (--int-semantics math) the recursion
   never returns. Each level writes one field of a fresh cell before the call. Expected: NO,
   with a recurrent set of the parameter (n <= -1) reached by a replayed call of new_ll.
   (Under c, n - 1 overflows at INT_MIN: undefined behaviour, so not NO there.) */
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
