// Recursive callees in the module-wide summary store: `depth` is recursive, `fib` calls
// itself twice. Bottom-up, each is analysed first on its own (its recursion cycles proved
// there) and its entry for all arguments, with the merged return states of its runs, enters
// the run's summary store. The callers' calls come from outside the recursion, are instances
// of those entries and are served from the store: the callers' graphs and termination
// proofs contain no recursion cycle of `depth` or `fib`. `walk` loops on `depth`'s result,
// which the stored return states bound (result >= 0).

int depth(int n) {
    if (n <= 0)
        return 0;
    return 1 + depth(n - 1);
}

int fib(int n) {
    if (n < 2)
        return n;
    return fib(n - 1) + fib(n - 2);
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
    return depth(a) + fib(a) + walk(a);
}

int main(void) {
    return both(10);
}
