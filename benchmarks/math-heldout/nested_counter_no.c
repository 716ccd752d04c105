/* Never ends for i >= 1: the inner loop counts j from 0 up to i and stops; then i grows by 1,
   so i stays positive forever (math semantics: no overflow). witness-input: 1 */
extern int __VERIFIER_nondet_int(void);
int main(void) {
    int i = __VERIFIER_nondet_int();
    int j;
    if (i < 1) return 0;
    while (i > 0) {
        j = 0;
        while (j < i) {
            j = j + 1;
        }
        i = i + 1;
    }
    return 0;
}
