/* Build a list of n cells (0 <= n <= 800); each cell holds a value and owns a name block
   of 8 bytes (malloc'd per cell, first byte written). A first walk frees every name and
   sets the field to NULL; a second walk frees the cells from the head, saving next before
   each free. The list is acyclic and NULL-terminated (n steps per walk); each name is a
   block of its own, freed once; no cell is touched after its free. Terminating and memory
   safe. */
#include <stdlib.h>
extern int __VERIFIER_nondet_int(void);

struct node {
  int v;
  char *name;
  struct node *next;
};

int main(void) {
  int n = __VERIFIER_nondet_int();
  if (n < 0 || n > 800) return 0;
  struct node *head = NULL;
  for (int k = 0; k < n; k++) {
    struct node *c = malloc(sizeof(struct node));
    if (!c) return 0;
    c->v = k;
    c->name = malloc(8);
    if (!c->name) return 0;
    c->name[0] = 'a';
    c->next = head;
    head = c;
  }
  for (struct node *p = head; p != NULL; p = p->next) {
    free(p->name);
    p->name = NULL;
  }
  while (head != NULL) {
    struct node *t = head->next;
    free(head);
    head = t;
  }
  return 0;
}
