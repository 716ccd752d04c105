// Sums a `&Vec<u32>` through its slice iterator: the parameter's `Vec` is read-only with
// its buffer of `cap` elements and `len <= cap` (std's guarantees, read from debug info),
// so every `*x` is in bounds (YES, memory safety proved).
#[no_mangle]
pub fn vec_ref_sum(v: &Vec<u32>) -> u32 {
    let mut total = 0u32;
    for x in v.iter() {
        total = total.wrapping_add(*x);
    }
    total
}
