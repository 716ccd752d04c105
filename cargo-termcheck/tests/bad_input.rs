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

#[test]
fn all_functions_on_an_integer_transition_system_is_a_usage_error() {
    for file in ["../its/countdown.smt2", "../its/countdown-koat.koat"] {
        let stderr = rejected(file, &["--all-functions"]);
        assert!(stderr.contains("termcheck::input::not_a_program"), "{stderr}");
        assert!(stderr.contains("integer transition system") && stderr.contains(file), "{stderr}");
        assert!(stderr.contains("--all-functions needs a program"), "{stderr}");
    }
}

/// A fresh, empty folder under the system's temporary directory for one test.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("termcheck-bad-input-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("create a scratch folder");
    dir
}

#[test]
fn a_directory_is_not_reported_as_missing() {
    let dir = scratch("dir");
    let input = dir.join("program.c");
    std::fs::create_dir(&input).expect("mkdir");
    let stderr = rejected(input.to_str().unwrap(), &[]);
    assert!(stderr.contains("termcheck::input::not_a_file") && stderr.contains("is a directory"), "{stderr}");
    assert!(!stderr.contains("no such file"), "{stderr}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_fifo_is_rejected_without_blocking() {
    let dir = scratch("fifo");
    for name in ["pipe.c", "pipe.koat"] {
        let input = dir.join(name);
        assert!(Command::new("mkfifo").arg(&input).status().expect("mkfifo").success());
        // With no writer, opening the FIFO would block: run under a kill limit, not `output()`.
        let args = vec!["prove".to_string(), input.to_string_lossy().into_owned()];
        let run = termcheck_tests::run_binary(
            Path::new(env!("CARGO_BIN_EXE_cargo-termcheck")),
            &dir,
            &args,
            std::time::Duration::from_secs(20),
        );
        assert!(!run.killed, "blocked on the FIFO");
        assert_eq!(run.code, Some(2), "{run:?}");
        assert!(run.stdout.is_empty(), "{run:?}");
        assert!(run.stderr.contains("termcheck::input::not_a_file") && run.stderr.contains("named pipe (FIFO)"), "{run:?}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_symlink_loop_says_so() {
    let dir = scratch("loop");
    let (a, b) = (dir.join("a.c"), dir.join("b.c"));
    std::os::unix::fs::symlink(&b, &a).expect("symlink");
    std::os::unix::fs::symlink(&a, &b).expect("symlink");
    for args in [&[][..], &["--all-functions"][..]] {
        let stderr = rejected(a.to_str().unwrap(), args);
        assert!(stderr.contains("termcheck::io") && stderr.contains("too many levels of symbolic links"), "{stderr}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn koat_start_symbol_and_arity_errors_name_the_symbol_and_line() {
    let stderr = rejected("koat-missing-start.koat", &[]);
    assert!(stderr.contains("termcheck::its::parse"), "{stderr}");
    assert!(stderr.contains("koat-missing-start.koat:4:") && stderr.contains("start symbol `main`"), "{stderr}");
    let stderr = rejected("koat-arity-mismatch.koat", &[]);
    assert!(stderr.contains("koat-arity-mismatch.koat:8:") && stderr.contains("`loop` has 1 argument(s) here but 2 at line 7"), "{stderr}");
}

#[test]
fn huge_literals_are_out_of_range_not_unknown_symbols() {
    for (file, line) in [("smt2-huge-literal.smt2", 27), ("koat-huge-literal.koat", 6)] {
        let stderr = rejected(file, &[]);
        assert!(stderr.contains("termcheck::its::parse") && stderr.contains(&format!("{file}:{line}:")), "{stderr}");
        assert!(stderr.contains("integer literal out of range (100 digits"), "{stderr}");
        assert!(!stderr.contains("unknown symbol"), "{stderr}");
    }
}

/// A mutated `.bc` made LLVM's bitcode reader abort the whole process ("LLVM ERROR: out of
/// memory", exit 134, found by the llvm_bitcode fuzz target); the front end now parses
/// untrusted bitcode in an `opt-22` child first, so the abort is an error with exit 2.
#[test]
fn bitcode_that_aborts_llvms_reader_is_malformed_input_not_a_crash() {
    let stderr = rejected("bitcode-reader-out-of-memory.bc", &["--no-cache"]);
    assert!(stderr.contains("termcheck::frontend::llvm"), "{stderr}");
    assert!(stderr.contains("bitcode reader aborted") && stderr.contains("out of memory"), "{stderr}");
    assert!(!stderr.contains("Stack dump"), "LLVM's crash report leaked: {stderr}");
}
