/* Under --int-semantics c the increment overflows (undefined behaviour) for every positive x;
   with unbounded integers (math) the loop runs forever; with two's complement wrapping (wrap)
   x reaches INT_MAX, wraps to INT_MIN and the loop ends (YES, by the bit-vector prover). */
extern int __VERIFIER_nondet_int(void);

int main(void) {
    int x = __VERIFIER_nondet_int();
    while (x > 0) {
        x = x + 1;
    }
    return 0;
}
