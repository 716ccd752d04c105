/* build(n) makes a list of n cells, n clamped to [0, 1000]: n decreases by one per call
   down to 0, where it returns; each level allocates and writes one cell (malloc may fail:
   then the level stops). main frees the list. Terminating and memory safe (the near-miss of
   rec_build_stuck_no.c).
   */
#include <stdlib.h>
extern int __VERIFIER_nondet_int(void);

struct cell { int val; struct cell *next; };

struct cell *build(int n) {
  if (n <= 0) return 0;
  struct cell *c = malloc(sizeof(struct cell));
  if (c == 0) return 0;
  c->val = n;
  c->next = build(n - 1);
  return c;
}

int main(void) {
  int n = __VERIFIER_nondet_int();
  if (n > 1000) n = 1000;
  struct cell *l = build(n);
  while (l) { struct cell *next = l->next; free(l); l = next; }
  return 0;
}
