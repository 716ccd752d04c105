// x = 7 - 3x flips sign and grows away from its fixed point 7/4, so the loop runs at most a
// few times; no linear ranking function exists over the rationals (7/4 satisfies every
// unrolled guard), only over the integers. Terminates.
extern int __VERIFIER_nondet_int(void);

int main(void) {
    int x = __VERIFIER_nondet_int();
    while (x >= 1) {
        x = 7 - 3 * x;
    }
    return 0;
}
