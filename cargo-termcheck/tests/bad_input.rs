//! Bad input is rejected with exit code 2 and a message that helps: the diagnostic code, the
//! position of the problem, and a hint. (The data-driven cases pin the first message line; this
//! checks the parts after it, e.g. clang's own diagnostics.)

use std::path::{Path, PathBuf};
use std::process::Command;

fn bad_input_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/cases/bad-input")
}

/// Runs `prove FILE extra…` in the bad-input folder; returns stderr after checking exit code 2
/// and an empty stdout.
fn rejected(file: &str, extra: &[&str]) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_cargo-termcheck"))
        .arg("prove")
        .arg(file)
        .args(extra)
        .current_dir(bad_input_dir())
        .env("NO_COLOR", "1")
        .output()
        .expect("run the binary");
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert_eq!(out.status.code(), Some(2), "{file}: {stderr}");
    assert!(out.stdout.is_empty(), "{file}: stdout {:?}", String::from_utf8_lossy(&out.stdout));
    stderr
}

#[test]
fn missing_file_says_so_with_a_hint() {
    let stderr = rejected("does-not-exist.c", &[]);
    assert!(stderr.contains("termcheck::io") && stderr.contains("does-not-exist.c"), "{stderr}");
    assert!(stderr.contains("help:"), "{stderr}");
}

#[test]
fn unsupported_extension_lists_the_accepted_ones() {
    let stderr = rejected("unsupported-extension.txt", &[]);
    assert!(stderr.contains("termcheck::input::extension"), "{stderr}");
    for ext in [".c", ".ll", ".bc", ".smt2", ".koat"] {
        assert!(stderr.contains(ext), "{ext} missing: {stderr}");
    }
}

#[test]
fn c_syntax_errors_show_clangs_diagnostics_with_positions() {
    let stderr = rejected("syntax-error.c", &[]);
    assert!(stderr.contains("termcheck::frontend::clang"), "{stderr}");
    assert!(stderr.contains("syntax-error.c:3:"), "clang's position missing: {stderr}");
    assert!(stderr.contains("error:"), "clang's error line missing: {stderr}");
}

#[test]
fn malformed_llvm_points_at_the_bad_line() {
    let stderr = rejected("malformed.ll", &[]);
    assert!(stderr.contains("termcheck::frontend::llvm"), "{stderr}");
    assert!(stderr.contains("malformed.ll:3:"), "{stderr}");
}

#[test]
fn a_missing_entry_names_it_and_suggests_the_option() {
    let stderr = rejected("missing-entry.c", &["--entry", "no_such_function"]);
    assert!(stderr.contains("termcheck::input::entry") && stderr.contains("no_such_function"), "{stderr}");
    assert!(stderr.contains("--entry"), "{stderr}");
}

#[test]
fn malformed_its_gives_line_and_column() {
    let stderr = rejected("its-parse-error.smt2", &[]);
    assert!(stderr.contains("termcheck::its::parse"), "{stderr}");
    assert!(stderr.contains("its-parse-error.smt2:2:"), "{stderr}");
}
