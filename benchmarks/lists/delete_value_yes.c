/* Build a list of n cells (0 <= n <= 1000) holding 0..n-1, then delete the first cell
   holding an arbitrary key (unlink and free it): the search walks the acyclic
   NULL-terminated list (at most n steps) keeping the predecessor. Then walk the remaining
   list (at most n steps; the freed cell is no longer linked). Terminating and memory safe. */
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
  int key = __VERIFIER_nondet_int();
  struct node *prev = NULL;
  struct node *p = head;
  while (p != NULL && p->value != key) {
    prev = p;
    p = p->next;
  }
  if (p != NULL) {
    if (prev == NULL) head = p->next;
    else prev->next = p->next;
    free(p);
  }
  int len = 0;
  for (struct node *q = head; q != NULL; q = q->next) len++;
  return len;
}
