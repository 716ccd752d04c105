// Pushes n bytes into a Vec: calls alloc's `RawVec::grow_one`, whose code is not in this
// crate's bitcode (MAYBE: unknown external function, named).
#[no_mangle]
pub fn vec_push(n: usize) -> usize {
    let mut v = Vec::new();
    for i in 0..n {
        v.push(i as u8);
    }
    v.len()
}
