/* Never ends for x > 0: whatever the inner loop's choices (it may run forever too), every
   outer round adds 1 to x, so x stays positive (math semantics: no overflow).
   witness-input: 1 0 */
extern int __VERIFIER_nondet_int(void);
int main(void) {
    int x = __VERIFIER_nondet_int();
    int y = 0;
    while (x > 0) {
        while (__VERIFIER_nondet_int()) {
            y = y + 1;
        }
        x = x + 1;
    }
    return 0;
}
