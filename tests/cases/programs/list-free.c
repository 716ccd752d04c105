/* Builds a heap-allocated list of nondeterministic length, then frees it node by node. */
#include <stdlib.h>
extern int __VERIFIER_nondet_int(void);

struct node {
    struct node *next;
    int value;
};

int main(void) {
    struct node *head = NULL;
    int n = __VERIFIER_nondet_int();
    while (n > 0) {
        struct node *fresh = malloc(sizeof(struct node));
        if (fresh == NULL) break;
        fresh->value = n;
        fresh->next = head;
        head = fresh;
        n--;
    }
    while (head != NULL) {
        struct node *next = head->next;
        free(head);
        head = next;
    }
    return 0;
}
