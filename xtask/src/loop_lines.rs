//! `cargo xtask loop-lines DIR`: every loop a YES proof names (the JSON report's
//! `components[].loops[]`) must point at its loop statement — the source text at LINE:COL
//! starts with `while`, `for` or `do` — and every component without a source loop must be a
//! cycle through a function's entry block (recursion). The same check as
//! cargo-termcheck/tests/loop_lines.rs, over a whole benchmark folder (figures in BENCHMARKS.md).

use crate::expected::read_expected;
use crate::runner::run_json_with;
use rayon::prelude::*;
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// What the check found in one program's report.
#[derive(Default)]
struct Found {
    yes: bool,
    /// Loops named at a loop statement.
    good: usize,
    /// Problems (a loop not at a loop statement, an unnamed non-recursive component).
    bad: Vec<String>,
}

/// Whether every internal location of a component is a function's entry block.
fn at_entry(c: &Value) -> bool {
    c["locations"].as_array().into_iter().flatten().all(|l| l.as_str().and_then(|l| l.rsplit_once(':')).is_some_and(|(_, b)| b.starts_with("entry#") || b.starts_with("start#")))
}

/// Checks the loops of one JSON report of `program`; source files are read relative to
/// `base`, or as `program` itself when its path ends with the loop's file name (clang names
/// files relative to its working directory, which the report does not give).
fn check_report(json: &str, base: &Path, program: &Path) -> Found {
    let Ok(v) = serde_json::from_str::<Value>(json.trim()) else { return Found::default() };
    if v["verdict"] != "YES" {
        return Found::default();
    }
    let mut found = Found { yes: true, ..Found::default() };
    for c in v["termination"]["components"].as_array().into_iter().flatten() {
        let loops: Vec<&Value> = c["loops"].as_array().into_iter().flatten().filter(|l| !l.is_null()).collect();
        if loops.is_empty() && !at_entry(c) {
            found.bad.push(format!("component {} has no source loop and is no recursion", c["locations"]));
        }
        for l in loops {
            let (file, line, col) = (l["file"].as_str().unwrap_or(""), l["line"].as_u64().unwrap_or(0) as usize, l["column"].as_u64().unwrap_or(0) as usize);
            let mut path = if Path::new(file).is_absolute() { PathBuf::from(file) } else { base.join(file) };
            if !path.is_file() && !file.is_empty() && program.to_string_lossy().ends_with(file) {
                path = program.to_path_buf();
            }
            let source = std::fs::read_to_string(&path).unwrap_or_default();
            let text = source.lines().nth(line.wrapping_sub(1)).and_then(|s| s.get(col.saturating_sub(1)..)).unwrap_or("");
            if line > 0 && ["while", "for", "do"].iter().any(|k| text.starts_with(k)) {
                found.good += 1;
            } else {
                found.bad.push(format!("{file}:{line}:{col} is not a loop statement: `{}`", text.chars().take(30).collect::<String>()));
            }
        }
    }
    found
}

/// Runs the check over every program of `dir`'s expected.tsv; `Ok(false)` when a loop is
/// named wrongly.
pub fn run(binary: &Path, dir: &Path, timeout: u64, int_semantics: &str, jobs: usize, kill_after: Duration) -> Result<bool, String> {
    let rows = read_expected(dir)?;
    let pool = rayon::ThreadPoolBuilder::new().num_threads(jobs).build().map_err(|e| e.to_string())?;
    let cwd = std::env::current_dir().map_err(|e| e.to_string())?;
    let results: Vec<(String, Found)> = pool.install(|| {
        rows.into_par_iter()
            .map(|row| {
                let program = dir.join(&row.path);
                let run = run_json_with(binary, &program, timeout, int_semantics, kill_after);
                (row.path.clone(), check_report(&run.stdout, &cwd, &cwd.join(&program)))
            })
            .collect()
    });
    let yes = results.iter().filter(|(_, f)| f.yes).count();
    let good: usize = results.iter().map(|(_, f)| f.good).sum();
    let bad: Vec<String> = results.iter().flat_map(|(p, f)| f.bad.iter().map(move |b| format!("{p}: {b}"))).collect();
    for b in &bad {
        println!("WRONG {b}");
    }
    println!("loop-lines: {} programs from {}, {yes} YES, {good} loops named at their statement, {} wrong", results.len(), dir.display(), bad.len());
    Ok(bad.is_empty())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn loops_are_checked_against_the_source_text() {
        let dir = std::env::temp_dir().join(format!("xtask-loop-lines-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("temp dir");
        std::fs::write(dir.join("a.c"), "int main(void) {\n    while (1) {}\n}\n").expect("write");
        let report = |line: u32, col: u32| format!(r#"{{"verdict":"YES","termination":{{"components":[{{"locations":["main:while.cond#2"],"loops":[{{"file":"a.c","line":{line},"column":{col}}}]}},{{"locations":["f:entry#1"],"loops":[null]}}]}}}}"#);
        let ok = check_report(&report(2, 5), &dir, &dir.join("a.c"));
        let elsewhere = check_report(&report(2, 5), Path::new("/nonexistent"), &dir.join("a.c"));
        assert!(elsewhere.good == 1 && elsewhere.bad.is_empty(), "{:?}", elsewhere.bad);
        assert!(ok.yes && ok.good == 1 && ok.bad.is_empty(), "{:?}", ok.bad);
        let wrong = check_report(&report(1, 1), &dir, &dir.join("a.c"));
        assert_eq!((wrong.good, wrong.bad.len()), (0, 1));
        let unnamed = check_report(r#"{"verdict":"YES","termination":{"components":[{"locations":["main:bb3#4"],"loops":[null]}]}}"#, &dir, &dir.join("a.c"));
        assert_eq!(unnamed.bad.len(), 1);
        assert!(!check_report(r#"{"verdict":"NO"}"#, &dir, &dir.join("a.c")).yes);
        std::fs::remove_dir_all(&dir).ok();
    }
}
