/* The cyclic list of list-cyclic-search-rem.c searched for a key in [0, n]: key = n is held
   by no cell and the walk goes round the cycle forever (n = 1, key = 1: the single cell
   points to itself). Expected: NO, from a replayed lasso; folding the cycle whole for the
   search must not hide it (issue 10). */
extern int __VERIFIER_nondet_int(void);
extern void *malloc(unsigned long);

struct node {
  int val;
  struct node *next;
};

int main(void) {
  int n = __VERIFIER_nondet_int();
  if (n < 1 || n > 100) return 0;
  int key = __VERIFIER_nondet_int();
  if (key < 0 || key > n) return 0;
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
  struct node *p = head;
  while (p->val != key) p = p->next;
  return 0;
}
