/* Build a doubly linked list of n cells (0 <= n <= 300) with values 0..n-1 by appending at
   the tail, then search backwards from the tail for an arbitrary key: stop at the first cell
   holding it or at the head's prev, NULL. The prev fields form an acyclic NULL-terminated
   chain over the n fresh cells, so the search takes at most n steps whatever the key.
   Terminating and memory safe. */
#include <stdlib.h>
extern int __VERIFIER_nondet_int(void);

struct dnode {
  int val;
  struct dnode *next;
  struct dnode *prev;
};

int main(void) {
  int n = __VERIFIER_nondet_int();
  if (n < 0 || n > 300) return 0;
  struct dnode *h = NULL;
  struct dnode *t = NULL;
  for (int i = 0; i < n; i++) {
    struct dnode *c = malloc(sizeof(struct dnode));
    if (c == NULL) return 0;
    c->val = i;
    c->next = NULL;
    c->prev = t;
    if (t != NULL) t->next = c; else h = c;
    t = c;
  }
  int key = __VERIFIER_nondet_int();
  struct dnode *p = t;
  while (p != NULL && p->val != key) p = p->prev;
  return (p != NULL) + (h != NULL);
}
