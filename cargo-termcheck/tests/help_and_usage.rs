//! The top-level help, `cargo termcheck` invocation style and usage errors.

use std::path::Path;
use std::process::{Command, Output};

fn run(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_cargo-termcheck")).args(args).env("NO_COLOR", "1").output().expect("run the binary")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

#[test]
fn help_documents_the_contract_and_workspace_mode() {
    for args in [&["--help"][..], &["termcheck", "--help"][..]] {
        let out = run(args);
        assert_eq!(out.status.code(), Some(0), "{args:?}");
        let help = text(&out.stdout);
        assert!(help.contains("prove"), "{help}");
        assert!(help.contains("Workspace mode"), "{help}");
        assert!(help.contains("Exit codes"), "{help}");
        // cargo's package-selection flags, forwarded in workspace mode.
        for flag in ["--package", "--workspace", "--exclude", "--features", "--all-features", "--no-default-features", "--manifest-path", "--target-dir", "--locked", "--offline", "--frozen"] {
            assert!(help.contains(flag), "`{flag}` missing from:\n{help}");
        }
    }
}

#[test]
fn prove_help_lists_every_option_with_its_default() {
    let help = text(&run(&["prove", "--help"]).stdout);
    for needle in ["--entry", "[default: main]", "--timeout", "[default: 60]", "--int-semantics", "[default: c]", "--format", "[default: human]", "wrap", "math", "json", "--all-functions", "--function-timeout", "--jobs", "[default: the machine's cores]"] {
        assert!(help.contains(needle), "`{needle}` missing from:\n{help}");
    }
}

#[test]
fn workspace_options_with_a_subcommand_are_a_usage_error() {
    let out = run(&["-p", "a", "prove", "x.c"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("Usage: cargo termcheck"), "{}", text(&out.stderr));
}

#[test]
fn version_is_printed() {
    let out = run(&["--version"]);
    assert_eq!(out.status.code(), Some(0));
    assert!(text(&out.stdout).starts_with("cargo-termcheck "), "{}", text(&out.stdout));
}

#[test]
fn a_bad_log_filter_warns_but_does_not_fail_the_run() {
    let missing = Path::new(env!("CARGO_MANIFEST_DIR")).join("no-such-input.c");
    let out = Command::new(env!("CARGO_BIN_EXE_cargo-termcheck"))
        .args(["prove", missing.to_str().unwrap()])
        .env("TERMCHECK_LOG", "=[")
        .env("NO_COLOR", "1")
        .output()
        .unwrap();
    // The run still fails for the real reason (missing file), with the warning on stderr.
    assert_eq!(out.status.code(), Some(2));
    let stderr = text(&out.stderr);
    assert!(stderr.contains("ignoring TERMCHECK_LOG"), "{stderr}");
    assert!(stderr.contains("termcheck::io"), "{stderr}");
}
