/* A stack as a list: push n cells (0 <= n <= 300), then pop (unlink and free the head)
   until empty, with a counter of pops (at most n, no overflow). Each pop removes one cell of
   the acyclic list. Terminating and memory safe. */
#include <stdlib.h>
extern int __VERIFIER_nondet_int(void);

struct node {
  int v;
  struct node *next;
};

static struct node *top = NULL;

int main(void) {
  int n = __VERIFIER_nondet_int();
  if (n < 0 || n > 300) return 0;
  for (int i = 0; i < n; i++) {
    struct node *c = malloc(sizeof(struct node));
    if (!c) return 0;
    c->v = i;
    c->next = top;
    top = c;
  }
  int pops = 0;
  while (top != NULL) {
    struct node *t = top;
    top = t->next;
    free(t);
    pops++;
  }
  return pops;
}
