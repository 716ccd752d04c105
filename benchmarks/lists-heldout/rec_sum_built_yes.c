/* A recursive function builds a list of n cells (0 <= n <= 300) whose values are n..1;
   a second recursive function counts the cells (the result is at most 300, no overflow),
   each call one cell further along the acyclic NULL-terminated list (depth n). Both
   recursions decrease a measure (n, the remaining length). Terminating and memory safe. */
#include <stdlib.h>
extern int __VERIFIER_nondet_int(void);

struct cell {
  int v;
  struct cell *nx;
};

static struct cell *mk(int n) {
  if (n == 0) return NULL;
  struct cell *c = malloc(sizeof(struct cell));
  if (c == NULL) exit(0);
  c->v = n;
  c->nx = mk(n - 1);
  return c;
}

static int count(struct cell *p) {
  if (p == NULL) return 0;
  return 1 + count(p->nx);
}

int main(void) {
  int n = __VERIFIER_nondet_int();
  if (n < 0 || n > 300) return 0;
  struct cell *h = mk(n);
  return count(h);
}
