//! Harness for the end-to-end tests of `cargo-termcheck`: data-driven cases in `tests/cases/`,
//! expected-output files, bless mode, and checks of the output contract.
//!
//! The tests that use it live in `cargo-termcheck/tests/` because only there cargo provides
//! `CARGO_BIN_EXE_cargo-termcheck` and guarantees the binary is freshly built before the tests
//! run (a test here that looked for `target/<profile>/cargo-termcheck` could run a stale binary
//! under `cargo test -p termcheck-tests`, and calling cargo from a test risks the build lock).
//!
//! Case layout (see `tests/cases/README.md`): `NAME.EXT` is an input run as `prove NAME.EXT`
//! from its folder; `NAME.args` adds arguments (one per line) after it, or — without an input
//! file — is the whole argument list; `NAME.expected` holds what the output must start with.

pub mod all_functions;
pub mod case;
pub mod expectation;
pub mod generated_c;
pub mod invariants;
pub mod json_shape;
pub mod process;
pub mod real_exec;
pub mod rust_cases;
pub mod sarif;

pub use case::{discover_cases, Case};
pub use expectation::Expectation;
pub use process::{run_binary, Run};

/// `tests/cases/` of this repository.
pub fn cases_dir() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("cases")
}

/// True when `TERMCHECK_BLESS=1` asks the tests to rewrite the expected files.
pub fn bless_requested() -> bool {
    std::env::var("TERMCHECK_BLESS").is_ok_and(|v| v == "1")
}
