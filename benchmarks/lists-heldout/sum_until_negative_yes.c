/* Build n cells (0 <= n <= 300) with nondeterministic values in [-10, 10], then walk until
   NULL or a negative value, summing (the sum stays within +-3000, no overflow). At most n
   steps on the acyclic list. Terminating and memory safe. */
#include <stdlib.h>
extern int __VERIFIER_nondet_int(void);

struct node {
  int v;
  struct node *next;
};

int main(void) {
  int n = __VERIFIER_nondet_int();
  if (n < 0 || n > 300) return 0;
  struct node *h = NULL;
  for (int i = 0; i < n; i++) {
    int x = __VERIFIER_nondet_int();
    if (x < -10 || x > 10) x = 0;
    struct node *c = malloc(sizeof(struct node));
    if (!c) return 0;
    c->v = x;
    c->next = h;
    h = c;
  }
  int s = 0;
  struct node *p = h;
  while (p != NULL && p->v >= 0) {
    s += p->v;
    p = p->next;
  }
  return s;
}
