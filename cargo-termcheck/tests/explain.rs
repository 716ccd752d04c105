//! `cargo termcheck explain [CODE]`: the paragraph of a stable diagnostic code, or the table of all.

use std::process::{Command, Output};

fn run(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_cargo-termcheck")).args(args).env("NO_COLOR", "1").output().expect("run the binary")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

#[test]
fn a_known_code_is_explained_in_every_spelling() {
    for code in ["termcheck::config::unknown_key", "unknown_key", "unknown-key"] {
        let out = run(&["termcheck", "explain", code]);
        assert_eq!(out.status.code(), Some(0), "{code}");
        let stdout = text(&out.stdout);
        assert!(stdout.starts_with("termcheck::config::unknown_key: "), "{stdout}");
        assert!(stdout.contains("docs/policy.md"), "{stdout}");
    }
    let out = run(&["explain", "non-termination"]);
    assert!(text(&out.stdout).starts_with("termcheck::check::non_termination: non-termination proven"), "{}", text(&out.stdout));
}

#[test]
fn without_a_code_every_code_is_listed() {
    let out = run(&["explain"]);
    assert_eq!(out.status.code(), Some(0));
    let table = text(&out.stdout);
    for code in ["termcheck::io", "termcheck::config::syntax", "termcheck::check::unused_allow"] {
        assert!(table.lines().any(|l| l.starts_with(code)), "{code} missing from:\n{table}");
    }
}

#[test]
fn an_unknown_code_is_a_usage_error() {
    let out = run(&["explain", "termcheck::no_such_code"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(out.stdout.is_empty());
    assert!(text(&out.stderr).contains("unknown diagnostic code `termcheck::no_such_code`"), "{}", text(&out.stderr));
}
