/* Build a list of n cells (1 <= n <= 800) by appending behind a pointer to the last cell,
   values arbitrary; then count the cells with an odd value in one walk from the head. The
   list is acyclic and NULL-terminated (n fresh cells in order): the walk takes n steps and
   the count never exceeds n <= 800 (no overflow). Terminating and memory safe. */
#include <stdlib.h>
extern int __VERIFIER_nondet_int(void);

struct node {
  int v;
  struct node *next;
};

int main(void) {
  int n = __VERIFIER_nondet_int();
  if (n < 1 || n > 800) return 0;
  struct node *head = malloc(sizeof(struct node));
  if (!head) return 0;
  head->v = __VERIFIER_nondet_int();
  head->next = NULL;
  struct node *last = head;
  for (int i = 1; i < n; i++) {
    struct node *c = malloc(sizeof(struct node));
    if (!c) return 0;
    c->v = __VERIFIER_nondet_int();
    c->next = NULL;
    last->next = c;
    last = c;
  }
  int odd = 0;
  struct node *p = head;
  while (p) {
    if (p->v % 2 != 0) odd = odd + 1;
    p = p->next;
  }
  return odd > 400;
}
