//! `prove --emit-harness`: the generated C harness replays NO and `violated` witnesses
//! natively (built with clang-22 like docs/output-format.md says, run under a time limit).

use std::path::Path;
use std::process::Command;
use std::time::Duration;
use termcheck_tests::{run_binary, Run};

fn prove(dir: &Path, file: &str, extra: &[&str]) -> Run {
    let mut args: Vec<String> = ["prove", file, "--timeout", "40", "--no-cache", "--emit-harness", "harness.c"].iter().map(|s| s.to_string()).collect();
    args.extend(extra.iter().map(|s| s.to_string()));
    run_binary(Path::new(env!("CARGO_BIN_EXE_cargo-termcheck")), dir, &args, Duration::from_secs(90))
}

/// Builds `file` with the harness (renamed `main`, as documented); `sanitize` adds ASan/UBSan.
fn build(dir: &Path, file: &str, sanitize: bool) {
    let clang = termcheck_engine::frontend::find_clang().expect("clang-22");
    let mut cmd = Command::new(clang);
    cmd.current_dir(dir).args(["-O0", "-g", "-fno-finite-loops", "-w", "-Dmain=__termcheck_program_main", file, "harness.c", "-o", "replay"]);
    if sanitize {
        cmd.args(["-fsanitize=address,undefined", "-fno-sanitize-recover=all"]);
    }
    let out = cmd.output().expect("clang runs");
    assert!(out.status.success(), "the harness does not build: {}", String::from_utf8_lossy(&out.stderr));
}

fn replay(dir: &Path, limit: Duration) -> Run {
    run_binary(&dir.join("replay"), dir, &[], limit)
}

fn write(dir: &Path, name: &str, text: &str) {
    std::fs::write(dir.join(name), text).expect("write");
}

#[test]
fn a_no_with_entry_arguments_replays_as_a_run_that_does_not_end() {
    let dir = tempfile::tempdir().expect("temp dir");
    write(dir.path(), "spin.c", "int spin(int n) {\n  int x = n;\n  while (x > 0) {\n    if (x != 5) x--;\n  }\n  return 0;\n}\n");
    let r = prove(dir.path(), "spin.c", &["--entry", "spin"]);
    assert_eq!(r.stdout.lines().next(), Some("NO"), "{r:?}");
    assert!(r.stdout.contains("entry arguments:\n    n = "), "{r:?}");
    build(dir.path(), "spin.c", false);
    let run = replay(dir.path(), Duration::from_secs(2));
    assert!(run.killed, "the replay ended: {run:?}");
}

#[test]
fn a_violation_with_entry_arguments_replays_under_the_sanitizer() {
    let dir = tempfile::tempdir().expect("temp dir");
    write(dir.path(), "store.c", "int store(int i) {\n  int a[4] = {0};\n  if (i >= 0 && i <= 4) a[i] = 1;\n  return a[0];\n}\n");
    let r = prove(dir.path(), "store.c", &["--entry", "store"]);
    assert!(r.stdout.lines().nth(1) == Some("memory-safety: violated"), "{r:?}");
    assert!(r.stdout.contains("entry arguments:\n    i = 4"), "{r:?}");
    build(dir.path(), "store.c", true);
    let run = replay(dir.path(), Duration::from_secs(20));
    assert_ne!(run.code, Some(0), "{run:?}");
    assert!(run.stderr.contains("AddressSanitizer") || run.stderr.contains("runtime error: index 4 out of bounds"), "{run:?}");
}

#[test]
fn a_no_with_nondeterministic_inputs_feeds_them_and_their_cycle() {
    let dir = tempfile::tempdir().expect("temp dir");
    write(
        dir.path(),
        "wait.c",
        "extern int __VERIFIER_nondet_int(void);\nint main(void) {\n  int go = __VERIFIER_nondet_int();\n  while (go == 7) { go = __VERIFIER_nondet_int(); }\n  return 0;\n}\n",
    );
    let r = prove(dir.path(), "wait.c", &[]);
    assert_eq!(r.stdout.lines().next(), Some("NO"), "{r:?}");
    build(dir.path(), "wait.c", false);
    let run = replay(dir.path(), Duration::from_secs(2));
    assert!(run.killed, "the replay ended: {run:?}");
}

#[test]
fn no_harness_without_a_witness() {
    let dir = tempfile::tempdir().expect("temp dir");
    write(dir.path(), "ok.c", "int main(void) { int i = 0; while (i < 10) i++; return 0; }\n");
    let r = prove(dir.path(), "ok.c", &[]);
    assert_eq!(r.code, Some(0), "{r:?}");
    assert!(r.stderr.contains("no harness written: the verdict has no witness"), "{r:?}");
    assert!(!dir.path().join("harness.c").exists());
}

/// `spin_on(a, n)` loops forever while `a[0] > 0` and reads `a[0]` (so a block too small for
/// it is a violation): the report has both witnesses, each with the block `a` points to.
const SPIN_ON: &str = "int spin_on(int *a, int n) {\n  int steps = 0;\n  while (a[0] > 0) {\n    steps = steps + 0;\n  }\n  return steps + n;\n}\n";

#[test]
fn a_no_with_a_pointer_entry_gives_the_initial_memory_and_replays_it() {
    let dir = tempfile::tempdir().expect("temp dir");
    write(dir.path(), "spin_on.c", SPIN_ON);
    let r = prove(dir.path(), "spin_on.c", &["--entry", "spin_on", "--harness-of", "nontermination"]);
    assert_eq!(r.stdout.lines().next(), Some("NO"), "{r:?}");
    let witness = r.stdout.split("memory-safety violation:").next().unwrap_or("");
    assert!(witness.contains("entry memory (blocks the pointer arguments point to, each allocated by the caller):\n    a = pointer to element 0 of a "), "{r:?}");
    let harness = std::fs::read_to_string(dir.path().join("harness.c")).expect("harness written");
    assert!(harness.contains("malloc(") && harness.contains("spin_on(/* a */ block0 + 0"), "{harness}");
    build(dir.path(), "spin_on.c", false);
    let run = replay(dir.path(), Duration::from_secs(2));
    assert!(run.killed, "the replay ended: {run:?}");
}

#[test]
fn a_violation_with_a_pointer_entry_replays_its_block_under_the_sanitizer() {
    let dir = tempfile::tempdir().expect("temp dir");
    write(dir.path(), "fill.c", "void fill(int *a, int n) {\n  for (int i = 0; i <= n; i++) {\n    a[i] = 7;\n  }\n}\n");
    let r = prove(dir.path(), "fill.c", &["--entry", "fill", "--format", "json"]);
    let v: serde_json::Value = serde_json::from_str(r.stdout.trim()).expect("JSON");
    assert_eq!(v["memory_safety"], "violated", "{r:?}");
    let block = &v["memory"]["entry_memory"][0];
    assert_eq!((block["param"].as_str(), block["index"].as_u64(), block["offset"].as_u64(), block["element_size"].as_u64()), (Some("a"), Some(0), Some(0), Some(4)), "{r:?}");
    assert_eq!(block["bytes"].as_array().map(Vec::len), block["size"].as_u64().map(|s| s as usize), "{r:?}");
    build(dir.path(), "fill.c", true);
    let run = replay(dir.path(), Duration::from_secs(20));
    assert_ne!(run.code, Some(0), "{run:?}");
    assert!(run.stderr.contains("AddressSanitizer: heap-buffer-overflow"), "{run:?}");
}
