/* Build a list of n cells (0 <= n <= 1000) by recursion (build(k) conses a cell onto
   build(k - 1); the depth k decreases to 0), then walk it: the list is acyclic and
   NULL-terminated (n steps). Terminating and memory safe. */
#include <stdlib.h>
extern int __VERIFIER_nondet_int(void);

struct node {
  int value;
  struct node *next;
};

static struct node *build(int k) {
  if (k <= 0) return NULL;
  struct node *c = malloc(sizeof(struct node));
  if (c == NULL) exit(0);
  c->value = k;
  c->next = build(k - 1);
  return c;
}

int main(void) {
  int n = __VERIFIER_nondet_int();
  if (n < 0 || n > 1000) return 0;
  struct node *head = build(n);
  int len = 0;
  for (struct node *p = head; p != NULL; p = p->next) len++;
  return len;
}
