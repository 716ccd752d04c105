//! Every loop a YES proof names by a source location (`loop FILE:LINE:COL in FUNCTION:` in the
//! bit-vector prover's notes) points at the loop statement: the source text at LINE:COL starts
//! with `while`, `for` or `do`. Checked over the e2e programs and benchmarks/counters.

use std::path::{Path, PathBuf};
use std::time::Duration;
use termcheck_tests::run_binary;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// The `FILE:LINE:COL` locations of the loops named in the human output's notes.
fn loop_locations(stdout: &str) -> Vec<(String, usize, usize)> {
    let mut out = vec![];
    for line in stdout.lines().filter_map(|l| l.trim_start().strip_prefix("note: loop ")) {
        let Some((loc, _)) = line.split_once(" in ") else { continue };
        let parts: Vec<&str> = loc.rsplitn(3, ':').collect();
        if let [col, line, file] = parts[..] {
            if let (Ok(l), Ok(c)) = (line.parse(), col.parse()) {
                out.push((file.to_string(), l, c));
            }
        }
    }
    out
}

/// Programs of benchmarks/counters whose YES comes from the bit-vector prover with a named
/// loop on any machine given enough time; they keep the test from passing vacuously.
const PINNED: [&str; 3] = ["step1_count_yes.c", "char_loop_count_yes.c", "short_counter_yes.c"];

/// Checks that every loop named in `stdout` (a run on `file`) points at a loop statement;
/// returns how many were named.
fn check_named_loops(file: &Path, stdout: &str) -> usize {
    let name = file.file_name().and_then(|n| n.to_str()).expect("UTF-8 name");
    let source = std::fs::read_to_string(file).expect("source");
    let lines: Vec<&str> = source.lines().collect();
    let mut checked = 0;
    for (loc_file, line, col) in loop_locations(stdout) {
        assert_eq!(loc_file, name, "{}: {stdout}", file.display());
        let text = lines.get(line - 1).map(|l| l.get(col.saturating_sub(1)..).unwrap_or("")).unwrap_or("");
        assert!(["while", "for", "do"].iter().any(|k| text.starts_with(k)), "{}:{line}:{col} is not a loop statement: `{text}`", file.display());
        checked += 1;
    }
    checked
}

/// `prove FILE --timeout SECONDS --no-cache` in the file's folder.
fn prove(file: &Path, seconds: u64) -> termcheck_tests::Run {
    let dir = file.parent().expect("a folder");
    let name = file.file_name().and_then(|n| n.to_str()).expect("UTF-8 name").to_string();
    let args: Vec<String> = ["prove", &name, "--timeout", &seconds.to_string(), "--no-cache"].iter().map(|s| s.to_string()).collect();
    run_binary(Path::new(env!("CARGO_BIN_EXE_cargo-termcheck")), dir, &args, Duration::from_secs(seconds + 60))
}

#[test]
fn bit_vector_proofs_name_loops_by_their_statement() {
    let mut files: Vec<PathBuf> = vec![];
    for dir in ["tests/cases/programs", "benchmarks/counters"] {
        let mut found: Vec<PathBuf> = std::fs::read_dir(root().join(dir)).expect("folder").map(|e| e.expect("entry").path()).filter(|p| p.extension().is_some_and(|e| e == "c")).collect();
        found.sort();
        files.extend(found);
    }
    // Which of these get a bit-vector YES within 20 s depends on the machine's load
    // (wall-clock shares), so they only add locations to check ...
    for file in files.iter().filter(|f| !PINNED.iter().any(|p| f.ends_with(p))) {
        let r = prove(file, 20);
        if r.stdout.lines().next() == Some("YES") {
            check_named_loops(file, &r.stdout);
        }
    }
    // ... while the pinned programs get a budget no load uses up (a YES is printed as soon as
    // it is proved: seconds on a quiet machine) and must each name their loop.
    for name in PINNED {
        let file = root().join("benchmarks/counters").join(name);
        let r = prove(&file, 300);
        assert_eq!(r.stdout.lines().next(), Some("YES"), "{name}: {r:?}");
        assert!(check_named_loops(&file, &r.stdout) >= 1, "{name} names no loop: {}", r.stdout);
    }
}

#[test]
fn locations_are_parsed_from_notes() {
    let text = "YES\n  note: loop a.c:5:3 in main: ranking function x\n  note: loop main:bb1: at most 3 iterations\n";
    assert_eq!(loop_locations(text), [("a.c".to_string(), 5, 3)]);
}
