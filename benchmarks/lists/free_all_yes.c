/* Build a list of n cells (0 <= n <= 1000) where every cell also carries a payload block
   of 4 ints, then free the payloads and the cells in one walk, saving next before the free.
   The list is acyclic and NULL-terminated (n steps); each cell and payload is freed once
   and never touched after. Terminating and memory safe. */
#include <stdlib.h>
extern int __VERIFIER_nondet_int(void);

struct node {
  int *data;
  struct node *next;
};

int main(void) {
  int n = __VERIFIER_nondet_int();
  if (n < 0 || n > 1000) return 0;
  struct node *head = NULL;
  for (int k = 0; k < n; k++) {
    struct node *c = malloc(sizeof(struct node));
    if (c == NULL) return 0;
    c->data = malloc(4 * sizeof(int));
    if (c->data == NULL) return 0;
    c->next = head;
    head = c;
  }
  struct node *p = head;
  while (p != NULL) {
    struct node *t = p->next;
    free(p->data);
    free(p);
    p = t;
  }
  return 0;
}
