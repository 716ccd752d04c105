//! The argued verdicts of `benchmarks/bitvector-heldout/` hold when the programs are executed
//! (harness `termcheck_tests::real_exec`; this checks the benchmark, not termcheck).
#![allow(clippy::print_stderr, reason = "the test harness reports every checked program")]

use std::path::{Path, PathBuf};
use std::sync::Mutex;
use termcheck_tests::real_exec::{check_no_witness, check_terminates, check_violation, Feed, Native};

fn heldout() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().expect("repository").join("benchmarks/bitvector-heldout")
}

/// The integers of the file's `witness-input:` line.
fn witness_input(source: &str) -> Option<Vec<i128>> {
    let line = source.lines().find_map(|l| l.split_once("witness-input:").map(|(_, rest)| rest))?;
    line.split_whitespace().take_while(|w| *w != "*/").map(|w| w.parse().ok()).collect()
}

fn check(native: &Native, path: &Path, expected: &str) -> Result<String, String> {
    let source = std::fs::read_to_string(path).map_err(|e| e.to_string())?;
    let witness = witness_input(&source);
    match (expected, witness) {
        ("YES", None) => check_terminates(native, path),
        ("NO", Some(values)) => check_no_witness(native, path, &Feed::values(&values)),
        ("UB", Some(values)) => check_violation(native, path, &Feed::values(&values)),
        (_, w) => Err(format!("expected {expected} with witness {w:?}: not a valid combination")),
    }
}

#[test]
fn heldout_verdicts_hold_when_executed() {
    let dir = heldout();
    let tsv = std::fs::read_to_string(dir.join("expected.tsv")).expect("expected.tsv");
    let rows: Vec<(String, String)> =
        tsv.lines().skip(1).filter_map(|l| l.split_once('\t')).map(|(f, e)| (f.to_string(), e.trim().to_string())).collect();
    assert!(rows.len() >= 20, "the held-out set has its programs");
    let mut files: Vec<String> = std::fs::read_dir(&dir)
        .expect("folder")
        .filter_map(|e| e.ok()?.file_name().into_string().ok())
        .filter(|f| f.ends_with(".c"))
        .collect();
    files.sort();
    let mut listed: Vec<String> = rows.iter().map(|(f, _)| f.clone()).collect();
    listed.sort();
    assert_eq!(files, listed, "expected.tsv lists exactly the .c files");
    let native = Native::new().expect("clang-22");
    let queue = Mutex::new(rows.iter());
    let failures = Mutex::new(Vec::new());
    std::thread::scope(|scope| {
        for _ in 0..2 {
            scope.spawn(|| loop {
                let Some((file, expected)) = queue.lock().unwrap().next() else { break };
                match check(&native, &dir.join(file), expected) {
                    Ok(note) => eprintln!("ok   {file} {expected}: {note}"),
                    Err(e) => failures.lock().unwrap().push(format!("{file} ({expected}): {e}")),
                }
            });
        }
    });
    let failures = failures.into_inner().unwrap();
    assert!(failures.is_empty(), "held-out verdicts refuted by execution:\n{}", failures.join("\n"));
}
