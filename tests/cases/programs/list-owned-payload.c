/* Cells that own a payload block: each of the n cells (0 <= n <= 100) of a list built at
   its head mallocs a name buffer of 8 bytes of its own. A first walk writes the first and
   last byte of every cell's name (in bounds: offsets 0 and 7 of an 8-byte block that is
   live), a second walk frees each name and then its cell, saving next before the frees.
   Each walk takes n steps on the acyclic NULL-terminated list; every name and every cell
   is freed exactly once and never touched after. Terminating and memory safe.
   Today: YES, memory safety proved (the names fold with their cells as owned payloads). */
#include <stdlib.h>
extern int __VERIFIER_nondet_int(void);

struct entry {
  int id;
  char *name;
  struct entry *next;
};

int main(void) {
  int n = __VERIFIER_nondet_int();
  if (n < 0 || n > 100) return 0;
  struct entry *head = NULL;
  for (int k = 0; k < n; k++) {
    struct entry *e = malloc(sizeof(struct entry));
    if (e == NULL) return 0;
    e->name = malloc(8);
    if (e->name == NULL) {
      free(e);
      return 0;
    }
    e->id = k;
    e->next = head;
    head = e;
  }
  for (struct entry *p = head; p != NULL; p = p->next) {
    p->name[0] = 'a';
    p->name[7] = 0;
  }
  while (head != NULL) {
    struct entry *t = head->next;
    free(head->name);
    free(head);
    head = t;
  }
  return 0;
}
