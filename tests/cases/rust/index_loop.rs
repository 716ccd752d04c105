// Indexes a slice with bounds checks (panic_bounds_check) inside a loop.
#[no_mangle]
pub fn index_loop(v: &[u8], n: usize) -> u32 {
    let mut s = 0u32;
    let mut i = 0;
    while i < n {
        s = s.wrapping_add(v[i] as u32);
        i += 1;
    }
    s
}
