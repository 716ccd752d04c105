/* Build a list of n cells (0 <= n <= 1000); each cell owns a payload block of one int
   (malloc'd per cell, holding k < 1000). Walk the list summing the payloads (at most
   1000 * 999, no overflow), then free each payload and its cell in one walk, saving next
   before the frees. The list is acyclic and NULL-terminated (n steps per walk); every
   payload is a block of its own, read while live and freed once. Terminating and memory
   safe. */
#include <stdlib.h>
extern int __VERIFIER_nondet_int(void);

struct node {
  struct node *next;
  int *data;
};

int main(void) {
  int n = __VERIFIER_nondet_int();
  if (n < 0 || n > 1000) return 0;
  struct node *head = NULL;
  for (int k = 0; k < n; k++) {
    struct node *c = malloc(sizeof(struct node));
    if (!c) return 0;
    c->data = malloc(sizeof(int));
    if (!c->data) return 0;
    *c->data = k;
    c->next = head;
    head = c;
  }
  int sum = 0;
  for (struct node *p = head; p != NULL; p = p->next) sum += *p->data;
  struct node *p = head;
  while (p != NULL) {
    struct node *t = p->next;
    free(p->data);
    free(p);
    p = t;
  }
  return sum > 0;
}
