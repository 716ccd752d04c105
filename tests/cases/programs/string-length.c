/* strlen-style loop over a heap buffer that is zero-terminated by construction (YES since session 7: the store rule keeps the terminator cell, issue 11 part 3). */
#include <stdlib.h>
extern int __VERIFIER_nondet_int(void);

int main(void) {
    int n = __VERIFIER_nondet_int();
    if (n < 1 || n > 1000) return 0;
    char *s = malloc(n);
    if (s == NULL) return 0;
    for (int i = 0; i < n - 1; i++) s[i] = 'a';
    s[n - 1] = 0;
    int len = 0;
    while (s[len] != 0) len++;
    free(s);
    return len;
}
