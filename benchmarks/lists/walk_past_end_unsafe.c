/* Build a list of n cells (1 <= n <= 1000), then advance the pointer n + 1 times without
   checking for NULL and read the value there: after n steps p is NULL, so the last read
   dereferences NULL for every n >= 1 (earlier reads are of live cells). Memory-unsafe.
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
  for (int i = 0; i < n; i++) p = p->next;
  return p->value;
}
