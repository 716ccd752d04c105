// Pushes `n` elements through a `&mut Vec<u32>` (std's `RawVec::grow_one` linked from the
// sysroot's bitcode reallocates the caller's buffer, or allocates one when `cap = 0`).
// Today MAYBE: the merges keep the moved buffer (`cap · 4` bytes, `len ≤ cap`), but the push
// loop's generalization does not settle within the merge limit (or the time) — a known
// limitation (BENCHMARKS.md, "Session 9: product"), never NO and never a violation.
#[no_mangle]
pub fn vec_mut_push(v: &mut Vec<u32>, n: u32) {
    let mut i = 0;
    while i < n {
        v.push(i);
        i += 1;
    }
}
