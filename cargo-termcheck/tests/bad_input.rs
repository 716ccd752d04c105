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

/// Every input kind, empty or binary garbage: exit 2 with the kind's own diagnostic code, never
/// a panic (exit 101) or a verdict. (Session 9's bad-input review.)
#[test]
fn empty_and_garbage_inputs_of_every_kind_are_rejected_with_their_code() {
    let dir = scratch("garbage");
    // Fixed "random" bytes (a xorshift stream), not valid UTF-8 and without bitcode magic.
    let mut x: u32 = 0x9e37_79b9;
    let garbage: Vec<u8> = (0..3000)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 17;
            x ^= x << 5;
            (x >> 24) as u8 | 0x80
        })
        .collect();
    let cases: [(&str, &[u8], &str); 9] = [
        ("empty.c", b"", "termcheck::input::entry"),
        ("empty.ll", b"", "termcheck::input::entry"),
        ("empty.bc", b"", "termcheck::frontend::llvm"),
        ("empty.smt2", b"", "termcheck::its::parse"),
        ("empty.koat", b"", "termcheck::its::parse"),
        ("garbage.c", &garbage, "termcheck::frontend::clang"),
        ("garbage.ll", &garbage, "termcheck::frontend::llvm"),
        ("garbage.smt2", &garbage, "termcheck::its::parse"),
        ("garbage.koat", &garbage, "termcheck::its::parse"),
    ];
    for (name, bytes, code) in cases {
        let input = dir.join(name);
        std::fs::write(&input, bytes).expect("write the input");
        let stderr = rejected(input.to_str().unwrap(), &["--no-cache"]);
        assert!(stderr.contains(code), "{name}: {stderr}");
    }
    // Bytes that are not text in an ITS file: where, not "check that the file exists".
    let stderr = rejected(dir.join("garbage.koat").to_str().unwrap(), &["--no-cache"]);
    assert!(stderr.contains("garbage.koat:1:1: not UTF-8 text (byte 0x") && !stderr.contains("check that the file exists"), "{stderr}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// A malformed input's own text is quoted in its diagnostic (LLVM's source line, the ITS
/// parser's unexpected character): its escape sequences and bells reach the terminal escaped,
/// never as control characters (they could recolour, retitle or clear it).
#[test]
fn control_characters_of_a_malformed_input_are_escaped_in_the_diagnostic() {
    let dir = scratch("control");
    let ll = dir.join("esc.ll");
    std::fs::write(&ll, "define i32 @main() {\n  \u{1b}[31mRED\u{1b}]0;title\u{7} ret i32 0\n}\n").expect("write");
    let koat = dir.join("esc.koat");
    std::fs::write(&koat, "(GOAL COMPLEXITY)\n(STARTTERM (FUNCTIONSYMBOLS f\u{1b}[2J))\n").expect("write");
    for (input, extra, code) in [(&ll, &[][..], "termcheck::frontend::llvm"), (&ll, &["--all-functions"][..], "termcheck::frontend::llvm"), (&koat, &[][..], "termcheck::its::parse")] {
        let stderr = rejected(input.to_str().unwrap(), extra);
        assert!(stderr.contains(code), "{stderr}");
        assert!(stderr.contains("\\u{1b}"), "the escape is shown escaped: {stderr}");
        assert!(!stderr.contains('\u{1b}') && !stderr.contains('\u{7}'), "a control character reached the terminal: {stderr:?}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// Workspace mode with a bad policy: a malformed termcheck.toml, a `--config` that names a
/// directory or bytes that are not text: exit 2 with the `config` code, before any build.
#[test]
fn a_bad_policy_file_stops_workspace_mode_with_exit_2_before_the_build() {
    let dir = scratch("policy");
    std::fs::write(dir.join("Cargo.toml"), "[package]\nname = \"policy_probe\"\nversion = \"0.1.0\"\nedition = \"2021\"\n\n[workspace]\n").expect("write");
    std::fs::create_dir_all(dir.join("src")).expect("mkdir");
    std::fs::write(dir.join("src/lib.rs"), "pub fn f() -> u32 { 1 }\n").expect("write");
    std::fs::write(dir.join("termcheck.toml"), "[checks\ntimeout = \"deny\"\n").expect("write");
    std::fs::write(dir.join("binary.toml"), [0xffu8, 0xfe, 0x00, 0x1b, 0x80]).expect("write");
    std::fs::create_dir_all(dir.join("a-directory.toml")).expect("mkdir");
    let cases: [(&[&str], &str); 3] = [(&[], "termcheck::config::syntax"), (&["--config", "binary.toml"], "termcheck::config::"), (&["--config", "a-directory.toml"], "termcheck::config::read")];
    for (args, code) in cases {
        let mut argv = vec!["--no-cache".to_string()];
        argv.extend(args.iter().map(|a| a.to_string()));
        let run = termcheck_tests::run_binary(Path::new(env!("CARGO_BIN_EXE_cargo-termcheck")), &dir, &argv, std::time::Duration::from_secs(120));
        assert_eq!(run.code, Some(2), "{args:?}: {run:?}");
        assert!(run.stderr.contains(code), "{args:?}: {}", run.stderr);
        assert!(!run.stderr.contains("panicked"), "{args:?}: {}", run.stderr);
        assert!(!dir.join("target").exists(), "{args:?}: a build started before the policy was read");
    }
    let _ = std::fs::remove_dir_all(&dir);
}
