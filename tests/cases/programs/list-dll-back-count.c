/* e2e: a doubly linked list of up to 50 cells built by appending (each new cell's prev is the
   old tail), then counted backwards from the tail through prev. The prev chain is acyclic and
   ends in the first cell's prev, NULL: at most 50 steps. Terminating and memory safe. */
#include <stdlib.h>
extern int __VERIFIER_nondet_int(void);

struct dn {
  struct dn *prev;
  struct dn *next;
  unsigned key;
};

int main(void) {
  int n = __VERIFIER_nondet_int();
  if (n < 0 || n > 50) return 0;
  struct dn *last = NULL;
  for (int i = 0; i < n; i++) {
    struct dn *c = malloc(sizeof *c);
    if (!c) return 0;
    c->key = (unsigned)i;
    c->prev = last;
    c->next = NULL;
    if (last) last->next = c;
    last = c;
  }
  unsigned cnt = 0;
  for (struct dn *p = last; p; p = p->prev) cnt++;
  return (int)cnt;
}
