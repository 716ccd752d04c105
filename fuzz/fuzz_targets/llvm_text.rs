//! Fuzz target: arbitrary bytes as an `.ll` file through the front end and the pipeline.
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let file = termcheck_fuzz::temp_file(data, "ll");
    termcheck_fuzz::prove_program(file.path());
});
