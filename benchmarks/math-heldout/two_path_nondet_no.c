/* Never ends when y > x: either branch keeps y - x from falling (x + 1, y + 2 raises it by 1;
   y + 1 raises it by 1), whatever the choices. witness-input: 0 1 */
extern int __VERIFIER_nondet_int(void);
int main(void) {
    int x = __VERIFIER_nondet_int();
    int y = __VERIFIER_nondet_int();
    while (y > x) {
        if (__VERIFIER_nondet_int()) {
            x = x + 1;
            y = y + 2;
        } else {
            y = y + 1;
        }
    }
    return 0;
}
