/* Never ends for n >= 1: each outer round counts i up to n and then j down from n to 0 (both
   inner loops stop), then n grows by 1, so n stays positive (math semantics: no overflow).
   witness-input: 1 */
extern int __VERIFIER_nondet_int(void);
int main(void) {
    int n = __VERIFIER_nondet_int();
    int i, j;
    while (n > 0) {
        i = 0;
        while (i < n) {
            i = i + 1;
        }
        j = n;
        while (j > 0) {
            j = j - 1;
        }
        n = n + 1;
    }
    return 0;
}
