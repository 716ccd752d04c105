/* Build a list of n cells (0 <= n <= 1000), reverse it in place, then walk the result.
   Reversal moves one cell per step from the rest (acyclic, NULL-terminated) onto the
   reversed prefix, so it takes n steps; the two parts stay disjoint, and the reversed list
   is again acyclic and NULL-terminated (the old head now ends it), so the walk takes n
   steps. Terminating and memory safe. */
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
  struct node *rev = NULL;
  while (head != NULL) {
    struct node *t = head->next;
    head->next = rev;
    rev = head;
    head = t;
  }
  int len = 0;
  for (struct node *p = rev; p != NULL; p = p->next) len++;
  return len;
}
