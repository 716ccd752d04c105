// Panics on purpose for large inputs, else counts down: every run ends (YES, may panic).
#[no_mangle]
pub fn panics(n: u32) -> u32 {
    if n > 1000 {
        panic!("too large");
    }
    let mut i = n;
    while i > 0 {
        i -= 1;
    }
    i
}
