//! Every loop a YES proof names (`components[].loops[]` of the JSON report: `FILE`, `line`,
//! `column`; the human text's `loop FILE:LINE:COL in FUNCTION:` headings come from the same
//! data) points at the loop statement: the source text at LINE:COL starts with `while`, `for`
//! or `do`. Checked over the e2e programs and benchmarks/counters, for proofs of both provers
//! (bit-vector and symbolic execution); `cargo xtask loop-lines DIR` runs the same check over
//! a whole benchmark folder (figures in BENCHMARKS.md).

use std::path::{Path, PathBuf};
use std::time::Duration;
use termcheck_tests::run_binary;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// The `(FILE, LINE, COL)` of every source loop named in a JSON report's YES proof, and the
/// number of components without any source loop.
fn loop_locations(json: &str) -> (Vec<(String, usize, usize)>, usize) {
    let v: serde_json::Value = serde_json::from_str(json.trim()).expect("one JSON object");
    let mut out = vec![];
    let mut unnamed = 0;
    for c in v["termination"]["components"].as_array().into_iter().flatten() {
        let loops: Vec<&serde_json::Value> = c["loops"].as_array().into_iter().flatten().filter(|l| !l.is_null()).collect();
        // a cycle outside loop statements must be recursion: through a function's entry block
        let at_entry = c["locations"].as_array().into_iter().flatten().all(|l| l.as_str().and_then(|l| l.rsplit_once(':')).is_some_and(|(_, b)| b.starts_with("entry#") || b.starts_with("start#")));
        if loops.is_empty() && !at_entry {
            unnamed += 1;
        }
        for l in loops {
            if let (Some(f), Some(line), Some(col)) = (l["file"].as_str(), l["line"].as_u64(), l["column"].as_u64()) {
                out.push((f.to_string(), line as usize, col as usize));
            }
        }
    }
    (out, unnamed)
}

/// Programs of benchmarks/counters whose YES comes from the bit-vector prover with a named
/// loop on any machine given enough time; they keep the test from passing vacuously.
const PINNED: [&str; 3] = ["step1_count_yes.c", "char_loop_count_yes.c", "short_counter_yes.c"];

/// Checks that every loop named in `json` (a JSON report of a run on `file`) points at a loop
/// statement and that every component is a source loop or recursion; returns how many loops
/// were named.
fn check_named_loops(file: &Path, json: &str) -> usize {
    let name = file.file_name().and_then(|n| n.to_str()).expect("UTF-8 name");
    let source = std::fs::read_to_string(file).expect("source");
    let lines: Vec<&str> = source.lines().collect();
    let (locations, unnamed) = loop_locations(json);
    assert_eq!(unnamed, 0, "{}: a component that is neither a source loop nor recursion: {json}", file.display());
    let mut checked = 0;
    for (loc_file, line, col) in locations {
        assert_eq!(loc_file, name, "{}: {json}", file.display());
        let text = lines.get(line - 1).map(|l| l.get(col.saturating_sub(1)..).unwrap_or("")).unwrap_or("");
        assert!(["while", "for", "do"].iter().any(|k| text.starts_with(k)), "{}:{line}:{col} is not a loop statement: `{text}`", file.display());
        checked += 1;
    }
    checked
}

/// `prove FILE --timeout SECONDS --no-cache --format json` in the file's folder.
fn prove(file: &Path, seconds: u64) -> termcheck_tests::Run {
    let dir = file.parent().expect("a folder");
    let name = file.file_name().and_then(|n| n.to_str()).expect("UTF-8 name").to_string();
    let args: Vec<String> = ["prove", &name, "--timeout", &seconds.to_string(), "--no-cache", "--format", "json"].iter().map(|s| s.to_string()).collect();
    run_binary(Path::new(env!("CARGO_BIN_EXE_cargo-termcheck")), dir, &args, Duration::from_secs(seconds + 60))
}

fn is_yes(json: &str) -> bool {
    json.starts_with("{\"verdict\":\"YES\"")
}

#[test]
fn yes_proofs_name_loops_by_their_statement() {
    let mut files: Vec<PathBuf> = vec![];
    for dir in ["tests/cases/programs", "benchmarks/counters"] {
        let mut found: Vec<PathBuf> = std::fs::read_dir(root().join(dir)).expect("folder").map(|e| e.expect("entry").path()).filter(|p| p.extension().is_some_and(|e| e == "c")).collect();
        found.sort();
        files.extend(found);
    }
    // Which of these get a YES within 20 s depends on the machine's load (wall-clock shares),
    // so they only add locations to check ...
    for file in files.iter().filter(|f| !PINNED.iter().any(|p| f.ends_with(p))) {
        let r = prove(file, 20);
        if is_yes(&r.stdout) {
            check_named_loops(file, &r.stdout);
        }
    }
    // ... while the pinned programs get a budget no load uses up (a YES is printed as soon as
    // it is proved: seconds on a quiet machine) and must each name their loop.
    for name in PINNED {
        let file = root().join("benchmarks/counters").join(name);
        let r = prove(&file, 300);
        assert!(is_yes(&r.stdout), "{name}: {r:?}");
        assert!(check_named_loops(&file, &r.stdout) >= 1, "{name} names no loop: {}", r.stdout);
    }
}

#[test]
fn locations_are_read_from_the_json_components() {
    let json = r#"{"verdict":"YES","termination":{"components":[{"locations":["main:for.cond#3"],"loops":[{"file":"a.c","line":5,"column":3,"function":"main","header":"for.cond"}]},{"locations":["f:entry#1"],"loops":[null]},{"locations":["f:bb3#7"],"loops":[null]}]}}"#;
    assert_eq!(loop_locations(json), (vec![("a.c".to_string(), 5, 3)], 1));
}
