// Recursive callees in the module-wide summary store: `depth` is recursive. Bottom-up, it is
// analysed first on its own (its recursion cycle proved there) and its entry for all
// arguments, with the merged return states of its runs, enters the run's summary store.
// `walk`'s call comes from outside the recursion, is an instance of that entry and is served
// from the store: `walk`'s graph and termination proof contain no recursion cycle of `depth`.
// `walk` loops on `depth`'s result, which the stored return states bound (result >= 0).

int depth(int n) {
    if (n <= 0)
        return 0;
    return 1 + depth(n - 1);
}

int walk(int a) {
    if (a < 0 || a > 1000)
        return 0;
    int k = depth(a);
    int s = 0;
    while (k != 0) {
        k--;
        s++;
    }
    return s;
}

int both(int a) {
    if (a > 30)
        return 0;
    return depth(a) + walk(a);
}

int main(void) {
    return both(10);
}
