/* Keep a list sorted in descending order: each of n new cells (0 <= n <= 60) is linked
   in front of the first cell whose key is not larger than its own, found by a walk that
   follows `next` while the next cell's key is larger. Before each insertion the list is
   acyclic and NULL-terminated (every cell a distinct malloc, linked once), so each walk
   stops after at most its length; the outer loop runs n times. Nothing is read after a
   NULL check fails. Terminating and memory safe. */
#include <stdlib.h>
extern int __VERIFIER_nondet_int(void);

struct cell {
  int key;
  struct cell *next;
};

int main(void) {
  int n = __VERIFIER_nondet_int();
  if (n < 0 || n > 60) return 0;
  struct cell *first = NULL;
  for (int i = 0; i < n; i++) {
    struct cell *c = malloc(sizeof(struct cell));
    if (!c) return 0;
    c->key = __VERIFIER_nondet_int();
    if (!first || first->key <= c->key) {
      c->next = first;
      first = c;
      continue;
    }
    struct cell *q = first;
    while (q->next && q->next->key > c->key) q = q->next;
    c->next = q->next;
    q->next = c;
  }
  return first == NULL;
}
