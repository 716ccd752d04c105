/* build(n) makes a list of n cells for n >= 0 (n decreases to 0). For n < 0 the argument
   passed on is n itself, so build(n) calls build(n) again after allocating and writing one
   cell: the recursion never returns (and never overflows: n - 1 runs only on n > 0). Every
   cell is written inside its own 16-byte block before the recursive call; malloc is assumed
   never to fail (the folder's convention). Non-terminating for every n < 0 (infinite
   recursion).
   witness-input: -1 */
#include <stdlib.h>
extern int __VERIFIER_nondet_int(void);

struct cell { int val; struct cell *next; };

struct cell *build(int n) {
  if (n == 0) return 0;
  struct cell *c = malloc(sizeof(struct cell));
  if (c == 0) return 0;
  c->val = n;
  c->next = build(n > 0 ? n - 1 : n);
  return c;
}

int main(void) {
  int n = __VERIFIER_nondet_int();
  struct cell *l = build(n);
  while (l) { struct cell *next = l->next; free(l); l = next; }
  return 0;
}
