//! Workspace mode end to end through the real binary: `cargo termcheck` on the bundled
//! example `examples/ffi-basic` (Rust + C through the `cc` crate, calls in both directions)
//! must give the C functions' verdicts of its EXPECTED.md and exit 1; `examples/ffi-second`'s
//! source annotations must act as allow entries; a workspace that does
//! not build exits 101 with cargo's error; bad arguments exit 2. Each run builds into its own
//! temporary target directory.

use std::path::{Path, PathBuf};
use std::time::Duration;
use termcheck_tests::{run_binary, Run};

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().expect("repository root").to_path_buf()
}

fn termcheck(dir: &Path, args: &[&str]) -> Run {
    termcheck_within(dir, args, Duration::from_secs(240))
}

/// A run that may take `limit` (a guard against hangs, not a speed target: building an
/// example's proc-macro dependencies from scratch takes minutes on a loaded machine).
fn termcheck_within(dir: &Path, args: &[&str], limit: Duration) -> Run {
    let args: Vec<String> = std::iter::once("termcheck").chain(args.iter().copied()).map(str::to_string).collect();
    run_binary(Path::new(env!("CARGO_BIN_EXE_cargo-termcheck")), dir, &args, limit)
}

/// The line of `function` in the human output: `  VERDICT memory-safety: WORD NAME (LOCATION)`.
fn verdict_of<'a>(stdout: &'a str, function: &str) -> Option<(&'a str, &'a str)> {
    stdout.lines().find_map(|line| {
        let mut words = line.split_whitespace();
        let verdict = words.next()?;
        (words.next()? == "memory-safety:").then_some(())?;
        let memory = words.next()?;
        (words.next()? == function).then_some((verdict, memory))
    })
}

/// `cargo termcheck` on a bundled example (`examples/NAME`) into `target`, with the usual
/// analysis flags (no cache, 10 s per function, 2 jobs) and `extra`.
fn check_example(name: &str, target: &Path, extra: &[&str]) -> Run {
    let manifest = repo().join("examples").join(name).join("Cargo.toml");
    let mut args = vec!["--manifest-path", manifest.to_str().unwrap(), "--target-dir", target.to_str().unwrap(), "--locked"];
    args.extend(["--no-cache", "--jobs", "2"]);
    // 10 s per function unless the test gives its own budget
    if !extra.contains(&"--function-timeout") {
        args.extend(["--function-timeout", "10"]);
    }
    args.extend(extra);
    termcheck_within(&repo(), &args, Duration::from_secs(900))
}

/// The JSON lines of a run.
fn json_lines(run: &Run) -> Vec<serde_json::Value> {
    run.stdout.lines().map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}"))).collect()
}

