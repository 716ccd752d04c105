// A recursive callee's entry built in a caller's graph, stored and served to another caller:
// `sum_rec` reads the array through a C pointer, so its own analysis (arbitrary pointer) is
// not proved and stores nothing. The entry built for `fill`'s call (a caller block of 8 ints,
// n = 8, generalized over the recursive calls) is proved with its subgraph — the recursion
// cycle included — and stored; `main`'s call on its own 8-int buffer is an instance of it and
// is served from the store: `main`'s graph and ITS contain no recursion of `sum_rec`.

int sum_rec(const int *a, int n) {
    if (n <= 0)
        return 0;
    return a[n - 1] + sum_rec(a, n - 1);
}

int fill(int v) {
    int buf[8];
    for (int i = 0; i < 8; i++)
        buf[i] = v;
    return sum_rec(buf, 8);
}

int main(void) {
    int other[8];
    for (int i = 0; i < 8; i++)
        other[i] = i;
    return fill(3) + sum_rec(other, 8);
}
