/* Two nested counting loops over a nondeterministic bound; terminates, no memory accesses,
   no overflow (sum stays in [0, 1000]): YES with the bit-vector prover. */
extern int __VERIFIER_nondet_int(void);

int main(void) {
    int n = __VERIFIER_nondet_int();
    int sum = 0;
    for (int i = 0; i < n; i++) {
        for (int j = i; j > 0; j--) {
            sum = sum + 1;
            if (sum > 1000) sum = 0;
        }
    }
    return sum;
}
