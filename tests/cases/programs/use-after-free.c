/* Reads a heap cell after freeing it. */
#include <stdlib.h>

int main(void) {
    int *p = malloc(sizeof(int));
    if (p == NULL) return 0;
    *p = 1;
    free(p);
    return *p;
}
