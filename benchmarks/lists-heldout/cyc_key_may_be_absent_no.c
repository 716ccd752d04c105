/* A cyclic list of n cells (1 <= n <= 500) holding 0..n-1 (appended at the tail, the last
   cell pointing back to the first), searched from the first cell for a key with
   0 <= key <= n: one more than the values held. For key = n no cell holds the key, and the
   walk goes round the cycle forever, every access to a live cell and no arithmetic
   overflowing. For key < n it stops. Non-terminating for n = 2, key = 2.
   witness-input: 2 2 */
#include <stdlib.h>
extern int __VERIFIER_nondet_int(void);

struct node {
  int val;
  struct node *next;
};

static void search(struct node *head, int key) {
  struct node *p = head;
  while (p->val != key) p = p->next;
}

int main(void) {
  int n = __VERIFIER_nondet_int();
  if (n < 1 || n > 500) return 0;
  int key = __VERIFIER_nondet_int();
  if (key < 0 || key > n) return 0;
  struct node *head = malloc(sizeof(struct node));
  if (!head) return 0;
  head->val = 0;
  struct node *tail = head;
  for (int k = 1; k < n; k++) {
    struct node *c = malloc(sizeof(struct node));
    if (!c) return 0;
    c->val = k;
    tail->next = c;
    tail = c;
  }
  tail->next = head;
  search(head, key);
  tail->next = NULL;
  while (head) {
    struct node *next = head->next;
    free(head);
    head = next;
  }
  return 0;
}
