/* A loop builds a list of n cells (0 <= n <= 500) by consing; a recursive function frees
   it from the head: it reads the successor first, frees the cell, then recurses on the
   successor (depth n on the acyclic NULL-terminated list; no cell is read after its free
   and each is freed once). Terminating and memory safe. */
#include <stdlib.h>
extern int __VERIFIER_nondet_int(void);

struct item {
  struct item *link;
  int key;
};

static void drop(struct item *it) {
  if (!it) return;
  struct item *rest = it->link;
  free(it);
  drop(rest);
}

int main(void) {
  int n = __VERIFIER_nondet_int();
  if (n < 0 || n > 500) return 0;
  struct item *h = NULL;
  for (int i = 0; i < n; i++) {
    struct item *c = malloc(sizeof(struct item));
    if (!c) return 0;
    c->key = i;
    c->link = h;
    h = c;
  }
  drop(h);
  return 0;
}
