/* A cyclic list of n >= 1 cells holding 0..n-1 (appended at the tail, the last cell pointing
   back to the first), searched from the first cell for m % n with m >= 0: the remainder lies
   in [0, n-1] (signed remainder by a positive divisor of a non-negative dividend), so the
   walk meets it after m % n steps, before it could wrap around. Terminating; the cells are
   left allocated (no access after the search). Expected: YES with memory safety proved, the
   search ranked by the key minus the cursor's value (issue 10, svcomp cll_search's shape in
   one function). */
extern int __VERIFIER_nondet_int(void);
extern void *malloc(unsigned long);

struct node {
  int val;
  struct node *next;
};

int main(void) {
  int n = __VERIFIER_nondet_int();
  if (n < 1) return 0;
  int m = __VERIFIER_nondet_int();
  if (m < 0) return 0;
  struct node *head = malloc(sizeof(struct node));
  head->val = 0;
  struct node *tail = head;
  for (int k = 1; k < n; k++) {
    struct node *c = malloc(sizeof(struct node));
    c->val = k;
    tail->next = c;
    tail = c;
  }
  tail->next = head;
  int key = m % n;
  struct node *p = head;
  while (p->val != key) p = p->next;
  return 0;
}
