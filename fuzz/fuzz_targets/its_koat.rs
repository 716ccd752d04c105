//! Fuzz target: arbitrary bytes as a `.koat` integer transition system through `prove`.
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| termcheck_fuzz::prove_its(data, "koat"));
