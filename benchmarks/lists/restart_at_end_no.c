/* Build a list of n cells (1 <= n <= 1000), then walk it and start again at the head
   whenever the walk reaches NULL: the loop condition (rounds >= 0, never changed) always
   holds, so every run with n >= 1 runs forever over live cells. Non-terminating.
   witness-input: 2 */
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
  for (int k = 0; k < n; k++) {
    struct node *c = malloc(sizeof(struct node));
    if (c == NULL) return 0;
    c->value = k;
    c->next = head;
    head = c;
  }
  int rounds = 0;
  struct node *p = head;
  while (rounds >= 0) {
    p = p->next;
    if (p == NULL) p = head;
  }
  return 0;
}
