/* Build a doubly linked list of n cells (0 <= n <= 300) by appending at the tail, then free
   it backwards: save the tail's prev, free the tail, continue from the saved cell. Each cell
   is read (its prev) and freed exactly once, before any cell allocated earlier, and the walk
   ends at the head's prev, NULL: n steps. Terminating and memory safe (no leak either). */
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
  struct dnode *t = NULL;
  for (int i = 0; i < n; i++) {
    struct dnode *c = malloc(sizeof(struct dnode));
    if (!c) return 0;
    c->v = i;
    c->next = NULL;
    c->prev = t;
    if (t) t->next = c;
    t = c;
  }
  while (t) {
    struct dnode *q = t->prev;
    free(t);
    t = q;
  }
  return 0;
}
