/* Like traverse_yes.c, but the walk reads the next pointer through byte arithmetic
   (char* plus offsetof), as in seed 001's example; the values are unsigned. The list is
   acyclic and NULL-terminated, so the walk takes n steps; each read is inside a live
   cell. Terminating and memory safe. */
#include <stddef.h>
#include <stdlib.h>
extern unsigned int __VERIFIER_nondet_uint(void);

struct list {
  unsigned int value;
  struct list *next;
};

int main(void) {
  unsigned int n = __VERIFIER_nondet_uint();
  if (n > 1000) return 0;
  struct list *tail = NULL;
  for (unsigned int k = 0; k < n; k++) {
    struct list *curr = malloc(sizeof(struct list));
    if (curr == NULL) return 0;
    curr->value = __VERIFIER_nondet_uint();
    curr->next = tail;
    tail = curr;
  }
  struct list *ptr = tail;
  while (ptr != NULL) {
    ptr = *((struct list **)((char *)ptr + offsetof(struct list, next)));
  }
  return 0;
}
