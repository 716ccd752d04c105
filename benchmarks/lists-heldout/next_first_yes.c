/* Cells whose recursive field is the FIRST member (offset 0) and a long payload after it.
   Build n cells (0 <= n <= 300), then walk the list to its end. Acyclic NULL-terminated list
   of fresh mallocs: the walk takes n steps. Terminating and memory safe. */
#include <stdlib.h>
extern int __VERIFIER_nondet_int(void);

struct cell {
  struct cell *next;
  long payload;
  int tag;
};

int main(void) {
  int n = __VERIFIER_nondet_int();
  if (n < 0 || n > 300) return 0;
  struct cell *head = NULL;
  for (int i = 0; i < n; i++) {
    struct cell *c = malloc(sizeof(struct cell));
    if (c == NULL) return 0;
    c->next = head;
    c->payload = i;
    c->tag = 1;
    head = c;
  }
  struct cell *p = head;
  while (p) p = p->next;
  return 0;
}
