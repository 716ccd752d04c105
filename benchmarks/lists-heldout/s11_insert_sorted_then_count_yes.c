/* Insert n values (0 <= n <= 50) into an ascending list (walk while the next key is
   smaller, link the new cell behind the cursor), then count the cells with a second walk
   from the head. Every insertion links one fresh cell once into an acyclic NULL-terminated
   list, so the list stays acyclic; each walk is bounded by the list's length (at most 50
   cells, the count cannot overflow). Terminating and memory safe. */
#include <stdlib.h>
extern int __VERIFIER_nondet_int(void);

struct node {
  int key;
  struct node *next;
};

int main(void) {
  int n = __VERIFIER_nondet_int();
  if (n < 0 || n > 50) return 0;
  struct node *h = NULL;
  for (int i = 0; i < n; i++) {
    struct node *c = malloc(sizeof(struct node));
    if (c == NULL) return 0;
    c->key = __VERIFIER_nondet_int();
    if (h == NULL || c->key < h->key) {
      c->next = h;
      h = c;
    } else {
      struct node *p = h;
      while (p->next != NULL && p->next->key <= c->key) p = p->next;
      c->next = p->next;
      p->next = c;
    }
  }
  int count = 0;
  for (struct node *p = h; p != NULL; p = p->next) count++;
  return count;
}
