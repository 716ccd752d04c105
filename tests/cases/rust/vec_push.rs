// Pushes n bytes into a Vec: alloc's `RawVec::grow_one` (and the drop of `Vec<u8>`) are not
// in this crate's bitcode; they are linked from the sysroot's bitcode, and the Vec's buffer
// is one block across the loop's merges (YES, memory safety proved).
#[no_mangle]
pub fn vec_push(n: usize) -> usize {
    let mut v = Vec::new();
    for i in 0..n {
        v.push(i as u8);
    }
    v.len()
}
