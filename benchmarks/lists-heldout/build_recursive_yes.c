/* A recursive function builds a list of n cells (0 <= n <= 200; recursion depth n), then a
   loop walks it. The recursion decreases n by one per call; the built list is acyclic and
   NULL-terminated. Terminating and memory safe. */
#include <stdlib.h>
extern int __VERIFIER_nondet_int(void);

struct node {
  int v;
  struct node *next;
};

static struct node *make(int n) {
  if (n <= 0) return NULL;
  struct node *c = malloc(sizeof(struct node));
  if (!c) exit(0);
  c->v = n;
  c->next = make(n - 1);
  return c;
}

int main(void) {
  int n = __VERIFIER_nondet_int();
  if (n < 0 || n > 200) return 0;
  struct node *h = make(n);
  int c = 0;
  while (h) {
    c = h->v;
    h = h->next;
  }
  return c;
}
