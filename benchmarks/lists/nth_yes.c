/* Build a list of n cells (0 <= n <= 1000), then move at most i steps (i arbitrary) or
   until NULL: the loop stops after min(i, n) steps (j counts up to i; the acyclic list
   ends after n). Terminating and memory safe. */
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
    c->value = k;
    c->next = head;
    head = c;
  }
  int i = __VERIFIER_nondet_int();
  struct node *p = head;
  for (int j = 0; j < i && p != NULL; j++) p = p->next;
  return p != NULL ? p->value : -1;
}
