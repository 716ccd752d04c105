/* Build a list of n cells (0 <= n <= 1000) with arbitrary values, then walk it, but the
   pointer only advances past cells whose value is nonzero: the first cell holding 0 stops
   progress forever (p stays, p != NULL). Input n = 1 with value 0 runs forever; all
   accesses are to a live cell. Non-terminating (some run).
   witness-input: 1 0 */
#include <stdlib.h>
extern int __VERIFIER_nondet_int(void);

struct node {
  int value;
  struct node *next;
};

int main(void) {
  int n = __VERIFIER_nondet_int();
  if (n < 0 || n > 1000) return 0;
  struct node *head = NULL;
  for (int k = 0; k < n; k++) {
    struct node *c = malloc(sizeof(struct node));
    if (c == NULL) return 0;
    c->value = __VERIFIER_nondet_int();
    c->next = head;
    head = c;
  }
  struct node *p = head;
  while (p != NULL) {
    if (p->value != 0) p = p->next;
  }
  return 0;
}
