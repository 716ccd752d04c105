// Internal (static) functions are judged in their call contexts: `wait_for` alone never
// ends for x != 0 (a NO from arbitrary arguments), but its only caller passes 0, so in its
// contexts it terminates. `escapes` is static too, but its address is stored in a global,
// so code the analysis does not see may call it: it stays judged for arbitrary arguments.

static int wait_for(int x) {
    while (x != 0) {
    }
    return 1;
}

static int escapes(int x) {
    while (x != 0) {
    }
    return 2;
}

int (*volatile handler)(int) = escapes;

int main(void) {
    return wait_for(0) + escapes(0);
}
