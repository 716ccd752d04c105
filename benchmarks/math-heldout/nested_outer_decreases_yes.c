/* Terminates: the inner loop counts y up to x and stops, then x falls by 1, so the outer
   loop runs at most x times (math semantics; no value leaves int either). */
extern int __VERIFIER_nondet_int(void);
int main(void) {
    int x = __VERIFIER_nondet_int();
    int y;
    while (x > 0) {
        y = 0;
        while (y < x) {
            y = y + 1;
        }
        x = x - 1;
    }
    return 0;
}
