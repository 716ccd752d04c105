// Reads one element past the end of a `&[u32]` (`p <= end` instead of `p < end`): the
// pointer's alignment (symexec::alignment) must not make the last read look in bounds, so
// memory safety is never proved.
#[no_mangle]
pub fn slice_past_end(v: &[u32]) -> u32 {
    let mut s = 0u32;
    let mut p = v.as_ptr();
    // SAFETY: none; the loop deliberately reads `*end`, one element past the slice.
    let end = unsafe { p.add(v.len()) };
    while p <= end {
        s = s.wrapping_add(unsafe { *p });
        p = unsafe { p.add(1) };
    }
    s
}
