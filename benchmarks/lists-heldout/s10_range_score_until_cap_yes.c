/* Build n cells (0 <= n <= 2000) with scores in [0, 1000] (others become 1000), then walk
   until the end or until the total passes 100000: at most n steps on the acyclic
   NULL-terminated list, and the total stays below 100000 + 1000 (no overflow). The cells
   are then freed one by one (n steps). Terminating and memory safe. */
#include <stdlib.h>
extern int __VERIFIER_nondet_int(void);

struct entry {
  struct entry *next;
  int score;
};

int main(void) {
  int n = __VERIFIER_nondet_int();
  if (n < 0 || n > 2000) return 0;
  struct entry *first = NULL;
  for (int i = 0; i < n; i++) {
    struct entry *e = malloc(sizeof(struct entry));
    if (e == NULL) return 0;
    int s = __VERIFIER_nondet_int();
    e->score = (s >= 0 && s <= 1000) ? s : 1000;
    e->next = first;
    first = e;
  }
  int total = 0;
  struct entry *cur = first;
  while (cur != NULL && total <= 100000) {
    total += cur->score;
    cur = cur->next;
  }
  while (first != NULL) {
    struct entry *nx = first->next;
    free(first);
    first = nx;
  }
  return total;
}
