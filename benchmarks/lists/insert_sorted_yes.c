/* Insert n arbitrary values (0 <= n <= 100) into a list kept sorted: each insertion walks
   from the head while the next cell's value is smaller than the new one, then links the
   new cell there. The list before each insertion is acyclic and NULL-terminated, so each
   walk stops after at most its length; the outer loop runs n times. Terminating and memory
   safe. */
#include <stdlib.h>
extern int __VERIFIER_nondet_int(void);

struct node {
  int value;
  struct node *next;
};

int main(void) {
  int n = __VERIFIER_nondet_int();
  if (n < 0 || n > 100) return 0;
  struct node *head = NULL;
  for (int k = 0; k < n; k++) {
    struct node *c = malloc(sizeof(struct node));
    if (c == NULL) return 0;
    c->value = __VERIFIER_nondet_int();
    if (head == NULL || c->value <= head->value) {
      c->next = head;
      head = c;
    } else {
      struct node *p = head;
      while (p->next != NULL && p->next->value < c->value) p = p->next;
      c->next = p->next;
      p->next = c;
    }
  }
  return head != NULL;
}
