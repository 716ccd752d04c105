/* Build a list by appending at the end: keep a pointer to the last cell and link each new
   cell behind it (n cells, 1 <= n <= 300). Then walk from the head to NULL. All cells are
   fresh mallocs linked in order, the last one's next is NULL: acyclic list of n cells, walk
   of n steps. Terminating and memory safe. */
#include <stdlib.h>
extern int __VERIFIER_nondet_int(void);

struct node {
  int v;
  struct node *next;
};

int main(void) {
  int n = __VERIFIER_nondet_int();
  if (n < 1 || n > 300) return 0;
  struct node *head = malloc(sizeof(struct node));
  if (!head) return 0;
  head->v = 0;
  head->next = NULL;
  struct node *last = head;
  for (int i = 1; i < n; i++) {
    struct node *c = malloc(sizeof(struct node));
    if (!c) return 0;
    c->v = i;
    c->next = NULL;
    last->next = c;
    last = c;
  }
  int s = 0;
  for (struct node *p = head; p; p = p->next) s += p->v & 1;
  return s;
}
