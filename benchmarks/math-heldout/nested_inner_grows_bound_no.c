/* Never ends for k >= 1: the inner loop moves m up to k (it stops), and every outer round
   then doubles k, so k stays positive and the outer guard k > 0 always holds (math
   semantics: no overflow). witness-input: 1 */
extern int __VERIFIER_nondet_int(void);
int main(void) {
    int k = __VERIFIER_nondet_int();
    int m = 0;
    while (k > 0) {
        while (m < k) {
            m = m + 1;
        }
        k = 2 * k;
    }
    return 0;
}
