/* Build a list of n cells (2 <= n <= 1000); when the input flag is nonzero the last cell
   (the first created) is linked to the second cell from the head, making a lasso; then walk
   until NULL. With flag != 0 no next is NULL any more (the tail cycles through cells 2..n),
   so the walk never ends; with flag == 0 it ends after n steps. Non-terminating (some run).
   witness-input: 4 1 */
#include <stdlib.h>
extern int __VERIFIER_nondet_int(void);

struct node {
  int value;
  struct node *next;
};

int main(void) {
  int n = __VERIFIER_nondet_int();
  if (n < 2 || n > 1000) return 0;
  struct node *head = NULL;
  struct node *last = NULL;
  for (int k = 0; k < n; k++) {
    struct node *c = malloc(sizeof(struct node));
    if (c == NULL) return 0;
    c->value = k;
    c->next = head;
    if (head == NULL) last = c;
    head = c;
  }
  if (__VERIFIER_nondet_int() != 0) last->next = head->next;
  int len = 0;
  struct node *p = head;
  while (p != NULL) {
    p = p->next;
    if (len < 1000000) len++;
  }
  return len;
}
