/* Build a doubly linked list of n cells (0 <= n <= 250) by appending at the tail (the new
   cell's prev is the old tail, the old tail's next the new cell), then free it from the tail:
   step the tail back to its prev, clear the new tail's next, and free the cell left behind.
   Each cell is read and freed once, the later cells first, and the walk ends at the head's
   prev, NULL: n steps. Terminating and memory safe (no cell is touched after its free, and
   the new tail is always a live cell allocated before the freed one). */
#include <stdlib.h>
extern int __VERIFIER_nondet_int(void);

struct dcell {
  int data;
  struct dcell *prev;
  struct dcell *next;
};

int main(void) {
  int n = __VERIFIER_nondet_int();
  if (n < 0 || n > 250) return 0;
  struct dcell *tail = NULL;
  for (int i = 0; i < n; i++) {
    struct dcell *c = malloc(sizeof(struct dcell));
    if (!c) return 0;
    c->data = 2 * i;
    c->next = NULL;
    c->prev = tail;
    if (tail) tail->next = c;
    tail = c;
  }
  while (tail != NULL) {
    struct dcell *old = tail;
    tail = tail->prev;
    if (tail != NULL) tail->next = NULL;
    free(old);
  }
  return 0;
}
