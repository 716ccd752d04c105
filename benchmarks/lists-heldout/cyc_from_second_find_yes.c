/* A cyclic list of n cells (1 <= n <= 500) holding 0..n-1 (appended at the tail, the last
   cell pointing back to the first); the search for a key with 0 <= key < n starts at the
   SECOND cell (head->next, which is head itself when n = 1). For key >= 1 it meets the key
   before the last cell; for key = 0 it walks to the last cell, wraps around to the first
   cell and stops there. Every run terminates (at most n steps: the cycle holds every value
   of 0..n-1), but the argument needs the wrap-around, which a rank over the values alone
   does not give. The cycle is then cut at `tail` and every cell freed once. Terminating and
   memory safe. */
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
  struct node *head = malloc(sizeof(struct node));
  if (!head) return 0;
  head->val = 0;
  struct node *tail = head;
  for (int k = 1; k < n; k++) {
    struct node *c = malloc(sizeof(struct node));
    if (!c) return 0;
    c->val = k;
    tail->next = c;
    tail = c;
  }
  tail->next = head;
  struct node *p = head->next;
  while (p->val != key) p = p->next;
  tail->next = NULL;
  while (head) {
    struct node *next = head->next;
    free(head);
    head = next;
  }
  return 0;
}
