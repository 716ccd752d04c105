/* A stack as a list: push n cells (0 <= n <= 1000), then pop (unlink and free the head)
   until empty. Each pop removes the head of the acyclic NULL-terminated list, so there are
   n pops; each cell is freed once, after its next was read. Terminating and memory safe. */
#include <stdlib.h>
extern int __VERIFIER_nondet_int(void);

struct node {
  int value;
  struct node *next;
};

static struct node *push(struct node *top, int v) {
  struct node *c = malloc(sizeof(struct node));
  if (c == NULL) exit(0);
  c->value = v;
  c->next = top;
  return c;
}

static struct node *pop(struct node *top) {
  struct node *rest = top->next;
  free(top);
  return rest;
}

int main(void) {
  int n = __VERIFIER_nondet_int();
  if (n < 0 || n > 1000) return 0;
  struct node *top = NULL;
  for (int k = 0; k < n; k++) top = push(top, k);
  int pops = 0;
  while (top != NULL) {
    top = pop(top);
    pops++;
  }
  return pops;
}
