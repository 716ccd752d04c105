// Countdown with rustc's debug overflow checks on `-=` and `+=` (YES, may panic).
#[no_mangle]
pub fn countdown_checked(mut n: u32) -> u32 {
    let mut k = 0;
    while n > 0 {
        n -= 1;
        k += 1;
    }
    k
}
