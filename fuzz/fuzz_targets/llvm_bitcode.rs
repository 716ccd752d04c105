//! Fuzz target: arbitrary bytes as a `.bc` file through the front end and the pipeline; first
//! through the producer check alone (`frontend::linking::check_producer`: the identification
//! block reader that also reads workspace bitcode and the std-bitcode cache's files back before
//! any LLVM parser or `opt-22` check sees them).
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let file = termcheck_fuzz::temp_file(data, "bc");
    let _ = termcheck_engine::frontend::linking::check_producer(file.path(), data);
    termcheck_fuzz::prove_program(file.path());
});
