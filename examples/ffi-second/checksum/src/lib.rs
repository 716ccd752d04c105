//! The checksum library: Rust wrappers over C arithmetic, and a callback C calls.

extern "C" {
    fn c_gcd(a: u32, b: u32) -> u32;
    fn c_fold_below(n: u32) -> u32;
    fn c_wait(flag: i32);
}

/// Called by C (`c_fold_below`): one folding step, wrapping.
#[no_mangle]
pub extern "C" fn rust_fold(acc: u32, x: u32) -> u32 {
    acc.wrapping_mul(31).wrapping_add(x)
}

/// Greatest common divisor, computed in C.
pub fn gcd(a: u32, b: u32) -> u32 {
    // SAFETY: c_gcd reads nothing but its arguments.
    unsafe { c_gcd(a, b) }
}

/// The checksum of the numbers below `n`, folded in C through `rust_fold`.
pub fn checksum_below(n: u32) -> u32 {
    // SAFETY: c_fold_below reads nothing but its argument.
    unsafe { c_fold_below(n) }
}

/// Waits with a cleared flag: returns at once. Proved, but only assuming `c_wait`, which its C
/// annotation allows not to terminate.
pub fn settle() {
    // SAFETY: c_wait reads nothing but its argument.
    unsafe { c_wait(0) }
}

/// The number of Collatz steps from `n` down to 1 (0 and 1 take none). Nobody can prove that
/// this terminates for every `n`, so the attribute accepts it, with its reason.
#[termcheck::assume_terminates(reason = "the Collatz conjecture (an overflow panics)")]
pub fn collatz_steps(mut n: u64) -> u32 {
    let mut steps = 0u32;
    while n > 1 {
        n = if n % 2 == 0 { n / 2 } else { 3 * n + 1 };
        steps = steps.wrapping_add(1);
    }
    steps
}

/// Collatz steps from 1: none. Proved, assuming `collatz_steps` terminates.
pub fn collatz_steps_of_one() -> u32 {
    collatz_steps(1)
}
