/* Build a list of n cells (0 <= n <= 1000), then free it by recursion: free_list(p) frees
   the rest first, then p. The depth is n (acyclic NULL-terminated list); every cell is
   freed once, after its successor, and never read after its free. Terminating and memory
   safe. */
#include <stdlib.h>
extern int __VERIFIER_nondet_int(void);

struct node {
  int value;
  struct node *next;
};

static void free_list(struct node *p) {
  if (p == NULL) return;
  free_list(p->next);
  free(p);
}

int main(void) {
  int n = __VERIFIER_nondet_int();
  if (n < 0 || n > 1000) return 0;
  struct node *head = NULL;
  for (int k = 0; k < n; k++) {
    struct node *c = malloc(sizeof(struct node));
    if (c == NULL) return 0;
    c->value = k;
    c->next = head;
    head = c;
  }
  free_list(head);
  return 0;
}