#[test]
fn ffi_basic_gives_the_expected_verdicts_and_fails_the_gate() {
    let target = tempfile::tempdir().expect("temporary target directory");
    // each Rust loop needs about 1 s of CPU with the debug binary since the byte-array locals
    // are promoted (d7f4838), but up to 11 s of wall time on the shared 2-core machine: the
    // budget is a guard against load, not a speed target
    let run = check_example("ffi-basic", target.path(), &["--function-timeout", "60"]);
    assert_eq!(run.code, Some(1), "{run:?}");
    let out = &run.stdout;
    for (function, verdict, memory) in [
        ("c_sum_to", "YES", "proved"),
        ("c_count_with_rust", "YES", "proved"),
        ("c_spin", "NO", "proved"),
        ("c_overflow", "MAYBE", "violated"),
        ("rust_step", "YES", "proved"),
        ("ffi_basic::sum_to", "YES", "proved"),
        ("ffi_basic::count", "YES", "proved"),
        // a `for v in values` loop over `&[u32]` (symexec::alignment keeps the iterator's
        // pointer a multiple of 4 from the slice's start across merges)
        ("ffi_basic::sum_slice", "YES", "proved"),
        // `for i in 0..values.len()` over `&[u32]`: `Range::next` inlined, `values[i]`
        // bounds-checked (the panic path ends the run), the load in bounds since `i < len`
        ("ffi_basic::sum_indexed", "YES", "proved"),
        // a plain counter loop: with rustc's locals promoted the bit-vector prover proves it
        ("ffi_basic::countdown", "YES", "proved"),
        // a `&Vec<u32>`: its buffer of `cap` elements and `len ≤ cap` (Vec's guarantees)
        ("ffi_basic::sum_vec", "YES", "proved"),
        // a `&mut Vec<u32>` read and written by index: its buffer of `cap` elements, possibly
        // empty (symexec/rust_vec.rs)
        ("ffi_basic::drain_sum", "YES", "proved"),
    ] {
        assert_eq!(verdict_of(out, function), Some((verdict, memory)), "{function} in:\n{out}");
    }
    // a `Vec` built with `push` (std's `grow_one` linked from the sysroot's bitcode), then
    // summed by index: YES with the release binary (EXPECTED.md); the debug binary needs about
    // 13 s of CPU for it and then loses entailments to the time shares under load (MAYBE,
    // BENCHMARKS.md "Session 8"), so here only "reported, never NO, never violated" is checked
    let pushed = verdict_of(out, "ffi_basic::sum_pushed");
    assert!(matches!(pushed, Some(("YES", "proved") | ("MAYBE", "unknown" | "proved"))), "sum_pushed: {pushed:?} in:\n{out}");
    // `push` through a `&mut Vec<u32>` in a loop: YES with the release binary since the
    // initial state holds only the globals the function can reach (session 11; before, the
    // crate's 12 globals made it time out); the debug binary needs the CPU of the Rust case
    // `vec_mut_push` (about 20 s), so under load only "never NO, never violated" is checked:
    // on CI's machine the graph was built and memory safety proved, and then the ITS back end
    // ran out of its share of the 60 s (MAYBE, proved), which is also an honest answer
    let appended = verdict_of(out, "ffi_basic::append_count");
    assert!(
        matches!(appended, Some(("YES", "proved") | ("MAYBE", "unknown" | "proved"))),
        "append_count: {appended:?} in:\n{out}"
    );
    // Grouped by owner, with locations relative to the workspace; C comes from the archive only.
    assert!(out.contains("ffi-basic lib `ffi_basic`\n") && out.contains("ffi-basic C code\n"), "{out}");
    assert!(out.contains("c_spin (csrc/ops.c:25)") && out.contains("rust_step (src/lib.rs:10)"), "{out}");
    assert!(out.contains("non-termination witness:") && out.contains("kind: invalid-write"), "{out}");
    // std/core instances compiled into the crate are callees only, never reported.
    assert!(!out.contains("core::") && !out.contains("/rustc/"), "{out}");
    assert!(out.contains("termcheck: 14 functions:"), "{out}");
    // The build went into the given target directory, not the example's.
    assert!(target.path().join("termcheck/tools/termcheck-cc").exists());
}

#[test]
fn a_workspace_that_does_not_build_exits_101_with_cargos_error() {
    let dir = tempfile::tempdir().expect("temporary workspace");
    std::fs::write(dir.path().join("Cargo.toml"), "[package]\nname = \"broken\"\nversion = \"0.1.0\"\nedition = \"2021\"\n\n[workspace]\n").unwrap();
    std::fs::create_dir(dir.path().join("src")).unwrap();
    std::fs::write(dir.path().join("src/lib.rs"), "pub fn f() -> u32 { missing_name }\n").unwrap();
    let run = termcheck(dir.path(), &["--no-cache"]);
    assert_eq!(run.code, Some(101), "{run:?}");
    assert!(run.stderr.contains("missing_name"), "cargo's error is shown: {}", run.stderr);
    assert!(run.stderr.contains("termcheck::workspace::build"), "{}", run.stderr);
    assert!(run.stdout.is_empty(), "{}", run.stdout);
}

#[test]
fn bad_workspace_arguments_are_usage_errors() {
    let run = termcheck(&repo(), &["--exclude", "x"]);
    assert_eq!(run.code, Some(2), "--exclude needs --workspace: {run:?}");
    let run = termcheck(&repo(), &["--function-timeout", "0"]);
    assert_eq!(run.code, Some(2), "{run:?}");
}

