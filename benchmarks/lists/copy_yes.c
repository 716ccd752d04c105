/* Build a list of n cells (0 <= n <= 1000), copy it into a second list (one new cell per
   cell of the first, consed at the head), then walk the copy. The copy loop follows the
   acyclic NULL-terminated original (n steps) and never modifies it; the copy is a new
   acyclic NULL-terminated list of n cells (n steps). Terminating and memory safe. */
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
  struct node *copy = NULL;
  for (struct node *p = head; p != NULL; p = p->next) {
    struct node *c = malloc(sizeof(struct node));
    if (c == NULL) return 0;
    c->value = p->value;
    c->next = copy;
    copy = c;
  }
  int len = 0;
  for (struct node *q = copy; q != NULL; q = q->next) len++;
  return len;
}
