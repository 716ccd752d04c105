//! Fuzz target: arbitrary bytes as a `.bc` file through the front end and the pipeline.
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let file = termcheck_fuzz::temp_file(data, "bc");
    termcheck_fuzz::prove_program(file.path());
});
