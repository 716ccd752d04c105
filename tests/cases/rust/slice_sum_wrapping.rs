// Sums a `&[u32]` through its iterator (`for v in values`), wrapping: the iterator's `ptr`
// lives in memory and advances by 4 until it equals `end`, so both the loop's bound and the
// load need `ptr ≡ end (mod 4)` (kept by symexec::alignment across merges). YES.
#[no_mangle]
pub fn slice_sum_wrapping(values: &[u32]) -> u32 {
    let mut total = 0u32;
    for v in values {
        total = total.wrapping_add(*v);
    }
    total
}
