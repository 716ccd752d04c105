/* Build a list of n cells (0 <= n <= 100) by recursion, walk it with a loop counting the
   cells, then free it by recursion (the rest first, then the cell). Every recursion is one
   cell per call along the acyclic NULL-terminated list it built or was given. Terminating
   and memory safe. */
#include <stdlib.h>
extern int __VERIFIER_nondet_int(void);

struct node {
  int data;
  struct node *next;
};

static struct node *create(int k) {
  if (k <= 0) return NULL;
  struct node *x = malloc(sizeof(struct node));
  if (x == NULL) exit(0);
  x->data = 0;
  x->next = create(k - 1);
  return x;
}

static void destroy(struct node *x) {
  if (x == NULL) return;
  destroy(x->next);
  free(x);
}

int main(void) {
  int n = __VERIFIER_nondet_int();
  if (n < 0 || n > 100) return 0;
  struct node *l = create(n);
  int c = 0;
  for (struct node *p = l; p != NULL; p = p->next) c++;
  destroy(l);
  return c;
}
