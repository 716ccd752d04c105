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

#[test]
fn yes_proofs_name_loops_by_their_statement() {
    let mut files: Vec<PathBuf> = vec![];
    for dir in ["tests/cases/programs", "benchmarks/counters"] {
        let mut found: Vec<PathBuf> = std::fs::read_dir(root().join(dir)).expect("folder").map(|e| e.expect("entry").path()).filter(|p| p.extension().is_some_and(|e| e == "c")).collect();
        found.sort();
        files.extend(found);
    }
    let mut checked = 0;
    for file in &files {
        let dir = file.parent().expect("a folder");
        let name = file.file_name().and_then(|n| n.to_str()).expect("UTF-8 name").to_string();
        let args: Vec<String> = ["prove", &name, "--timeout", "20", "--no-cache", "--format", "json"].iter().map(|s| s.to_string()).collect();
        let r = run_binary(Path::new(env!("CARGO_BIN_EXE_cargo-termcheck")), dir, &args, Duration::from_secs(60));
        if !r.stdout.starts_with("{\"verdict\":\"YES\"") {
            continue;
        }
        let source = std::fs::read_to_string(file).expect("source");
        let lines: Vec<&str> = source.lines().collect();
        let (locations, unnamed) = loop_locations(&r.stdout);
        assert_eq!(unnamed, 0, "{}: a component that is neither a source loop nor recursion: {}", file.display(), r.stdout);
        for (loc_file, line, col) in locations {
            assert_eq!(loc_file, name, "{}: {}", file.display(), r.stdout);
            let text = lines.get(line - 1).map(|l| l.get(col.saturating_sub(1)..).unwrap_or("")).unwrap_or("");
            assert!(
                ["while", "for", "do"].iter().any(|k| text.starts_with(k)),
                "{}:{line}:{col} is not a loop statement: `{text}`",
                file.display()
            );
            checked += 1;
        }
    }
    // how many programs get a YES depends on the machine's load (wall-clock shares)
    assert!(checked >= 5, "only {checked} loops were named by YES proofs");
}

#[test]
fn locations_are_read_from_the_json_components() {
    let json = r#"{"verdict":"YES","termination":{"components":[{"locations":["main:for.cond#3"],"loops":[{"file":"a.c","line":5,"column":3,"function":"main","header":"for.cond"}]},{"locations":["f:entry#1"],"loops":[null]},{"locations":["f:bb3#7"],"loops":[null]}]}}"#;
    assert_eq!(loop_locations(json), (vec![("a.c".to_string(), 5, 3)], 1));
}
