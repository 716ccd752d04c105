//! Shared driving code of the fuzz targets: write the input where the product reads it from
//! (a file with the right extension) and run the real entry point under a small budget.

use std::io::Write;
use std::path::Path;
use std::time::Duration;
use termcheck_engine::analysis::{analyze_module, FunctionSelection};
use termcheck_engine::config::Config;
use termcheck_engine::verdict::IntSemantics;

/// The policy parser of the CLI, compiled in from its source (the CLI is a binary crate).
#[path = "../../cargo-termcheck/src/policy/mod.rs"]
#[allow(dead_code, unused_imports)]
pub mod policy;

/// Wall-clock budget of one fuzzed analysis: small, so that libFuzzer's `-timeout` (seconds)
/// only fires when the engine overruns its deadline.
pub const ANALYSIS_BUDGET: Duration = Duration::from_millis(300);

/// A small-budget configuration (one thread) for fuzzed analyses.
pub fn config() -> Config {
    Config::new(IntSemantics::C, ANALYSIS_BUDGET)
}

/// `bytes` in a fresh temporary file ending in `.ext` (kept alive by the returned guard).
pub fn temp_file(bytes: &[u8], ext: &str) -> tempfile::NamedTempFile {
    let mut file = tempfile::Builder::new().prefix("termcheck-fuzz-").suffix(&format!(".{ext}")).tempfile().expect("temporary file");
    file.write_all(bytes).expect("write temporary file");
    file.flush().expect("flush temporary file");
    file
}

/// `prove FILE`'s path for one ITS file: parse, then the termination back end.
pub fn prove_its(bytes: &[u8], ext: &str) {
    let file = temp_file(bytes, ext);
    let _ = termcheck_engine::driver::prove_file(file.path(), "main", &config());
}

/// `prove --all-functions FILE`'s path for one program: load (front end), then every defined
/// function through the pipeline.
pub fn prove_program(path: &Path) {
    if let Ok(module) = termcheck_engine::driver::load_program(path) {
        let _ = analyze_module(&module, &config(), &FunctionSelection::AllDefined);
    }
}

/// The random C program generator of the differential check, compiled in from its source
/// (the test crate's other dependencies are not needed here).
#[path = "../../tests/src/generated_c/mod.rs"]
pub mod generated_c;
