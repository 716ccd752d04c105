/* Only builds a list of n cells (0 <= n <= 1000) with arbitrary values: the loop counter k
   rises to n. No traversal. Terminating and memory safe (the cells are leaked: not a
   memory-safety violation here). */
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
    c->value = __VERIFIER_nondet_int();
    c->next = head;
    head = c;
  }
  return head != NULL;
}
