// Fills a Vec with `for i in 0..n` and then reads it back with `for i in 0..values.len()`
// (session 12): the read loop after the fill loop is explored from the fill loop's converged
// header states only, not again from each intermediate generalization (`symexec/graph.rs`,
// `Builder::schedule`). Known today: YES with memory safety proved by the release binary with
// `--timeout 150` (about 50 s of symbolic execution, BENCHMARKS.md "Session 12: perf"); within
// this case's 20 s the debug binary the tests run gives MAYBE (timeout), which is what the
// expected file pins.
#[no_mangle]
pub fn vec_fill_read(n: usize) -> u32 {
    let mut values = Vec::new();
    for i in 0..n {
        values.push(i as u32);
    }
    let mut total: u32 = 0;
    for i in 0..values.len() {
        total = total.wrapping_add(values[i]);
    }
    total
}
