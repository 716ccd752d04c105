// Pushes `n` elements through a `&mut Vec<u32>` (std's `RawVec::grow_one` linked from the
// sysroot's bitcode reallocates the caller's buffer, or allocates one when `cap = 0`): the
// caller's buffer (`VecBuffer`, possibly empty) and the heap block a push moves it to are one
// block across merges, `len ≤ cap` survives the widening, and each way the first push can go
// (room left, growth from 0, growth by doubling) generalizes on its own (`symexec/
// rust_owned_vec.rs`, `graph.rs`): YES, memory safety proved.
#[no_mangle]
pub fn vec_mut_push(v: &mut Vec<u32>, n: u32) {
    let mut i = 0;
    while i < n {
        v.push(i);
        i += 1;
    }
}
