//! Issue #4: termcheck's answers on the bitvector benchmarks, executed for real.
//!
//! For every program of `benchmarks/bitvector/`, `benchmarks/bitvector-heldout/` and (when the
//! shared benchmark folder is present) `/work/shared/bench/paper-examples/bv_*.c`, the real
//! binary runs `prove FILE --int-semantics c --format json --timeout T`, then:
//! - a YES or NO that contradicts the folder's `expected.tsv` fails the test (zero wrong);
//! - every NO witness is executed natively (clang-22 `-O0 -fno-finite-loops`, the witness's
//!   inputs fed by `tests/support/nondet_feed.c`) and must reach the step bound / still run at
//!   the wall bound, also under UBSan, and still run after seconds at `-O2` under UBSan;
//! - every YES program must end on boundary inputs (every read 0, 1, minimum, maximum of its
//!   type) and 10 random input sequences, without a sanitizer report;
//! - every `memory-safety: violated` must make ASan/UBSan report on its inputs.
//!
//! MAYBE is allowed (the solved count is a benchmark figure, printed, not asserted). The
//! harness is `termcheck_tests::real_exec` (its self-tests show fake witnesses are caught).
//! `TERMCHECK_REAL_EXEC_TIMEOUT` (seconds, default 10) sets `--timeout` per program;
//! `TERMCHECK_REAL_EXEC_ONLY` (comma-separated substrings) keeps only matching programs.
#![allow(clippy::print_stderr, reason = "the test harness reports every executed program")]

use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::{Duration, Instant};
use termcheck_tests::real_exec::{check_no_witness, check_terminates, check_violation, Answer, Native};
use termcheck_tests::run_binary;

/// Programs analysed at the same time (the CI machine has 2 cores).
const WORKERS: usize = 2;

fn binary() -> &'static Path {
    Path::new(env!("CARGO_BIN_EXE_cargo-termcheck"))
}

fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().expect("cargo-termcheck/ is inside the repository").to_path_buf()
}

fn analysis_timeout() -> f64 {
    std::env::var("TERMCHECK_REAL_EXEC_TIMEOUT").ok().and_then(|v| v.parse().ok()).filter(|t: &f64| *t > 0.0).unwrap_or(10.0)
}

/// One benchmark program with its expected verdict.
struct Program {
    path: PathBuf,
    label: String,
    expected: String,
}

/// `(file, expected)` rows of `folder/expected.tsv` whose file name passes `keep`.
fn programs_of(folder: &Path, prefix: &str, keep: impl Fn(&str) -> bool) -> Vec<Program> {
    let tsv = std::fs::read_to_string(folder.join("expected.tsv")).unwrap_or_else(|e| panic!("{}: {e}", folder.display()));
    tsv.lines()
        .skip(1)
        .filter_map(|line| line.split_once('\t'))
        .filter(|(file, _)| keep(file))
        .map(|(file, expected)| Program { path: folder.join(file), label: format!("{prefix}/{file}"), expected: expected.trim().to_string() })
        .collect()
}

/// What happened to one program; `failure` is set for a wrong or unconfirmed answer.
struct Outcome {
    label: String,
    verdict: String,
    expected: String,
    seconds: f64,
    note: String,
    failure: Option<String>,
}

