// The module-wide summary store: `count` and `sum` loop, and every other function calls them.
// Bottom-up, `count` is analysed first; its proof for all arguments enters the run's summary
// store, and the calls in `twice` and `chain` are instances of that entry: they are served
// from the store (the callers' graphs and termination proofs contain no loop of `count`).
// `sum` reads an array through a pointer, so it is not proved for arbitrary pointers; the
// entry built for `fill_and_sum`'s call (a caller block of 8 ints) is proved and stored, and
// `main`, which reaches `fill_and_sum`, is served from it for its own 8-int buffer.

int count(int n) {
    int i = 0;
    while (i < n)
        i++;
    return i;
}

int twice(int a) {
    if (a > 1000)
        return 0;
    return count(a) + count(a + 1);
}

int chain(int b) {
    if (b < 0 || b > 50)
        return 0;
    return twice(b) + count(b);
}

int sum(const int *a, int n) {
    int s = 0;
    for (int i = 0; i < n; i++)
        s += a[i];
    return s;
}

int fill_and_sum(int v) {
    int buf[8];
    for (int i = 0; i < 8; i++)
        buf[i] = v;
    return sum(buf, 8);
}

int main(void) {
    int other[8];
    for (int i = 0; i < 8; i++)
        other[i] = i;
    return chain(7) + fill_and_sum(3) + sum(other, 8);
}
