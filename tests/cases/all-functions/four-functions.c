// Four functions, each analysed by `prove --all-functions` as an entry of its own (its
// parameters arbitrary): a terminating loop, a loop that never ends for x != 0, a load
// through an arbitrary pointer, and main calling the first one.

unsigned countdown(unsigned n) {
    while (n > 0)
        n--;
    return n;
}

int spin(int x) {
    while (x != 0) {
    }
    return 0;
}

int deref(int *p) {
    return *p;
}

int main(void) {
    return (int)countdown(10);
}
