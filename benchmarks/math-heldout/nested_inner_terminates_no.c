/* Never ends for x >= 1: the inner loop always runs 3 times and stops, then x grows by 3,
   so x stays positive forever (math semantics: no overflow). witness-input: 1 */
extern int __VERIFIER_nondet_int(void);
int main(void) {
    int x = __VERIFIER_nondet_int();
    int y;
    while (x > 0) {
        y = 0;
        while (y < 3) {
            y = y + 1;
        }
        x = x + y;
    }
    return 0;
}
