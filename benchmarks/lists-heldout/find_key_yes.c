/* Build n cells (1 <= n <= 400) with keys 0..n-1, search for a nondeterministic key; stop
   at the first match or at NULL. The list is acyclic, so the search takes at most n steps
   whether or not the key is present. Terminating and memory safe. */
#include <stdlib.h>
extern int __VERIFIER_nondet_int(void);

struct node {
  int key;
  struct node *next;
};

int main(void) {
  int n = __VERIFIER_nondet_int();
  int k = __VERIFIER_nondet_int();
  if (n < 1 || n > 400) return 0;
  struct node *head = NULL;
  for (int i = 0; i < n; i++) {
    struct node *c = malloc(sizeof(struct node));
    if (!c) return 0;
    c->key = i;
    c->next = head;
    head = c;
  }
  struct node *p = head;
  while (p != NULL && p->key != k) p = p->next;
  return p != NULL;
}
