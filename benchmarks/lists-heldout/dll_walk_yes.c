/* Build a doubly linked list of n cells (0 <= n <= 300) by consing at the front (the old
   head's prev is set to the new cell), then walk it forwards from the head. The next fields
   form an acyclic NULL-terminated list of n fresh mallocs: n steps. Terminating and memory
   safe. */
#include <stdlib.h>
extern int __VERIFIER_nondet_int(void);

struct dnode {
  int v;
  struct dnode *next;
  struct dnode *prev;
};

int main(void) {
  int n = __VERIFIER_nondet_int();
  if (n < 0 || n > 300) return 0;
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
  int s = 0;
  for (struct dnode *p = h; p; p = p->next) s ^= p->v;
  return s;
}
