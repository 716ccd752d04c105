//! The Rust half of ffi-basic: FFI calls into C (csrc/ops.c) and a callback C calls.

extern "C" {
    fn c_sum_to(n: u32) -> u32;
    fn c_count_with_rust(n: u32) -> u32;
}

/// Called by C (`c_count_with_rust`): the next counter value, wrapping at `u32::MAX`.
#[no_mangle]
pub extern "C" fn rust_step(x: u32) -> u32 {
    x.wrapping_add(1)
}

/// The sum 0 + 1 + … + (n - 1), computed in C.
pub fn sum_to(n: u32) -> u32 {
    // SAFETY: c_sum_to reads nothing but its argument.
    unsafe { c_sum_to(n) }
}

/// How many steps C counts up to `n`, calling back into Rust.
pub fn count(n: u32) -> u32 {
    // SAFETY: c_count_with_rust reads nothing but its argument.
    unsafe { c_count_with_rust(n) }
}

/// Counts `n` down to 0 (no overflow check: the subtraction wraps, and cannot at n > 0).
pub fn countdown(mut n: u32) -> u32 {
    let mut steps = 0u32;
    while n > 0 {
        n = n.wrapping_sub(1);
        steps = steps.wrapping_add(1);
    }
    steps
}

/// The sum of a slice (wrapping), through the slice's iterator.
pub fn sum_slice(values: &[u32]) -> u32 {
    let mut total = 0u32;
    for v in values {
        total = total.wrapping_add(*v);
    }
    total
}

/// The sum of a slice (wrapping), by index: each `values[i]` is bounds-checked (the panic
/// path ends the run) and `0..values.len()` steps through `Range::next`.
pub fn sum_indexed(values: &[u32]) -> u32 {
    let mut total = 0u32;
    for i in 0..values.len() {
        total = total.wrapping_add(values[i]);
    }
    total
}

/// The sum of a vector's elements (wrapping): the `Vec` behind the reference owns a buffer
/// of `capacity` elements of which the first `len` are read.
#[allow(clippy::ptr_arg, reason = "the example shows a `&Vec<u32>` parameter on purpose")]
pub fn sum_vec(values: &Vec<u32>) -> u32 {
    let mut total = 0u32;
    for v in values.iter() {
        total = total.wrapping_add(*v);
    }
    total
}

/// Collects 0, 1, …, n − 1 into a `Vec` with `push`, then sums it by index (wrapping): the
/// `Vec` owns its growing buffer (std's `RawVec::grow_one` and the `Vec`'s drop are linked
/// from the sysroot's bitcode), whose size stays `capacity · 4` bytes with `len ≤ capacity`.
pub fn sum_pushed(n: u32) -> u32 {
    let mut values: Vec<u32> = Vec::new();
    let mut i = 0;
    while i < n {
        values.push(i);
        i += 1;
    }
    let mut total = 0u32;
    let mut k = 0;
    while k < values.len() {
        total = total.wrapping_add(values[k]);
        k += 1;
    }
    total
}

/// Sums a vector's elements (wrapping) by index and resets each to 0: behind the `&mut` the
/// `Vec` owns a buffer of `capacity` elements (none when the capacity is 0), of which the
/// first `len` are read and written.
#[allow(clippy::ptr_arg, reason = "the example shows a `&mut Vec<u32>` parameter on purpose")]
pub fn drain_sum(values: &mut Vec<u32>) -> u32 {
    let mut total = 0u32;
    let mut k = 0;
    while k < values.len() {
        total = total.wrapping_add(values[k]);
        values[k] = 0;
        k += 1;
    }
    total
}

/// Appends 0, 1, …, n − 1 to the caller's vector: behind the `&mut` the `Vec` owns a buffer
/// of `capacity` elements (none when the capacity is 0) that a `push` without room moves to a
/// bigger heap block (std's `RawVec::grow_one`, linked from the sysroot's bitcode).
pub fn append_count(values: &mut Vec<u32>, n: u32) {
    let mut i = 0;
    while i < n {
        values.push(i);
        i += 1;
    }
}
