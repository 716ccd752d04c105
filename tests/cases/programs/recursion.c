/* Recursion with a decreasing argument: terminates for every input. */
extern int __VERIFIER_nondet_int(void);

int sum_to(int n) {
    if (n <= 0) return 0;
    return 1 + sum_to(n - 1);
}

int main(void) {
    int n = __VERIFIER_nondet_int();
    if (n > 1000) n = 1000;
    return sum_to(n);
}
