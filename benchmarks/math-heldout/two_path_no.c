/* Never ends for x >= 1: an even x doubles, an odd x grows by 3; both keep x positive
   (math semantics: no overflow). witness-input: 1 */
extern int __VERIFIER_nondet_int(void);
int main(void) {
    int x = __VERIFIER_nondet_int();
    while (x > 0) {
        if (x % 2 == 0) {
            x = 2 * x;
        } else {
            x = x + 3;
        }
    }
    return 0;
}
