/* A loop builds a list of n >= 1 cells (n <= 50); a recursive function frees every cell;
   then main reads the value of the (freed) head: a use after free whenever n >= 1.
   witness-input: 1 */
#include <stdlib.h>
extern int __VERIFIER_nondet_int(void);

struct node {
  int value;
  struct node *next;
};

static void release(struct node *p) {
  if (p == NULL) return;
  release(p->next);
  free(p);
}

int main(void) {
  int n = __VERIFIER_nondet_int();
  if (n < 1 || n > 50) return 0;
  struct node *head = NULL;
  for (int i = 0; i < n; i++) {
    struct node *c = malloc(sizeof(struct node));
    if (c == NULL) return 0;
    c->value = i;
    c->next = head;
    head = c;
  }
  release(head);
  return head->value;
}
