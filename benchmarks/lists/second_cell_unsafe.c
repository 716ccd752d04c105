/* Build a list of n cells (0 <= n <= 1000) and read the second cell's value without
   checking that there is one: for n = 1, head->next is NULL and the read dereferences
   NULL (for n = 0 head itself is NULL). Memory-unsafe.
   witness-input: 1 */
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
  return head->next->value;
}
