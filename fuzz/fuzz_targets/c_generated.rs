//! Fuzz target: C programs made by the differential check's generator from the fuzzer's bytes,
//! through clang, the front end and the pipeline.
#![no_main]
use libfuzzer_sys::fuzz_target;
use termcheck_fuzz::generated_c::{program, FromBytes};

fuzz_target!(|data: &[u8]| {
    let text = program(&mut FromBytes::new(data));
    let file = termcheck_fuzz::temp_file(text.as_bytes(), "c");
    termcheck_fuzz::prove_program(file.path());
});
