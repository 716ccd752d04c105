/* Build a list of n cells (0 <= n <= 500) with arbitrary values, then insert a new cell
   holding x before the first cell whose value is at least x, walking with prev one cell
   behind p (NULL before the first step): the new cell is linked through head or
   prev->next. The list is acyclic and NULL-terminated, so the search takes at most n
   steps; the count walk after it at most n + 1; the last walk frees each cell once,
   saving next before the free. Terminating and memory safe. */
#include <stdlib.h>
extern int __VERIFIER_nondet_int(void);

struct node {
  int v;
  struct node *next;
};

int main(void) {
  int n = __VERIFIER_nondet_int();
  if (n < 0 || n > 500) return 0;
  struct node *head = NULL;
  for (int k = 0; k < n; k++) {
    struct node *c = malloc(sizeof(struct node));
    if (!c) return 0;
    c->v = __VERIFIER_nondet_int();
    c->next = head;
    head = c;
  }
  int x = __VERIFIER_nondet_int();
  struct node *prev = NULL;
  struct node *p = head;
  while (p != NULL && p->v < x) {
    prev = p;
    p = p->next;
  }
  struct node *c = malloc(sizeof(struct node));
  if (!c) return 0;
  c->v = x;
  c->next = p;
  if (prev == NULL) head = c;
  else prev->next = c;
  int count = 0;
  for (struct node *q = head; q != NULL; q = q->next) count++;
  while (head != NULL) {
    struct node *t = head->next;
    free(head);
    head = t;
  }
  return count;
}
