/* Bundled example for the README: terminates, and all memory accesses are in bounds.
   The loop variable i strictly decreases and is bounded below by 0. */
extern int __VERIFIER_nondet_int(void);

int main(void) {
    int buf[16];
    int i = __VERIFIER_nondet_int();
    if (i > 16) i = 16;
    while (i > 0) {
        i = i - 1;
        buf[i] = i;
    }
    return 0;
}
