/* A doubly linked list of n cells (0 <= n <= 1000) built by appending at the tail (the new
   cell's prev is the old tail), then walked backwards from the tail through prev. The prev
   pointers form an acyclic NULL-terminated chain (each points to an older cell, the first
   cell's prev is NULL), so the walk takes n steps. Terminating and memory safe. */
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
  struct dnode *tail = NULL;
  for (int k = 0; k < n; k++) {
    struct dnode *c = malloc(sizeof(struct dnode));
    if (c == NULL) return 0;
    c->value = k;
    c->next = NULL;
    c->prev = tail;
    if (tail != NULL) tail->next = c;
    else head = c;
    tail = c;
  }
  int len = 0;
  for (struct dnode *p = tail; p != NULL; p = p->prev) len++;
  return len + (head != NULL);
}
