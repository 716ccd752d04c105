//! Executing termcheck's answers for real (issue #4): a C program is compiled with clang-22
//! (`-fno-finite-loops`) together with `tests/support/nondet_feed.c`, which answers every
//! `__VERIFIER_nondet_*` call from a [`Feed`], and run under wall-clock and step bounds.
//! A NO witness must keep running, a YES program must end on boundary and random inputs, a
//! memory-safety violation must make a sanitizer report ([`check`]). Used by
//! `cargo-termcheck/tests/real_execution.rs`.

pub mod answer;
pub mod check;
pub mod counted;
pub mod feed;
pub mod native;

pub use answer::Answer;
pub use check::{check_no_witness, check_terminates, check_violation};
pub use counted::{check_no_witness_counted, check_terminates_counted, check_violation_counted, LoopBounds};
pub use feed::{After, Feed, FeedValue};
pub use native::{Build, Ending, Native};

#[cfg(test)]
mod harness_tests;
