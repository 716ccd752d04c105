//! The checksum library: Rust wrappers over C arithmetic, and a callback C calls.

extern "C" {
    fn c_gcd(a: u32, b: u32) -> u32;
    fn c_fold_below(n: u32) -> u32;
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
