/* `sum` has a loop of its own and is not recursive: in the first attempt its calls go
   through summaries (call abstraction with the caller's stack arrays as foreign memory,
   entry, return states, intersection). `sum(b, 4)` is an instance of the entry built for
   `sum(a, 4)` (the blocks are paired through the parameter), so `sum`'s graph is not built
   again for it; `sum(a, 3)` gets an entry of its own (n = 4 is a fact of the first). Every read of `sum` is inside the array it is given; all runs
   terminate (analysed with mathematical integers: `.args`). */
extern int __VERIFIER_nondet_int(void);

int sum(int *a, int n) {
    int s = 0;
    for (int i = 0; i < n; i++) {
        s = s + a[i];
    }
    return s;
}

int main(void) {
    int a[4];
    int b[4];
    for (int i = 0; i < 4; i++) {
        a[i] = __VERIFIER_nondet_int();
        b[i] = __VERIFIER_nondet_int();
    }
    int x = sum(a, 4);
    int y = sum(b, 4);
    int z = sum(a, 3);
    return x > y && y > z;
}
