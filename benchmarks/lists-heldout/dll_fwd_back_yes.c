/* Build a doubly linked list of n cells (1 <= n <= 300) by consing at the front (the old
   head's prev is set to the new cell), walk forwards to the last cell, then backwards from it
   to the head through prev. Forwards: the next fields form an acyclic NULL-terminated chain,
   n - 1 steps to the last cell. Backwards: the prev fields form the reverse chain, ending in
   the head's prev, NULL: n steps. Terminating and memory safe. */
#include <stdlib.h>
extern int __VERIFIER_nondet_int(void);

struct dnode {
  int v;
  struct dnode *next;
  struct dnode *prev;
};

int main(void) {
  int n = __VERIFIER_nondet_int();
  if (n < 1 || n > 300) return 0;
  struct dnode *h = NULL;
  for (int i = 0; i < n; i++) {
    struct dnode *c = malloc(sizeof(struct dnode));
    if (!c) return 0;
    c->v = i;
    c->next = h;
    c->prev = NULL;
    if (h) h->prev = c;
    h = c;
  }
  struct dnode *p = h;
  while (p->next) p = p->next;
  int s = 0;
  while (p) {
    s ^= p->v;
    p = p->prev;
  }
  return s;
}