#[test]
fn without_analysis_time_every_function_is_maybe_at_its_location() {
    let target = tempfile::tempdir().expect("temporary target directory");
    let manifest = repo().join("examples/ffi-basic/Cargo.toml");
    let run = termcheck(
        &repo(),
        &["--manifest-path", manifest.to_str().unwrap(), "--target-dir", target.path().to_str().unwrap(), "--locked", "--no-cache", "--timeout", "0.01"],
    );
    // The policy's outcome depends on the machine: when the engine's own deadline ends the
    // run, `c_overflow` may still get its error state in 0.01 s (termination-unproven, denied
    // by the example's termcheck.toml: exit 1); when the supervisor's limit ends it first,
    // every finding is a timeout (warn: exit 0). Never a build or usage failure.
    assert!(matches!(run.code, Some(0 | 1)), "{run:?}");
    let out = &run.stdout;
    for function in ["c_sum_to", "c_spin", "rust_step", "ffi_basic::sum_to"] {
        assert_eq!(verdict_of(out, function), Some(("MAYBE", "unknown")), "{function} in:\n{out}");
    }
    assert!(out.contains("c_spin (csrc/ops.c:25)"), "{out}");
    // Either the supervisor's limit or the engine's own deadline ends the run first.
    assert!(out.contains("reason: timeout after 0.01 s") || out.contains("reason: the run's time limit was used up"), "{out}");
    assert!(!out.contains("unknown location"), "{out}");
}

#[test]
fn the_examples_policy_allows_with_reasons_and_its_json_and_sarif_are_valid() {
    // ffi-basic's termcheck.toml allows `c_spin` (NO), denies unproved termination, and
    // leaves `c_overflow`'s replayed memory error denied.
    let target = tempfile::tempdir().expect("temporary target directory");
    let sarif = target.path().join("out.sarif");
    let run = check_example("ffi-basic", target.path(), &["--message-format", "json", "--sarif", sarif.to_str().unwrap()]);
    assert_eq!(run.code, Some(1), "{run:?}");
    let lines = json_lines(&run);
    let function = |path: &str| lines.iter().find(|v| v["reason"] == "termcheck-function" && v["path"] == path).unwrap_or_else(|| panic!("{path} in {lines:?}"));
    assert_eq!(function("c_spin")["status"], "allowed");
    assert_eq!(function("c_spin")["verdict"], "NO");
    assert_eq!(function("c_overflow")["status"], "error");
    assert_eq!(function("c_sum_to")["status"], "proved");
    let summary = lines.last().expect("a summary line");
    assert_eq!(summary["reason"], "termcheck-summary");
    assert_eq!(summary["exit_code"], 1);
    assert!(summary["policy_file"].as_str().is_some_and(|p| p.ends_with("termcheck.toml")), "{summary}");
    let log: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&sarif).expect("SARIF written")).expect("SARIF is JSON");
    let validator = termcheck_tests::sarif::sarif_validator();
    let errors: Vec<String> = validator.iter_errors(&log).map(|e| e.to_string()).collect();
    assert!(errors.is_empty(), "invalid SARIF: {errors:?}");
    assert!(log["runs"][0]["results"].as_array().is_some_and(|r| !r.is_empty()));
}

