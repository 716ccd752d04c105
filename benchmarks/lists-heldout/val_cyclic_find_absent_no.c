/* Build a cyclic list of n cells (1 <= n <= 500) holding 0..n-1 (appended at the tail,
   the last cell pointing back to the first), then search for n, which no cell holds: the
   search goes round the cycle forever; every access is to a live cell, and no arithmetic
   overflows. Non-terminating for every n in range.
   witness-input: 3 */
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
  struct node *p = head;
  while (p->val != n) p = p->next;
  return 0;
}
