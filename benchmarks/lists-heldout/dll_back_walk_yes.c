/* Build a doubly linked list of n cells (0 <= n <= 300) by appending at the tail (the new
   cell's prev is the old tail, the old tail's next the new cell), then walk it backwards from
   the tail through prev. The prev fields form an acyclic NULL-terminated chain of the n fresh
   mallocs (the head's prev is NULL, each other cell's prev is the cell allocated before it):
   n steps. Terminating and memory safe. */
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
  struct dnode *t = NULL;
  for (int i = 0; i < n; i++) {
    struct dnode *c = malloc(sizeof(struct dnode));
    if (!c) return 0;
    c->v = i;
    c->next = NULL;
    c->prev = t;
    if (t) t->next = c; else h = c;
    t = c;
  }
  int s = 0;
  for (struct dnode *p = t; p; p = p->prev) s ^= p->v;
  return s + (h != NULL);
}
