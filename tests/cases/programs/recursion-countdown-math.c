/* The terminating twin of recursion-forever-math.c: new_ll stops at n <= 0, so every call
   chain is at most n deep. Expected under --int-semantics math: YES (the recursion
   witness search must never turn it into NO). */
#include <stdlib.h>
extern int __VERIFIER_nondet_int(void);

struct node { int val; struct node *next; };

struct node *new_ll(int n) {
  if (n <= 0) return NULL;
  struct node *head = malloc(sizeof(struct node));
  head->val = n;
  head->next = new_ll(n - 1);
  return head;
}

int main(void) {
  struct node *head = new_ll(__VERIFIER_nondet_int());
  return head == NULL;
}
