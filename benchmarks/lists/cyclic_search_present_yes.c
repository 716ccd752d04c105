/* Build a list of n cells (1 <= n <= 1000) holding 0..n-1, close it into a cycle, then
   search for 0. The cycle contains the cell holding 0 (the first cell created), and the
   walk visits the cells of the cycle in order, so it hits 0 within n steps although no
   next is NULL. Terminating and memory safe (the cells are leaked). */
#include <stdlib.h>
extern int __VERIFIER_nondet_int(void);

struct node {
  int value;
  struct node *next;
};

int main(void) {
  int n = __VERIFIER_nondet_int();
  if (n < 1 || n > 1000) return 0;
  struct node *head = NULL;
  struct node *last = NULL;
  for (int k = 0; k < n; k++) {
    struct node *c = malloc(sizeof(struct node));
    if (c == NULL) return 0;
    c->value = k;
    c->next = head;
    if (head == NULL) last = c;
    head = c;
  }
  last->next = head;
  struct node *p = head;
  while (p->value != 0) p = p->next;
  return 0;
}
