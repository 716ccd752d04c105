/* Build n cells (0 <= n <= 500) by appending at the tail through a pointer to the last
   cell (a fresh allocation each round, kept concrete beside the list built so far), then
   free them all front to back. Every cell is freed exactly once, after its next field was
   read. Terminating and memory safe. */
#include <stdlib.h>
extern int __VERIFIER_nondet_int(void);

struct node {
  int val;
  struct node *next;
};

int main(void) {
  int n = __VERIFIER_nondet_int();
  if (n < 0 || n > 500) return 0;
  struct node *head = NULL;
  struct node *tail = NULL;
  for (int k = 0; k < n; k++) {
    struct node *c = malloc(sizeof(struct node));
    if (!c) break;
    c->val = k;
    c->next = NULL;
    if (tail) tail->next = c; else head = c;
    tail = c;
  }
  while (head) {
    struct node *next = head->next;
    free(head);
    head = next;
  }
  return 0;
}
