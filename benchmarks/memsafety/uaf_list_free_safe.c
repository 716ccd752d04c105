/* Safe twin of uaf_list_free_unsafe.c: the next pointer is saved before the
   node is freed, so every node is read only while live and freed once. The
   list built by the first loop is acyclic with n <= 100 nodes ending in NULL,
   so the freeing loop ends after n steps. Terminating and memory safe. */
#include <stdlib.h>
extern int __VERIFIER_nondet_int(void);

struct node { int value; struct node *next; };

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
  struct node *p = head;
  while (p != NULL) {
    struct node *next = p->next;
    free(p);
    p = next;
  }
  return 0;
}
