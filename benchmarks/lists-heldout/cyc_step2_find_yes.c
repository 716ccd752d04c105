/* A cyclic list of n cells (1 <= n <= 500) built by appending in a helper function, cell k
   holding 2k (values rise by two from 0 to 2(n-1); the last cell points back to the first),
   then a search from the first cell, in its own function, for 2j with 0 <= j < n (j is
   m % n for an arbitrary m >= 0). The value 2j is held by cell j, which the walk meets after
   j steps, before it reaches the last cell and could wrap around (rank: key - p->val, or the
   number of cells from p to cell j). Afterwards the cycle is cut at the last cell (found by
   walking until next is head) and every cell is freed once. Terminating and memory safe;
   no arithmetic overflows (values <= 998). */
#include <stdlib.h>
extern int __VERIFIER_nondet_int(void);

struct node {
  int val;
  struct node *next;
};

static struct node *build(int n) {
  struct node *head = malloc(sizeof(struct node));
  if (!head) exit(0);
  head->val = 0;
  struct node *tail = head;
  for (int k = 1; k < n; k++) {
    struct node *c = malloc(sizeof(struct node));
    if (!c) exit(0);
    c->val = 2 * k;
    tail->next = c;
    tail = c;
  }
  tail->next = head;
  return head;
}

static struct node *find(struct node *head, int key) {
  struct node *p = head;
  while (p->val != key) p = p->next;
  return p;
}

int main(void) {
  int n = __VERIFIER_nondet_int();
  if (n < 1 || n > 500) return 0;
  int m = __VERIFIER_nondet_int();
  if (m < 0) return 0;
  struct node *head = build(n);
  struct node *hit = find(head, 2 * (m % n));
  (void)hit;
  struct node *last = head;
  while (last->next != head) last = last->next;
  last->next = NULL;
  while (head) {
    struct node *next = head->next;
    free(head);
    head = next;
  }
  return 0;
}
