/* Build a list of n cells (1 <= n <= 1000), free all of them in a walk, then read the old
   head's value: the head cell was freed, so the read is a use after free for every n >= 1.
   Memory-unsafe.
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
  struct node *p = head;
  while (p != NULL) {
    struct node *t = p->next;
    free(p);
    p = t;
  }
  return head->value;
}
