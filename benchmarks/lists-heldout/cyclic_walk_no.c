/* Build n cells (1 <= n <= 100), then make the last cell point back to the head (a cyclic
   list), and walk until NULL: no next field is NULL any more, so the walk never stops; every
   access is to a live cell. Non-terminating for every n in range.
   witness-input: 2 */
#include <stdlib.h>
extern int __VERIFIER_nondet_int(void);

struct node {
  int v;
  struct node *next;
};

int main(void) {
  int n = __VERIFIER_nondet_int();
  if (n < 1 || n > 100) return 0;
  struct node *h = NULL;
  struct node *tail = NULL;
  for (int i = 0; i < n; i++) {
    struct node *c = malloc(sizeof(struct node));
    if (!c) return 0;
    c->v = i;
    c->next = h;
    if (tail == NULL) tail = c;
    h = c;
  }
  tail->next = h;
  struct node *p = h;
  while (p != NULL) p = p->next;
  return 0;
}
