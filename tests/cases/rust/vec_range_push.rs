// A `for i in 0..n` loop pushing into a local `Vec<u32>`: `Range::next` is inlined into the
// loop, std's `RawVec::grow_one` is linked from the sysroot's bitcode, and the buffer is one
// block across the loop's merges (`symexec/rust_owned_vec.rs`): YES, memory safety proved.
#[no_mangle]
pub fn vec_range_push(n: u32) -> usize {
    let mut v = Vec::new();
    for i in 0..n {
        v.push(i);
    }
    v.len()
}
