// Sums a `&[u32]` by index over `0..v.len()`: `Range::next` (through `Step::forward_unchecked`
// and its precondition check) is inlined, each `v[i]` is bounds-checked (the panic path ends
// the run) and the load is in bounds because `i < len` (YES, memory safety proved).
#[no_mangle]
pub fn range_index_sum(v: &[u32]) -> u32 {
    let mut total = 0u32;
    for i in 0..v.len() {
        total = total.wrapping_add(v[i]);
    }
    total
}