#[test]
fn source_annotations_allow_like_entries_and_callers_are_proved_assuming() {
    // ffi-second's `checksum` annotates `c_wait` in C (TERMCHECK_ALLOW, termcheck.h) and
    // `collatz_steps` in Rust (#[termcheck::assume_terminates]); its termcheck.toml spells out
    // the default levels and denies unused allow entries (both annotations allow something).
    let target = tempfile::tempdir().expect("temporary target directory");
    let run = check_example("ffi-second", target.path(), &["-p", "checksum", "--message-format", "json"]);
    assert_eq!(run.code, Some(1), "c_read_null's replayed null dereference is denied: {run:?}");
    let lines = json_lines(&run);
    let function = |path: &str| lines.iter().find(|v| v["reason"] == "termcheck-function" && v["path"] == path).unwrap_or_else(|| panic!("{path} in {lines:?}"));
    let allowed_by = |path: &str| function(path)["findings"][0]["allowed_by"].clone();
    assert_eq!(function("c_wait")["verdict"], "NO");
    assert_eq!(function("c_wait")["status"], "allowed");
    assert_eq!(allowed_by("c_wait")["source"], "annotation");
    assert_eq!(allowed_by("c_wait")["reason"], "the example's deliberate busy wait");
    assert_eq!(function("checksum::collatz_steps")["status"], "allowed");
    assert_eq!(allowed_by("checksum::collatz_steps")["function"], "#[termcheck::assume_terminates] on checksum::collatz_steps");
    // Their callers' own verdicts are proved, but they only count as proved assuming the callee.
    for (caller, callee) in [("checksum::settle", "c_wait"), ("checksum::collatz_steps_of_one", "checksum::collatz_steps")] {
        assert_eq!(function(caller)["status"], "proved-assuming", "{caller}");
        assert_eq!(function(caller)["assumptions"][0]["callee"], callee, "{caller}");
    }
    assert_eq!(function("c_gcd")["status"], "proved");
    let summary = lines.last().expect("a summary line");
    assert_eq!(summary["reason"], "termcheck-summary");
    assert!(summary["policy_file"].as_str().is_some_and(|p| p.ends_with("ffi-second/termcheck.toml")), "{summary}");
    // The annotations crate is a proc-macro: nothing of it runs, so it is not "not analysed".
    assert!(!run.stdout.contains("crate `termcheck`"), "{}", run.stdout);
    // Not a terminal: no progress bar (no carriage returns or escape sequences on stderr).
    assert!(!run.stderr.contains('\r') && !run.stderr.contains('\u{1b}'), "{}", run.stderr);
    assert!(run.stderr.contains("   termcheck checking checksum lib `checksum`"), "{}", run.stderr);
}

#[test]
fn names_and_file_names_with_escape_sequences_are_printed_escaped() {
    // A function exported under a name with an OSC title sequence and a module file whose
    // name holds an erase-screen sequence: both reach the report through the bitcode's
    // symbol and debug info, and must not reach the terminal as control characters.
    let dir = tempfile::tempdir().expect("temporary workspace");
    std::fs::write(dir.path().join("Cargo.toml"), "[package]\nname = \"esc\"\nversion = \"0.1.0\"\nedition = \"2021\"\n\n[workspace]\n").unwrap();
    std::fs::create_dir(dir.path().join("src")).unwrap();
    let lib = "#[export_name = \"spin\\u{1b}]0;title\\u{7}\"]\npub extern \"C\" fn spin(x: u32) -> u32 {\n    x.wrapping_add(1)\n}\n\n#[path = \"evil\\u{1b}[2J.rs\"]\nmod evil;\npub use evil::halve;\n";
    std::fs::write(dir.path().join("src/lib.rs"), lib).unwrap();
    std::fs::write(dir.path().join("src/evil\u{1b}[2J.rs"), "pub fn halve(x: u32) -> u32 {\n    x / 2\n}\n").unwrap();
    let target = tempfile::tempdir().expect("temporary target directory");
    let run = termcheck(dir.path(), &["--target-dir", target.path().to_str().unwrap(), "--no-cache", "--color", "never"]);
    assert_eq!(run.code, Some(0), "{run:?}");
    let out = &run.stdout;
    assert!(!out.contains(['\u{1b}', '\u{7}']), "{out}");
    assert_eq!(verdict_of(out, "spin\\u{1b}]0;title\\u{7}"), Some(("YES", "proved")), "{out}");
    assert!(out.contains("esc::evil::halve (src/evil\\u{1b}[2J.rs:1)"), "{out}");
    assert!(out.contains("proved          spin\\u{1b}]0;title\\u{7} (src/lib.rs:2)"), "{out}");
}
