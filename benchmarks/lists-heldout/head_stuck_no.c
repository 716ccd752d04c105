/* Build n cells (1 <= n <= 100) then "walk" with a loop that forgets to advance when the
   value is even: the head cell's value is n-1; for n = 1 it is 0 (even), so the loop stays on
   the head forever (reading a live cell each time). Non-terminating for n = 1.
   witness-input: 1 */
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
  for (int i = 0; i < n; i++) {
    struct node *c = malloc(sizeof(struct node));
    if (!c) return 0;
    c->v = i;
    c->next = h;
    h = c;
  }
  struct node *p = h;
  while (p != NULL) {
    if (p->v % 2 == 0) continue;
    p = p->next;
  }
  return 0;
}
