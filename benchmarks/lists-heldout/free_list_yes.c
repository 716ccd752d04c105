/* Build n cells (0 <= n <= 500), then free them front to back, saving the next pointer
   before each free. Every cell is freed exactly once and never read after its free; the walk
   takes n steps along the acyclic list. Terminating and memory safe. */
#include <stdlib.h>
extern int __VERIFIER_nondet_int(void);

struct node {
  int data;
  struct node *next;
};

int main(void) {
  int n = __VERIFIER_nondet_int();
  if (n < 0 || n > 500) return 0;
  struct node *head = NULL;
  for (int i = 0; i < n; i++) {
    struct node *c = malloc(sizeof(struct node));
    if (!c) return 0;
    c->data = 2 * i;
    c->next = head;
    head = c;
  }
  while (head != NULL) {
    struct node *nx = head->next;
    free(head);
    head = nx;
  }
  return 0;
}
