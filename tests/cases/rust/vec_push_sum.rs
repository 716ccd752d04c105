// Builds a `Vec<u32>` with `push` (std's `RawVec::grow_one` linked from the sysroot's
// bitcode), then sums it by index: the buffer's size `cap · 4` and `len ≤ cap` survive the
// merges of the push loop, so every element access is in bounds.
#[no_mangle]
pub fn vec_push_sum(n: u32) -> u32 {
    let mut v: Vec<u32> = Vec::new();
    let mut i = 0;
    while i < n {
        v.push(i);
        i += 1;
    }
    let mut total = 0u32;
    let mut k = 0;
    while k < v.len() {
        total = total.wrapping_add(v[k]);
        k += 1;
    }
    total
}
