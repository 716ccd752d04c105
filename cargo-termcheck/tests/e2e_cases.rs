//! Data-driven end-to-end tests: every case in `tests/cases/` through the real binary.
//!
//! Each case must (1) keep the output contract (verdict line, memory-safety line, evidence,
//! exit codes; never a panic or a hang), (2) start its output as `NAME.expected` says, and
//! (3) for `prove` cases, give with `--format json` the same exit code and, for a verdict, one
//! object of the documented schema (docs/output-format.md) that agrees with the human output.
//! `--all-functions` cases keep that mode's contract and pin its skeleton: every function's
//! header, `termination:` and `memory-safety:` lines and the summary line.
//! `TERMCHECK_BLESS=1 cargo test -p cargo-termcheck --test e2e_cases` rewrites the expected
//! files from the current output instead of comparing (they are never written by hand).
//!
//! These tests live in this package (not in `tests/`) because only here cargo builds the
//! binary first and tells us its path (`CARGO_BIN_EXE_cargo-termcheck`).
#![allow(clippy::print_stderr, reason = "the test harness reports progress per case")]

use std::path::Path;
use std::time::Duration;
use termcheck_tests::{
    all_functions, bless_requested, cases_dir, discover_cases, invariants, json_shape, run_binary, Case, Expectation, Run,
};

/// Outer kill limit per run: far above the harness's `--timeout 20` plus the CLI's grace.
const KILL_AFTER: Duration = Duration::from_secs(60);

/// The outer kill limit of one case: `KILL_AFTER`, or the case's own `--timeout` plus 30 s of
/// grace when that is longer (the Rust list cases give the debug binary the tests run 240 s:
/// it is several times slower than the release binary BENCHMARKS.md measures).
fn kill_after(case: &Case) -> Duration {
    let own = case.args.windows(2).find(|w| w[0] == "--timeout").and_then(|w| w[1].parse::<u64>().ok());
    own.map_or(KILL_AFTER, |t| KILL_AFTER.max(Duration::from_secs(t + 30)))
}

fn binary() -> &'static Path {
    Path::new(env!("CARGO_BIN_EXE_cargo-termcheck"))
}

/// Runs the case again with `--format json` and checks it against the human run.
fn check_json(case: &Case, human: &Run) -> Result<bool, String> {
    if case.args.first().is_none_or(|a| a != "prove") {
        return Ok(false);
    }
    let mut args = case.args.clone();
    args.extend(["--format".to_string(), "json".to_string()]);
    let json = run_binary(binary(), &case.dir, &args, kill_after(case));
    if json.code != human.code {
        return Err(format!("exit code {:?} with --format json, {:?} without", json.code, human.code));
    }
    match json.code {
        Some(0) if case.all_functions => json_shape::check_all_functions_json(&json.stdout, &human.stdout).map(|()| true),
        Some(0) => json_shape::check_json_output(&json.stdout, &human.stdout).map(|()| true),
        // Bad input: the diagnostic goes to stderr in both formats, stdout stays empty.
        _ if !json.stdout.is_empty() => Err(format!("stdout with --format json on error: {:?}", json.stdout)),
        _ => Ok(false),
    }
}

#[test]
fn every_case_matches_its_expected_output() {
    let cases = discover_cases(&cases_dir());
    assert!(cases.len() >= 20, "expected the bundled cases in {}", cases_dir().display());
    let bless = bless_requested();
    let mut failures = Vec::new();
    let mut json_verdicts = 0;
    for case in &cases {
        // `NAME.rs` cases run on the bitcode rustc makes of them (`termcheck_tests::rust_cases`)
        let compiled = termcheck_tests::rust_cases::compiled(case);
        let case = &compiled.case;
        let run = run_binary(binary(), &case.dir, &case.args, kill_after(case));
        let contract =
            if case.all_functions { all_functions::check_contract(&run) } else { invariants::check_human_contract(&run, case.is_its) };
        if let Err(problem) = contract {
            failures.push(format!("{}: output contract: {problem}\n  stdout: {:?}\n  stderr: {:?}", case.name, run.stdout, run.stderr));
        }
        match check_json(case, &run) {
            Ok(checked) => json_verdicts += usize::from(checked),
            Err(problem) => failures.push(format!("{}: JSON: {problem}", case.name)),
        }
        // `--all-functions` cases pin every block's header and verdict lines and the summary
        // (the skeleton), not just the first lines.
        let view = if case.all_functions {
            let lines = all_functions::skeleton(&run.stdout);
            Run { stdout: lines.iter().map(|l| format!("{l}\n")).collect(), ..run.clone() }
        } else {
            run.clone()
        };
        if bless {
            let mut expectation = Expectation::blessed_from(&view);
            if case.all_functions && view.code == Some(0) {
                expectation.stdout_prefix = view.stdout.lines().map(String::from).collect();
            }
            std::fs::write(&case.expected_path, expectation.render()).expect("write the expected file");
            continue;
        }
        let expected = match std::fs::read_to_string(&case.expected_path) {
            Ok(text) => Expectation::parse(&text),
            Err(_) => Err(format!("missing {} (run with TERMCHECK_BLESS=1)", case.expected_path.display())),
        };
        match expected.and_then(|e| e.check(&view)) {
            Ok(()) => eprintln!("ok   {} ({:.1} s)", case.name, run.elapsed.as_secs_f64()),
            Err(problem) => failures.push(format!(
                "{}: {problem}\n  stdout: {:?}\n  stderr: {:?}\n  (if the new output is right: TERMCHECK_BLESS=1 cargo test -p cargo-termcheck --test e2e_cases)",
                case.name, run.stdout, run.stderr
            )),
        }
    }
    eprintln!("JSON schema checked on {json_verdicts} verdicts");
    assert!(json_verdicts > 0, "no case gave a verdict, so the JSON schema was checked on nothing");
    assert!(failures.is_empty(), "{} of {} cases failed:\n{}", failures.len(), cases.len(), failures.join("\n"));
}

#[test]
fn every_expected_file_belongs_to_a_case() {
    let cases = discover_cases(&cases_dir());
    let mut stray = Vec::new();
    let mut stack = vec![cases_dir()];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|e| e == "expected") && !cases.iter().any(|c| c.expected_path == path) {
                stray.push(path.display().to_string());
            }
        }
    }
    assert!(stray.is_empty(), "expected files without a case: {stray:?}");
}
