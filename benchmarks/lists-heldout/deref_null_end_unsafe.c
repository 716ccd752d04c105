/* Build n cells (0 <= n <= 100) and walk with a loop that reads p->next->v before checking
   p->next: at the last cell p->next is NULL, so the read dereferences NULL. Memory-unsafe for
   every n >= 1.
   witness-input: 1 */
#include <stdlib.h>
extern int __VERIFIER_nondet_int(void);

struct node {
  int v;
  struct node *next;
};

int main(void) {
  int n = __VERIFIER_nondet_int();
  if (n < 0 || n > 100) return 0;
  struct node *h = NULL;
  for (int i = 0; i < n; i++) {
    struct node *c = malloc(sizeof(struct node));
    if (!c) return 0;
    c->v = i;
    c->next = h;
    h = c;
  }
  int s = 0;
  for (struct node *p = h; p != NULL; p = p->next) s += p->next->v;
  return s;
}
