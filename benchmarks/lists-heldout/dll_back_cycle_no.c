/* Build a doubly linked list of n cells (1 <= n <= 100) by appending at the tail, then close
   the prev chain into a cycle (the head's prev is the tail) and search backwards from the
   tail for the value -1, which no cell holds (values are 0..n-1). The walk goes round the
   prev cycle forever, reading live cells only. Non-terminating for every n >= 1.
   witness-input: 1 */
#include <stdlib.h>
extern int __VERIFIER_nondet_int(void);

struct dnode {
  int v;
  struct dnode *next;
  struct dnode *prev;
};

int main(void) {
  int n = __VERIFIER_nondet_int();
  if (n < 1 || n > 100) return 0;
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
  h->prev = t;
  struct dnode *p = t;
  while (p != NULL && p->v != -1) p = p->prev;
  return 0;
}
