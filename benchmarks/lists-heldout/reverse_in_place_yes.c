/* Build n cells (0 <= n <= 400), reverse the list in place (prev/cur/next pointers), then
   walk the reversed list. The reversal moves one cell per step from the acyclic rest to the
   reversed prefix (n steps); the result is again an acyclic NULL-terminated list of n cells.
   Terminating and memory safe. */
#include <stdlib.h>
extern int __VERIFIER_nondet_int(void);

struct node {
  int v;
  struct node *next;
};

int main(void) {
  int n = __VERIFIER_nondet_int();
  if (n < 0 || n > 400) return 0;
  struct node *h = NULL;
  for (int i = 0; i < n; i++) {
    struct node *c = malloc(sizeof(struct node));
    if (!c) return 0;
    c->v = i;
    c->next = h;
    h = c;
  }
  struct node *prev = NULL;
  while (h != NULL) {
    struct node *nx = h->next;
    h->next = prev;
    prev = h;
    h = nx;
  }
  int k = 0;
  while (prev != NULL) {
    k = prev->v;
    prev = prev->next;
  }
  return k;
}
