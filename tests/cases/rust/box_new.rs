// `Box::new` allocates through `__rust_alloc`; on failure `alloc_impl_runtime` returns the
// constant `Err(AllocError)` (a global `{ null, undef }`) and `handle_alloc_error` ends the run.
// The pointer read from that constant is null (its bytes are known zeros), so the successful
// path's store goes to the new block. No loop; memory safe (YES, memory safety proved).
#[no_mangle]
pub fn box_new(n: u32) -> u32 {
    let b = Box::new(n);
    *b / 2
}
