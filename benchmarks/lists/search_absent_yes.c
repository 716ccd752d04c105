/* Build a list of n cells (0 <= n <= 1000) holding 0..n-1 (cell k holds k), then search
   for -1, which no cell holds: the search walks the whole acyclic NULL-terminated list
   (n steps) and stops at NULL. Terminating and memory safe. */
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
  struct node *p = head;
  while (p != NULL) {
    if (p->value == -1) break;
    p = p->next;
  }
  return p != NULL;
}
