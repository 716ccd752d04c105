/* A cyclic list of n cells (1 <= n <= 800) built by consing at the front with a FALLING
   counter k = n, n-1, ..., 1, so from the first cell the values rise by one: 1, 2, ..., n.
   The cell created first (the last one, holding n) is kept in `last` and linked back to the
   first cell, closing a cycle. A search from the first cell for a key with 1 <= key <= n
   meets it after key-1 steps, at the latest at the last cell (value n), before the walk
   could wrap around (rank: key - p->key, or the number of cells from p to the key's cell).
   The cycle is then cut at `last` and every cell freed once. The link is the first field
   and the value a long. Terminating and memory safe; no arithmetic overflows (values and
   the counter stay in 0..800). */
#include <stdlib.h>
extern int __VERIFIER_nondet_int(void);

struct node {
  struct node *next;
  long key;
};

int main(void) {
  int n = __VERIFIER_nondet_int();
  if (n < 1 || n > 800) return 0;
  long key = __VERIFIER_nondet_int();
  if (key < 1 || key > n) return 0;
  struct node *head = NULL;
  struct node *last = NULL;
  for (int k = n; k > 0; k--) {
    struct node *c = malloc(sizeof(struct node));
    if (!c) return 0;
    c->next = head;
    c->key = k;
    if (!head) last = c;
    head = c;
  }
  last->next = head;
  struct node *p = head;
  while (p->key != key) p = p->next;
  last->next = NULL;
  while (head) {
    struct node *next = head->next;
    free(head);
    head = next;
  }
  return 0;
}
