/* A doubly linked list of n cells (0 <= n <= 1000) built at the head (next to the old
   head, the old head's prev to the new cell), then walked forwards through next. The next
   pointers form an acyclic NULL-terminated chain (each points to an older cell), so the
   walk takes n steps. Terminating and memory safe. */
#include <stdlib.h>
extern int __VERIFIER_nondet_int(void);

struct dnode {
  int value;
  struct dnode *next;
  struct dnode *prev;
};

int main(void) {
  int n = __VERIFIER_nondet_int();
  if (n < 0 || n > 1000) return 0;
  struct dnode *head = NULL;
  for (int k = 0; k < n; k++) {
    struct dnode *c = malloc(sizeof(struct dnode));
    if (c == NULL) return 0;
    c->value = k;
    c->next = head;
    c->prev = NULL;
    if (head != NULL) head->prev = c;
    head = c;
  }
  int len = 0;
  for (struct dnode *p = head; p != NULL; p = p->next) len++;
  return len;
}
