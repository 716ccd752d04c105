/* Never ends for x != 0: a positive x grows and a negative x falls, so x never reaches 0
   (math semantics: no overflow); the recurrent set is the disjunction x > 0 or x < 0.
   witness-input: -1 */
extern int __VERIFIER_nondet_int(void);
int main(void) {
    int x = __VERIFIER_nondet_int();
    while (x != 0) {
        if (x > 0) {
            x = x + 1;
        } else {
            x = x - 3;
        }
    }
    return 0;
}
