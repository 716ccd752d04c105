/* Build a list of n cells (0 <= n <= 1000), then count its cells. The count loop follows
   the acyclic NULL-terminated list (n steps); len <= n <= 1000, no overflow. Terminating
   and memory safe. */
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
    c->value = 0;
    c->next = head;
    head = c;
  }
  int len = 0;
  for (struct node *p = head; p != NULL; p = p->next) len++;
  return len == n ? 0 : 1;
}
