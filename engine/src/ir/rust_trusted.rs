//! Trusted summaries of std/core/alloc functions whose code is not in a crate's bitcode
//! (ARCHITECTURE.md, "Rust semantics", trusted external summaries). An entry may only state
//! what holds for every input of the function, and the consumers model it exactly as stated.
//!
//! Today every entry is a function that never returns: it ends in a panic or in
//! `handle_alloc_error`, so a call starts unwinding (`External::Panic { unwinds: true }`:
//! the conservative choice, since exploring cleanup code that an abort would skip only adds
//! runs). Such a call needs no memory effect: the caller's code after it never runs, and the
//! cleanup code it unwinds into is analysed like any other code. Functions that return and
//! write memory (`RawVec::grow_one`, `finish_grow`, `alloc::fmt::format`) have no entry:
//! their effect on the caller's memory (a reallocated buffer, a new `String`) cannot be stated
//! as a havoc of the cells they write without losing the facts a proof needs, and stating less
//! would be wrong. Their own code is linked from the sysroot's bitcode instead
//! (`frontend::std_bitcode`); where it cannot be (another toolchain's sysroot, no bitcode),
//! they stay "unknown external function". An entry here wins over std's code: a function
//! listed is never linked, so its summary applies.

/// A function by its demangled path (crate first), with why it never returns.
pub struct Diverging {
    pub path: &'static [&'static str],
    pub why: &'static str,
}

/// The table: functions that never return normally.
pub const DIVERGING: &[Diverging] = &[
    Diverging { path: &["core", "option", "unwrap_failed"], why: "`Option::unwrap` on `None`: `panic(\"called `Option::unwrap()` on a `None` value\")`" },
    Diverging { path: &["core", "option", "expect_failed"], why: "`Option::expect` on `None`: `panic_display(msg)`" },
    Diverging { path: &["core", "result", "unwrap_failed"], why: "`Result::unwrap`/`expect` on the wrong variant: `panic!(\"{msg}: {error:?}\")`" },
    Diverging { path: &["core", "slice", "index", "slice_start_index_len_fail"], why: "slice range start beyond the length: a `panic!` in every build" },
    Diverging { path: &["core", "slice", "index", "slice_end_index_len_fail"], why: "slice range end beyond the length: a `panic!` in every build" },
    Diverging { path: &["core", "slice", "index", "slice_index_order_fail"], why: "slice range start after its end: a `panic!` in every build" },
    Diverging { path: &["core", "str", "slice_error_fail"], why: "`str` slicing off a char boundary: a `panic!`" },
    Diverging { path: &["alloc", "raw_vec", "capacity_overflow"], why: "`Vec` capacity beyond `isize::MAX` bytes: `panic!(\"capacity overflow\")`" },
    Diverging { path: &["alloc", "raw_vec", "handle_error"], why: "`RawVec`'s allocation error: `capacity_overflow()` or `handle_alloc_error(layout)`, both `-> !`" },
];

/// The entry for `path`, if any.
pub fn diverging(path: &[&str]) -> Option<&'static Diverging> {
    DIVERGING.iter().find(|d| d.path == path)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_entry_is_justified_and_listed_once() {
        for (i, d) in DIVERGING.iter().enumerate() {
            assert!(d.path.len() >= 2 && ["core", "alloc", "std"].contains(&d.path[0]), "{:?}", d.path);
            assert!(!d.why.trim().is_empty(), "{:?} without justification", d.path);
            assert!(DIVERGING[..i].iter().all(|e| e.path != d.path), "{:?} twice", d.path);
        }
        assert!(diverging(&["alloc", "raw_vec", "handle_error"]).is_some());
        assert!(diverging(&["alloc", "raw_vec", "grow_one"]).is_none());
    }
}
