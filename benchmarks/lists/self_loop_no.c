/* Build a list of n cells (1 <= n <= 1000); the first cell created (the last of the list)
   points to itself instead of NULL. Walking until NULL reaches that cell and stays there
   forever (live cell). Non-terminating for every n >= 1.
   witness-input: 2 */
#include <stdlib.h>
extern int __VERIFIER_nondet_int(void);

struct node {
  int value;
  struct node *next;
};

int main(void) {
  int n = __VERIFIER_nondet_int();
  if (n < 1 || n > 1000) return 0;
  struct node *head = NULL;
  for (int k = 0; k < n; k++) {
    struct node *c = malloc(sizeof(struct node));
    if (c == NULL) return 0;
    c->value = k;
    c->next = (head == NULL) ? c : head;
    head = c;
  }
  struct node *p = head;
  while (p != NULL) p = p->next;
  return 0;
}
