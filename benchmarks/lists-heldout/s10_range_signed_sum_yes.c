/* Build n cells (0 <= n <= 500) holding values clamped to [-100, 100], walk the whole list
   adding every value to a signed sum (|sum| <= 100 * 500 = 50000, no overflow), then free
   the cells. Each walk takes n steps on the acyclic NULL-terminated list; every cell is
   freed once and never touched after. Terminating and memory safe. */
#include <stdlib.h>
extern int __VERIFIER_nondet_int(void);

struct item {
  int amount;
  struct item *next;
};

int main(void) {
  int n = __VERIFIER_nondet_int();
  if (n < 0 || n > 500) return 0;
  struct item *list = NULL;
  for (int i = 0; i < n; i++) {
    struct item *it = malloc(sizeof(struct item));
    if (!it) break;
    int a = __VERIFIER_nondet_int();
    if (a > 100) a = 100;
    if (a < -100) a = -100;
    it->amount = a;
    it->next = list;
    list = it;
  }
  int balance = 0;
  for (struct item *p = list; p; p = p->next) balance += p->amount;
  while (list) {
    struct item *t = list->next;
    free(list);
    list = t;
  }
  return balance > 0;
}
