/* Build a list by appending each new cell at the end: every round walks from the head to
   the last cell (the list built so far is acyclic and NULL-terminated, k cells in round k)
   and links a fresh cell there. The outer loop runs n times (0 <= n <= 100), each inner
   walk at most k - 1 steps. Terminating and memory safe. */
#include <stdlib.h>
extern int __VERIFIER_nondet_int(void);

struct node {
  int value;
  struct node *next;
};

int main(void) {
  int n = __VERIFIER_nondet_int();
  if (n < 0 || n > 100) return 0;
  struct node *head = NULL;
  for (int k = 0; k < n; k++) {
    struct node *c = malloc(sizeof(struct node));
    if (c == NULL) return 0;
    c->value = k;
    c->next = NULL;
    if (head == NULL) {
      head = c;
    } else {
      struct node *last = head;
      while (last->next != NULL) last = last->next;
      last->next = c;
    }
  }
  return head != NULL;
}
