/* Never ends for a >= 0: each outer round copies a into b and counts b down by 2 until it is
   0 or -1 (the inner loop stops), then a grows by 2, so a stays non-negative forever (math
   semantics: no overflow). witness-input: 0 */
extern int __VERIFIER_nondet_int(void);
int main(void) {
    int a = __VERIFIER_nondet_int();
    int b;
    while (a >= 0) {
        b = a;
        while (b > 0) {
            b = b - 2;
        }
        a = a + 2;
    }
    return 0;
}
