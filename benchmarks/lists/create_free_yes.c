/* Build a list of n cells (0 <= n <= 1000) by consing at the head, then free every cell
   with a `next` saved before the free. The build loop runs n times (k counts up to n); the
   free loop follows the list built by the first loop, which is acyclic and NULL-terminated
   (each new cell points to the previous head, the first one to NULL), so it runs n times.
   Every access is to a live cell. Terminating and memory safe. */
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
    c->value = k;
    c->next = head;
    head = c;
  }
  while (head != NULL) {
    struct node *t = head->next;
    free(head);
    head = t;
  }
  return 0;
}
