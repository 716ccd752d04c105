/* Build a list of n cells (1 <= n <= 1000), then free it with the classic bug: the cell is
   freed before its next pointer is read (free(p); p = p->next). The first iteration reads
   next from a freed cell for every n >= 1. Memory-unsafe.
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
    free(p);
    p = p->next;
  }
  return 0;
}
