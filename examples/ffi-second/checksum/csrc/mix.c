/* Arithmetic of the checksum library, called from Rust; rust_fold is a Rust callback. */

unsigned rust_fold(unsigned acc, unsigned x);

/* Terminates: Euclid's algorithm on unsigned values. */
unsigned c_gcd(unsigned a, unsigned b) {
    while (b != 0) {
        unsigned t = a % b;
        a = b;
        b = t;
    }
    return a;
}

/* Terminates: folds the numbers below n through the Rust callback. */
unsigned c_fold_below(unsigned n) {
    unsigned acc = 0;
    for (unsigned i = 0; i < n; i++) {
        acc = rust_fold(acc, i);
    }
    return acc;
}

/* Memory-unsafe: dereferences a null pointer. */
int c_read_null(void) {
    int *p = 0;
    return *p;
}
