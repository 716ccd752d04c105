/* Build n cells (1 <= n <= 500) by appending at the tail, cell k holding k (the value grows
   by one along the list), then look for a key 0 <= key < n with no NULL test: the cell
   holding key exists (it is the key-th cell), and every cell before it holds a smaller
   value, so the walk stops there after key steps and never reads past the last cell.
   Terminating and memory safe (the cells are leaked). Needs the relation "value = position"
   along the list (issue 10, field-value relations). */
#include <stdlib.h>
extern int __VERIFIER_nondet_int(void);

struct node {
  int val;
  struct node *next;
};

int main(void) {
  int n = __VERIFIER_nondet_int();
  if (n < 1 || n > 500) return 0;
  struct node *head = malloc(sizeof(struct node));
  if (!head) return 0;
  head->val = 0;
  head->next = NULL;
  struct node *tail = head;
  for (int k = 1; k < n; k++) {
    struct node *c = malloc(sizeof(struct node));
    if (!c) return 0;
    c->val = k;
    c->next = NULL;
    tail->next = c;
    tail = c;
  }
  int key = __VERIFIER_nondet_int();
  if (key < 0 || key >= n) return 0;
  struct node *p = head;
  while (p->val != key) p = p->next;
  return p->val;
}
