// Sums a `&mut Vec<u32>` by index and clears each element: the parameter's `Vec` is writable
// with its buffer of `cap` elements (empty when `cap = 0`) and `len <= cap` (std's
// guarantees, read from debug info), so every `v[k]` with `k < len` is in bounds.
#[no_mangle]
pub fn vec_mut_sum(v: &mut Vec<u32>) -> u32 {
    let mut total = 0u32;
    let mut k = 0;
    while k < v.len() {
        total = total.wrapping_add(v[k]);
        v[k] = 0;
        k += 1;
    }
    total
}
