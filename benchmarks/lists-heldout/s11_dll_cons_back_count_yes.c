/* Build a doubly linked list of n cells (0 <= n <= 400) by inserting at the head (the new
   cell's next is the old head, the old head's prev the new cell, the new cell's prev NULL)
   and remember the first cell allocated, which stays the last cell of the list. Then count
   the cells walking backwards from that last cell through prev. The prev fields form an
   acyclic chain over the n fresh cells ending in the head's prev, NULL (each prev points to
   the cell allocated after it): n steps, the count stays <= 400. Terminating and memory safe. */
#include <stdlib.h>
extern int __VERIFIER_nondet_int(void);

struct item {
  struct item *next;
  int key;
  struct item *prev;
};

int main(void) {
  int n = __VERIFIER_nondet_int();
  if (n < 0 || n > 400) return 0;
  struct item *head = NULL;
  struct item *last = NULL;
  while (n > 0) {
    struct item *c = malloc(sizeof(struct item));
    if (c == NULL) return 0;
    c->key = n;
    c->prev = NULL;
    c->next = head;
    if (head != NULL) head->prev = c;
    else last = c;
    head = c;
    n--;
  }
  int count = 0;
  struct item *p = last;
  while (p != NULL) {
    count++;
    p = p->prev;
  }
  return count;
}
