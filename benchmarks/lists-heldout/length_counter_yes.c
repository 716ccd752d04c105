/* Build n cells (0 <= n <= 1000) and compute the length with a counter beside the walk.
   The counter is at most n (the walk takes exactly n steps on the acyclic list), so it does
   not overflow. Terminating and memory safe. */
#include <stdlib.h>
extern int __VERIFIER_nondet_int(void);

struct node {
  int v;
  struct node *next;
};

int main(void) {
  int n = __VERIFIER_nondet_int();
  if (n < 0 || n > 1000) return 0;
  struct node *h = NULL;
  for (int i = 0; i < n; i++) {
    struct node *c = malloc(sizeof(struct node));
    if (!c) return 0;
    c->v = 0;
    c->next = h;
    h = c;
  }
  int len = 0;
  for (struct node *p = h; p != NULL; p = p->next) len = len + 1;
  return len;
}
