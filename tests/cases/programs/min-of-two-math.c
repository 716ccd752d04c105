// Two counters; each step lowers the smaller one and may reset the other to any value:
// min(a, b) decreases, a function that is linear only on each side of a < b. Terminates.
extern int __VERIFIER_nondet_int(void);

int main(void) {
    int a = __VERIFIER_nondet_int();
    int b = __VERIFIER_nondet_int();
    while (a > 0 && b > 0) {
        if (a <= b) {
            a = a - 1;
            b = __VERIFIER_nondet_int();
        } else {
            b = b - 2;
            a = __VERIFIER_nondet_int();
        }
    }
    return 0;
}
