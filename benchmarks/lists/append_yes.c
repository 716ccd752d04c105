/* Build two lists a (n cells) and b (m cells), 0 <= n, m <= 1000, walk to the last cell
   of a and link b behind it, then walk the joined list. The walk to the last cell follows
   a's acyclic list (n - 1 steps); a and b are disjoint (different mallocs), so the joined
   list is acyclic and NULL-terminated (n + m cells) and the final walk takes n + m steps.
   Terminating and memory safe. */
#include <stdlib.h>
extern int __VERIFIER_nondet_int(void);

struct node {
  int value;
  struct node *next;
};

static struct node *build(int n) {
  struct node *head = NULL;
  for (int k = 0; k < n; k++) {
    struct node *c = malloc(sizeof(struct node));
    if (c == NULL) exit(0);
    c->value = k;
    c->next = head;
    head = c;
  }
  return head;
}

int main(void) {
  int n = __VERIFIER_nondet_int();
  int m = __VERIFIER_nondet_int();
  if (n < 0 || n > 1000 || m < 0 || m > 1000) return 0;
  struct node *a = build(n);
  struct node *b = build(m);
  if (a == NULL) {
    a = b;
  } else {
    struct node *last = a;
    while (last->next != NULL) last = last->next;
    last->next = b;
  }
  int len = 0;
  for (struct node *p = a; p != NULL; p = p->next) len++;
  return len;
}
