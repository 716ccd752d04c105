/* Safe twin of null_lookup_unsafe.c: the result of find() is checked against
   NULL before it is dereferenced. find() and the freeing loop walk an acyclic
   list of n <= 100 nodes; every node is freed once. Terminating and memory
   safe for every input. */
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
  int r = (hit != NULL) ? hit->value : -1;
  while (head != NULL) {
    struct node *next = head->next;
    free(head);
    head = next;
  }
  return r;
}
