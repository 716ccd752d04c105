/* Build a list of n cells (1 <= n <= 500) by appending at the tail, cell k holding k, close
   it into a cycle (the last cell points back to the first), then search from the first
   cell for a key 0 <= key < n. Values grow by one from 0 until the last cell (n - 1), so
   the search meets key after key steps, before it could wrap around. Terminating and
   memory safe: afterwards the cycle is cut at the last cell and every cell is freed once.
   The shape of SV-COMP's cll_search in one function. */
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
  struct node *tail = head;
  for (int k = 1; k < n; k++) {
    struct node *c = malloc(sizeof(struct node));
    if (!c) return 0;
    c->val = k;
    tail->next = c;
    tail = c;
  }
  tail->next = head;
  int key = __VERIFIER_nondet_int();
  if (key < 0 || key >= n) return 0;
  struct node *p = head;
  while (p->val != key) p = p->next;
  tail->next = NULL;
  while (head) {
    struct node *next = head->next;
    free(head);
    head = next;
  }
  return 0;
}
