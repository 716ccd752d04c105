/* Never ends: x counts down to 0 (if positive), then y, which starts at 1, grows forever
   (math semantics: no overflow). witness-input: 0 */
extern int __VERIFIER_nondet_int(void);
int main(void) {
    int x = __VERIFIER_nondet_int();
    int y = 1;
    while (y > 0) {
        if (x > 0) {
            x = x - 1;
        } else {
            y = y + 1;
        }
    }
    return 0;
}
