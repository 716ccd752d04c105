/* A list of n cells (1 <= n <= 500) built by consing at the front with a rising counter, so
   from the first cell the values fall by one: n-1, n-2, ..., 0; the cell created first (the
   last one, holding 0) is kept in `last` and linked back to the first, closing a cycle. A
   search from the first cell for a key with 0 <= key < n meets it after n-1-key steps, at the
   latest at the last cell (value 0), before the walk could wrap around (rank: p->val - key).
   The cycle is then cut at `last` and every cell freed once. Terminating and memory safe. */
#include <stdlib.h>
extern int __VERIFIER_nondet_int(void);

struct node {
  int val;
  struct node *next;
};

int main(void) {
  int n = __VERIFIER_nondet_int();
  if (n < 1 || n > 500) return 0;
  int key = __VERIFIER_nondet_int();
  if (key < 0 || key >= n) return 0;
  struct node *head = NULL;
  struct node *last = NULL;
  for (int k = 0; k < n; k++) {
    struct node *c = malloc(sizeof(struct node));
    if (!c) return 0;
    c->val = k;
    c->next = head;
    if (!head) last = c;
    head = c;
  }
  last->next = head;
  struct node *p = head;
  while (p->val != key) p = p->next;
  last->next = NULL;
  while (head) {
    struct node *next = head->next;
    free(head);
    head = next;
  }
  return 0;
}
