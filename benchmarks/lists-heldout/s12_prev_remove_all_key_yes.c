/* Build a list of n cells (0 <= n <= 500) holding k % 3, then remove every cell holding an
   arbitrary key in one walk that keeps prev one cell behind p (the last kept cell, NULL
   while none is kept): the cell is unlinked through head or prev->next and freed, the walk
   goes on from the next pointer saved before the free. The list is acyclic and
   NULL-terminated, so the walk takes n steps; each removed cell is freed once and never
   read after; prev always points to a live kept cell. Then the kept cells are freed from
   the head. Terminating and memory safe. */
#include <stdlib.h>
extern int __VERIFIER_nondet_int(void);

struct node {
  int v;
  struct node *next;
};

int main(void) {
  int n = __VERIFIER_nondet_int();
  if (n < 0 || n > 500) return 0;
  int key = __VERIFIER_nondet_int();
  struct node *head = NULL;
  for (int k = 0; k < n; k++) {
    struct node *c = malloc(sizeof(struct node));
    if (!c) return 0;
    c->v = k % 3;
    c->next = head;
    head = c;
  }
  struct node *prev = NULL;
  struct node *p = head;
  while (p != NULL) {
    struct node *nx = p->next;
    if (p->v == key) {
      if (prev == NULL) head = nx;
      else prev->next = nx;
      free(p);
    } else {
      prev = p;
    }
    p = nx;
  }
  while (head != NULL) {
    struct node *t = head->next;
    free(head);
    head = t;
  }
  return 0;
}
