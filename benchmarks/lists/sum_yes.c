/* Build a list of n cells (0 <= n <= 1000) with values in 0..99 (others replaced by 0),
   then sum them: the loop follows the acyclic NULL-terminated list (n steps); the sum is
   at most 99000, no overflow. Terminating and memory safe. */
#include <stdlib.h>
extern int __VERIFIER_nondet_int(void);

struct node {
  int value;
  struct node *next;
};

int main(void) {
  int n = __VERIFIER_nondet_int();
  if (n < 0 || n > 1000) return 0;
  struct node *head = NULL;
  for (int k = 0; k < n; k++) {
    struct node *c = malloc(sizeof(struct node));
    if (c == NULL) return 0;
    int v = __VERIFIER_nondet_int();
    c->value = (v >= 0 && v < 100) ? v : 0;
    c->next = head;
    head = c;
  }
  int sum = 0;
  struct node *p = head;
  while (p != NULL) {
    sum += p->value;
    p = p->next;
  }
  return sum > 50000;
}
