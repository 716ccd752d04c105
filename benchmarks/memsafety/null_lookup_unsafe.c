/* Builds a list holding the values 0..n-1 and looks up an input key; find()
   returns NULL when the key is absent, and main dereferences the result
   without checking: NULL dereference, memory unsafe for every key outside
   0..n-1. Loops are bounded by n <= 100 and by the acyclic list.
   Witness: n = 1, key = 5.
   witness-input: 1 5 */
#include <stdlib.h>
extern int __VERIFIER_nondet_int(void);

struct node { int value; struct node *next; };

struct node *find(struct node *p, int key) {
  while (p != NULL && p->value != key) p = p->next;
  return p;
}

int main(void) {
  int n = __VERIFIER_nondet_int();
  if (n < 1 || n > 100) return 0;
  struct node *head = NULL;
  for (int i = 0; i < n; i++) {
    struct node *e = malloc(sizeof(struct node));
    if (e == NULL) return 0;
    e->value = i;
    e->next = head;
    head = e;
  }
  int key = __VERIFIER_nondet_int();
  struct node *hit = find(head, key);
  int r = hit->value;
  while (head != NULL) {
    struct node *next = head->next;
    free(head);
    head = next;
  }
  return r;
}