fn examine(native: &Native, program: &Program, timeout: f64) -> Outcome {
    let args = vec![
        "prove".to_string(),
        program.path.to_string_lossy().into_owned(),
        "--int-semantics".to_string(),
        "c".to_string(),
        "--format".to_string(),
        "json".to_string(),
        "--timeout".to_string(),
        timeout.to_string(),
    ];
    let run = run_binary(binary(), &repo_root(), &args, Duration::from_secs_f64(timeout + 20.0));
    let mut outcome = Outcome {
        label: program.label.clone(),
        verdict: "-".to_string(),
        expected: program.expected.clone(),
        seconds: run.elapsed.as_secs_f64(),
        note: String::new(),
        failure: None,
    };
    if run.killed || !matches!(run.code, Some(0) | Some(101)) {
        outcome.failure = Some(format!("no verdict: exit {:?}, killed {}, stderr {}", run.code, run.killed, run.stderr.trim()));
        return outcome;
    }
    let answer = match Answer::parse(&run.stdout) {
        Ok(answer) => answer,
        Err(e) => {
            outcome.failure = Some(e);
            return outcome;
        }
    };
    outcome.verdict = format!("{} / memory {}", answer.verdict, answer.memory_safety);
    if run.code == Some(101) {
        outcome.note = format!("internal error (exit 101): {}", answer.reason.clone().unwrap_or_default());
    }
    let mut failures = Vec::new();
    // As xtask's scorer: YES is wrong on NO / UB / UNSAFE, NO is wrong on YES, and so is a
    // claimed violation on a YES program. (A NO on a UB program is not wrong by itself; its
    // witness must still run forever without undefined behaviour, checked below.)
    let contradicts = match program.expected.as_str() {
        "YES" => answer.verdict == "NO" || answer.memory_safety == "violated",
        "NO" | "UB" | "UNSAFE" => answer.verdict == "YES",
        _ => false,
    };
    if contradicts {
        failures.push(format!("WRONG: {} but expected {}", answer.verdict, program.expected));
    }
    if let Some(feed) = &answer.no_witness {
        match check_no_witness(native, &program.path, feed) {
            Ok(evidence) => outcome.note = format!("witness {feed} reproduced: {evidence}"),
            Err(e) => failures.push(format!("NO witness not reproduced: {e}")),
        }
    }
    if answer.verdict == "YES" {
        match check_terminates(native, &program.path) {
            Ok(evidence) => outcome.note = evidence,
            Err(e) => failures.push(format!("YES refuted by a native run: {e}")),
        }
    }
    if let Some(violation) = &answer.violation {
        match check_violation(native, &program.path, &violation.inputs) {
            Ok(report) => outcome.note.push_str(&format!(" violation ({}) confirmed: {report}", violation.kind)),
            Err(e) => failures.push(format!("memory-safety violation ({}) not confirmed: {e}", violation.kind)),
        }
    }
    if answer.verdict == "MAYBE" && outcome.note.is_empty() {
        outcome.note = answer.reason.unwrap_or_default().lines().next().unwrap_or("").chars().take(100).collect();
    }
    if !failures.is_empty() {
        outcome.failure = Some(failures.join("; "));
    }
    outcome
}

#[test]
fn bitvector_answers_hold_when_executed() {
    let started = Instant::now();
    let root = repo_root();
    let mut programs = programs_of(&root.join("benchmarks/bitvector"), "bitvector", |_| true);
    assert!(programs.len() >= 60, "benchmarks/bitvector has its 62 programs");
    let heldout = root.join("benchmarks/bitvector-heldout");
    programs.extend(programs_of(&heldout, "bitvector-heldout", |_| true));
    // Outside the repository (absent on a fresh clone): used when present, said when not.
    let paper = Path::new("/work/shared/bench/paper-examples");
    if paper.join("expected.tsv").is_file() {
        programs.extend(programs_of(paper, "paper-examples", |f| f.starts_with("bv_")));
    } else {
        eprintln!("note: {} absent, its bv_*.c programs are not checked", paper.display());
    }
    if let Ok(only) = std::env::var("TERMCHECK_REAL_EXEC_ONLY") {
        let parts: Vec<&str> = only.split(',').filter(|p| !p.is_empty()).collect();
        programs.retain(|p| parts.iter().any(|part| p.label.contains(part)));
        eprintln!("note: TERMCHECK_REAL_EXEC_ONLY={only}: {} programs", programs.len());
    }
    let native = Native::new().expect("clang-22 and the nondet feed stub");
    let timeout = analysis_timeout();
    let queue = Mutex::new(programs.iter());
    let outcomes = Mutex::new(Vec::new());
    std::thread::scope(|scope| {
        for _ in 0..WORKERS {
            scope.spawn(|| loop {
                let Some(program) = queue.lock().expect("queue").next() else { break };
                let outcome = examine(&native, program, timeout);
                outcomes.lock().expect("outcomes").push(outcome);
            });
        }
    });
    let mut outcomes = outcomes.into_inner().expect("outcomes");
    outcomes.sort_by(|a, b| a.label.cmp(&b.label));
    let (mut yes, mut no, mut maybe) = (0, 0, 0);
    for o in &outcomes {
        match o.verdict.split(' ').next() {
            Some("YES") => yes += 1,
            Some("NO") => no += 1,
            _ => maybe += 1,
        }
        let status = if o.failure.is_some() { "FAIL" } else { "ok  " };
        eprintln!("{status} {:<44} {:<28} expected {:<4} {:>5.1}s  {}", o.label, o.verdict, o.expected, o.seconds, o.note);
        if let Some(f) = &o.failure {
            eprintln!("     {f}");
        }
    }
    let failures: Vec<&Outcome> = outcomes.iter().filter(|o| o.failure.is_some()).collect();
    eprintln!(
        "real execution: {} programs, {yes} YES, {no} NO, {maybe} MAYBE/none, {} failed, --timeout {timeout} s, {:.0} s in all",
        outcomes.len(),
        failures.len(),
        started.elapsed().as_secs_f64()
    );
    assert!(
        failures.is_empty(),
        "{} answers wrong or not confirmed by execution:\n{}",
        failures.len(),
        failures.iter().map(|o| format!("{}: {}", o.label, o.failure.as_deref().unwrap_or(""))).collect::<Vec<_>>().join("\n")
    );
}
