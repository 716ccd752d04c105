/* Build a list of n cells (1 <= n <= 50) by consing, walk to its last cell, link that
   cell back to the head (a cycle through every cell), then walk "until NULL": no cell's
   next is NULL any more, so the second walk never ends (each step reads a live cell).
   Non-terminating for every n in range, e.g. n = 1.
   witness-input: 1 */
#include <stdlib.h>
extern int __VERIFIER_nondet_int(void);

struct node {
  int v;
  struct node *next;
};

int main(void) {
  int n = __VERIFIER_nondet_int();
  if (n < 1 || n > 50) return 0;
  struct node *head = NULL;
  for (int i = 0; i < n; i++) {
    struct node *c = malloc(sizeof(struct node));
    if (!c) return 0;
    c->v = i;
    c->next = head;
    head = c;
  }
  struct node *last = head;
  while (last->next != NULL) last = last->next;
  last->next = head;
  struct node *p = head;
  int steps = 0;
  while (p != NULL) {
    p = p->next;
    steps = (steps + 1) % 7;
  }
  return steps;
}
