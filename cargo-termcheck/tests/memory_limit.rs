//! `--memory-limit` end to end (issue 12): past the limit the answer is an honest MAYBE with
//! "memory limit of N MB reached" and exit code 0, for `prove`, `--format json` and
//! `--all-functions`; a program that used to blow memory up (500 nested `if`s: the bit-vector
//! region encoder grew by ~450 MB/s, then aborted with exit 134 under a cap) gets a verdict.

use std::path::Path;
use std::time::Duration;
use termcheck_tests::{cases_dir, invariants, run_binary};

fn run(dir: &Path, args: &[&str]) -> termcheck_tests::Run {
    let args: Vec<String> = args.iter().map(|s| s.to_string()).collect();
    run_binary(Path::new(env!("CARGO_BIN_EXE_cargo-termcheck")), dir, &args, Duration::from_secs(120))
}

fn programs() -> std::path::PathBuf {
    cases_dir().join("programs")
}

// A limit of 1 MB is below what the process needs to start: it is reached on the first sample,
// as any limit is reached by a program that blows memory up.
#[test]
fn a_reached_limit_is_a_maybe_with_its_reason_and_exit_0() {
    let r = run(&programs(), &["prove", "countdown.ll", "--memory-limit", "1", "--no-cache"]);
    invariants::check_human_contract(&r, false).unwrap_or_else(|e| panic!("{e}\n{r:?}"));
    assert_eq!(r.code, Some(0), "{r:?}");
    assert!(r.stdout.starts_with("MAYBE\n"), "{}", r.stdout);
    assert!(r.stdout.contains("reason: memory limit of 1 MB reached"), "{}", r.stdout);
}

#[test]
fn a_reached_limit_in_json_and_all_functions() {
    let r = run(&programs(), &["prove", "countdown.ll", "--memory-limit", "1", "--no-cache", "--format", "json"]);
    assert_eq!(r.code, Some(0), "{r:?}");
    let v: serde_json::Value = serde_json::from_str(r.stdout.trim()).unwrap_or_else(|e| panic!("{e}: {}", r.stdout));
    assert_eq!(v["verdict"], "MAYBE");
    assert_eq!(v["termination"]["reason"], "memory limit of 1 MB reached");
    let r = run(&programs(), &["prove", "countdown.ll", "--all-functions", "--memory-limit", "1", "--no-cache"]);
    assert_eq!(r.code, Some(0), "{r:?}");
    assert!(r.stdout.contains("memory limit of 1 MB reached"), "{}", r.stdout);
}

#[test]
fn no_limit_and_a_large_one_change_nothing() {
    let plain = run(&programs(), &["prove", "countdown.ll", "--no-cache", "--int-semantics", "math"]);
    assert!(plain.stdout.starts_with("YES\n"), "{}", plain.stdout);
    for limit in ["0", "100000"] {
        let r = run(&programs(), &["prove", "countdown.ll", "--memory-limit", limit, "--no-cache", "--int-semantics", "math"]);
        assert_eq!(r.code, Some(0), "{r:?}");
        assert!(r.stdout.starts_with("YES\n"), "limit {limit}: {}", r.stdout);
    }
}

#[test]
fn a_bad_limit_is_bad_input() {
    let r = run(&programs(), &["prove", "countdown.ll", "--memory-limit", "lots"]);
    assert_eq!(r.code, Some(2), "{r:?}");
}

#[test]
fn five_hundred_nested_ifs_get_a_verdict() {
    let dir = tempfile::tempdir().unwrap();
    let mut text = String::from("extern int __VERIFIER_nondet_int(void);\nint main(void) { int x = __VERIFIER_nondet_int(); int y = 0;\n");
    for i in 0..500 {
        text.push_str(&format!("if (x > {i}) {{ y = y + {};\n", i % 7));
    }
    text.push_str(&"}".repeat(500));
    text.push_str("\nwhile (y > 0) y--; return y; }\n");
    std::fs::write(dir.path().join("nested.c"), text).unwrap();
    let r = run(dir.path(), &["prove", "nested.c", "--timeout", "20", "--memory-limit", "3000", "--no-cache", "--int-semantics", "c"]);
    invariants::check_human_contract(&r, false).unwrap_or_else(|e| panic!("{e}\n{r:?}"));
    assert_eq!(r.code, Some(0), "{r:?}");
}

/// Workspace mode: after the memory limit stopped one target, no further target is started
/// (the stopped analysis thread cannot be ended and still holds the memory; the run ends, and
/// the thread with it). A package with a lib and a bin target is two targets; with a limit of
/// 1 MB the first is stopped (while linking), the second is reported as not started instead
/// of being stopped again.
#[test]
fn in_workspace_mode_no_target_starts_after_the_limit() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("Cargo.toml"), "[package]\nname = \"twotargets\"\nversion = \"0.1.0\"\nedition = \"2021\"\n\n[workspace]\n").unwrap();
    std::fs::create_dir(dir.path().join("src")).unwrap();
    std::fs::write(dir.path().join("src/lib.rs"), "pub fn down(mut n: u32) -> u32 { while n > 0 { n -= 1; } n }\n").unwrap();
    std::fs::write(dir.path().join("src/main.rs"), "fn main() { std::process::exit(twotargets::down(3) as i32) }\n").unwrap();
    let args = ["termcheck", "--no-cache", "--memory-limit", "1"].map(str::to_string);
    let r = run_binary(Path::new(env!("CARGO_BIN_EXE_cargo-termcheck")), dir.path(), &args, Duration::from_secs(600));
    assert!(!r.killed, "{r:?}");
    assert_eq!(r.stderr.matches("memory limit of 1 MB reached").count(), 1, "exactly one target is stopped: {r:?}");
    assert!(!r.stderr.contains("panicked"), "{r:?}");
}
