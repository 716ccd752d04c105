/* Build a list of n cells (0 <= n <= 100) with values in 0..9, then for every cell count
   the cells after it holding the same value (an inner walk from p->next to NULL). Both
   walks follow the acyclic NULL-terminated list: at most n outer rounds of at most n inner
   steps; the count stays below 10000. Terminating and memory safe. */
#include <stdlib.h>
extern int __VERIFIER_nondet_int(void);

struct node {
  int value;
  struct node *next;
};

int main(void) {
  int n = __VERIFIER_nondet_int();
  if (n < 0 || n > 100) return 0;
  struct node *head = NULL;
  for (int k = 0; k < n; k++) {
    struct node *c = malloc(sizeof(struct node));
    if (c == NULL) return 0;
    int v = __VERIFIER_nondet_int();
    c->value = (v >= 0 && v < 10) ? v : 0;
    c->next = head;
    head = c;
  }
  int dups = 0;
  for (struct node *p = head; p != NULL; p = p->next)
    for (struct node *q = p->next; q != NULL; q = q->next)
      if (q->value == p->value) dups++;
  return dups;
}
