/* Build a list of n cells (0 <= n <= 400) by consing; walk at most k cells from the head
   (0 <= k <= n, a counter beside the cursor), then free every cell of the list from the
   head, saving next before each free. The list is acyclic and NULL-terminated: the first
   walk takes at most k steps, the freeing walk n; every cell is freed once and never read
   after. Terminating and memory safe. */
#include <stdlib.h>
extern int __VERIFIER_nondet_int(void);

struct node {
  int v;
  struct node *next;
};

int main(void) {
  int n = __VERIFIER_nondet_int();
  if (n < 0 || n > 400) return 0;
  int k = __VERIFIER_nondet_int();
  if (k < 0 || k > n) return 0;
  struct node *head = NULL;
  for (int i = 0; i < n; i++) {
    struct node *c = malloc(sizeof(struct node));
    if (!c) return 0;
    c->v = i;
    c->next = head;
    head = c;
  }
  struct node *p = head;
  for (int i = 0; i < k && p != NULL; i++) p = p->next;
  int stopped_early = p != NULL;
  while (head != NULL) {
    struct node *t = head->next;
    free(head);
    head = t;
  }
  return stopped_early;
}
