/* Build a list of n cells (0 <= n <= 500) with nondeterministic values, then count the
   cells with a positive value in one walk. The list is acyclic and NULL-terminated (each
   cell is a fresh malloc consed in front), so the walk takes exactly n steps; every access
   is to a live cell. Terminating and memory safe. */
#include <stdlib.h>
extern int __VERIFIER_nondet_int(void);

struct item {
  int key;
  struct item *link;
};

int main(void) {
  int n = __VERIFIER_nondet_int();
  if (n < 0 || n > 500) return 0;
  struct item *list = NULL;
  for (int i = 0; i < n; i++) {
    struct item *c = malloc(sizeof(struct item));
    if (c == NULL) return 0;
    c->key = __VERIFIER_nondet_int();
    c->link = list;
    list = c;
  }
  int pos = 0;
  struct item *it = list;
  while (it != NULL) {
    if (it->key > 0) pos = 1;
    it = it->link;
  }
  return pos;
}
