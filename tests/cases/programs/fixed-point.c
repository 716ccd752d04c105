/* Does not terminate for x == 1: the loop body maps 1 to 1 (no overflow involved). */
extern int __VERIFIER_nondet_int(void);

int main(void) {
    int x = __VERIFIER_nondet_int();
    while (x > 0 && x < 100) {
        x = 2 - x;
    }
    return 0;
}
