/* The C half of ffi-basic: called from Rust, and calling back into Rust (rust_step). */

unsigned rust_step(unsigned x);

/* Terminates: the counter goes up to n. */
unsigned c_sum_to(unsigned n) {
    unsigned total = 0;
    for (unsigned i = 0; i < n; i++) {
        total += i;
    }
    return total;
}

/* Terminates: calls back into Rust once per iteration; rust_step returns its argument + 1
   (wrapping), so the loop counts k up to n. */
unsigned c_count_with_rust(unsigned n) {
    unsigned steps = 0;
    for (unsigned k = 0; k < n; k = rust_step(k)) {
        steps++;
    }
    return steps;
}

/* Does not terminate for x > 0: x never reaches 0 while it stays positive. */
int c_spin(int x) {
    while (x > 0) {
        x = x + 0;
    }
    return x;
}

/* Memory-unsafe: writes one element past the end of a local array. */
int c_overflow(int v) {
    int buf[4];
    for (int i = 0; i <= 4; i++) {
        buf[i] = v;
    }
    return buf[0];
}
