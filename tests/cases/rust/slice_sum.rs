// Sums a slice: the loop runs once per element (YES: the iterator's pointer keeps its
// alignment across merges, symexec::alignment); the overflow check's panic is a
// terminating run, reported as "may panic".
#[no_mangle]
pub fn slice_sum(v: &[u32]) -> u64 {
    let mut s = 0u64;
    for x in v {
        s += *x as u64;
    }
    s
}
