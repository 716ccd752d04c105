//! The benchmark summary printed at the end of `cargo xtask bench`, and the per-file TSV.

use crate::expected::{Expected, Row};
use crate::runner::RunResult;
use crate::scoring::{answer, claims_violation, score, Outcome};
use std::fmt::Write as _;

/// One benchmark program with its run.
#[derive(Clone, Debug)]
pub struct Scored {
    pub row: Row,
    pub run: RunResult,
    pub outcome: Outcome,
}

impl Scored {
    pub fn new(row: Row, run: RunResult) -> Scored {
        let outcome = score(row.expected, &run);
        Scored { row, run, outcome }
    }
}

/// The median of the values (mean of the middle two for an even count); 0 when empty.
pub fn median(values: &mut [f64]) -> f64 {
    if values.is_empty() {
        return 0.0;
    }
    values.sort_by(f64::total_cmp);
    let mid = values.len() / 2;
    if values.len() % 2 == 1 {
        values[mid]
    } else {
        (values[mid - 1] + values[mid]) / 2.0
    }
}

fn count(results: &[Scored], outcome: Outcome) -> usize {
    results.iter().filter(|s| s.outcome == outcome).count()
}

/// Why a wrong answer is wrong, in words.
fn wrong_detail(s: &Scored) -> String {
    let memory = s.run.memory_safety.as_deref().unwrap_or("-");
    format!("expected {}, got {} (memory-safety: {memory})", s.row.expected.word(), answer(&s.run))
}

fn error_detail(s: &Scored) -> String {
    let exit = s.run.exit.map_or("none".to_string(), |c| c.to_string());
    let what = match s.run.reason.as_deref() {
        Some(reason) if s.run.exit == Some(101) => reason.to_string(),
        _ if !s.run.stderr_head.is_empty() => s.run.stderr_head.clone(),
        _ => format!("first line `{}`", s.run.first_line),
    };
    format!("exit {exit}: {what}")
}

/// The summary text; `wall_seconds` is the elapsed time of the whole benchmark run.
pub fn summary_text(results: &[Scored], wall_seconds: f64) -> String {
    let mut out = String::new();
    let unsafe_rows = results.iter().filter(|s| s.row.expected == Expected::Unsafe).count();
    let unsafe_found = results.iter().filter(|s| s.row.expected == Expected::Unsafe && claims_violation(&s.run)).count();
    let mut times: Vec<f64> = results.iter().map(|s| s.run.seconds).collect();
    let lines = [
        ("solved YES", count(results, Outcome::SolvedYes)),
        ("solved NO", count(results, Outcome::SolvedNo)),
        ("wrong", count(results, Outcome::Wrong)),
        ("MAYBE", count(results, Outcome::Maybe)),
        ("timeouts", count(results, Outcome::Timeout)),
        ("errors", count(results, Outcome::Error)),
        ("not scored (DISPUTED)", count(results, Outcome::NotScored)),
        ("total", results.len()),
    ];
    for (label, n) in lines {
        let _ = writeln!(out, "{label:<24}{n:>6}");
    }
    let _ = writeln!(out, "{:<24}{unsafe_found:>6} of {unsafe_rows} expected UNSAFE/UB", "memory-safety: violated");
    let _ = writeln!(out, "{:<24}{wall_seconds:>8.1} s", "total wall time");
    let _ = writeln!(out, "{:<24}{:>8.2} s", "median per program", median(&mut times));
    let wrong: Vec<&Scored> = results.iter().filter(|s| s.outcome == Outcome::Wrong).collect();
    if !wrong.is_empty() {
        let _ = writeln!(out, "\nWRONG answers ({}):", wrong.len());
        for s in wrong {
            let _ = writeln!(out, "  {}: {}", s.row.path, wrong_detail(s));
        }
    }
    let errors: Vec<&Scored> = results.iter().filter(|s| s.outcome == Outcome::Error).collect();
    if !errors.is_empty() {
        let _ = writeln!(out, "\nerrors ({}):", errors.len());
        for s in errors {
            let _ = writeln!(out, "  {}: {}", s.row.path, error_detail(s));
        }
    }
    out
}

/// The run's resource figures (issue 12): the largest wall time beyond `timeout_secs` and the
/// largest peak resident memory, each with its program.
pub fn resources_text(results: &[Scored], timeout_secs: u64) -> String {
    let mut out = String::new();
    let over = results.iter().max_by(|a, b| a.run.seconds.total_cmp(&b.run.seconds));
    let peak = results.iter().max_by_key(|s| s.run.peak_kib);
    if let Some(s) = over {
        let _ = writeln!(out, "{:<24}{:>+8.2} s ({})", "max wall − timeout", s.run.seconds - timeout_secs as f64, s.row.path);
    }
    if let Some(s) = peak {
        let _ = writeln!(out, "{:<24}{:>8.1} MiB ({})", "peak memory", s.run.peak_kib as f64 / 1024.0, s.row.path);
    }
    out
}

/// Replaces tabs and line breaks so a value fits one TSV cell.
fn cell(text: &str) -> String {
    text.replace(['\t', '\n', '\r'], " ")
}

/// Per-file results: `path expected got memory_safety seconds outcome detail peak_kib`.
pub fn tsv_text(results: &[Scored]) -> String {
    let mut out = String::from("path\texpected\tgot\tmemory_safety\tseconds\toutcome\tdetail\tpeak_kib\n");
    for s in results {
        let detail = match s.outcome {
            Outcome::Error => error_detail(s),
            _ => s.run.reason.clone().unwrap_or_default(),
        };
        let _ = writeln!(
            out,
            "{}\t{}\t{}\t{}\t{:.3}\t{:?}\t{}\t{}",
            cell(&s.row.path),
            s.row.expected.word(),
            answer(&s.run),
            s.run.memory_safety.as_deref().unwrap_or("-"),
            s.run.seconds,
            s.outcome,
            cell(&detail),
            s.run.peak_kib
        );
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scored(path: &str, expected: Expected, first: &str, memory: Option<&str>, exit: Option<i32>, secs: f64) -> Scored {
        let run = RunResult {
            exit,
            killed: exit.is_none(),
            first_line: first.into(),
            memory_safety: memory.map(String::from),
            reason: (first == "MAYBE").then(|| "because\tof x".to_string()),
            stdout: String::new(),
            stderr_head: if exit == Some(2) { "termcheck::io".into() } else { String::new() },
            seconds: secs,
            peak_kib: 2048,
        };
        Scored::new(Row { path: path.into(), expected }, run)
    }

    #[test]
    fn median_of_odd_even_and_empty() {
        assert_eq!(median(&mut [3.0, 1.0, 2.0]), 2.0);
        assert_eq!(median(&mut [4.0, 1.0, 2.0, 3.0]), 2.5);
        assert_eq!(median(&mut []), 0.0);
    }

    #[test]
    fn summary_counts_and_lists_wrong_and_errors() {
        let results = vec![
            scored("a.c", Expected::Yes, "YES", Some("proved"), Some(0), 1.0),
            scored("b.c", Expected::No, "YES", Some("proved"), Some(0), 2.0),
            scored("c.c", Expected::Unsafe, "MAYBE", Some("violated"), Some(0), 3.0),
            scored("d.c", Expected::No, "", None, Some(2), 4.0),
            scored("e.c", Expected::Yes, "", None, None, 5.0),
        ];
        let text = summary_text(&results, 9.0);
        assert!(text.contains("solved YES                   1"), "{text}");
        assert!(text.contains("wrong                        1"), "{text}");
        assert!(text.contains("MAYBE                        1"), "{text}");
        assert!(text.contains("timeouts                     1"), "{text}");
        assert!(text.contains("errors                       1"), "{text}");
        assert!(text.contains("total                        5"), "{text}");
        assert!(text.contains("1 of 1 expected UNSAFE/UB"), "{text}");
        assert!(text.contains("median per program          3.00 s"), "{text}");
        assert!(text.contains("  b.c: expected NO, got YES"), "{text}");
        assert!(text.contains("  d.c: exit 2: termcheck::io"), "{text}");
    }

    #[test]
    fn tsv_has_one_clean_row_per_file() {
        let results = vec![scored("x y.c", Expected::Unsafe, "MAYBE", Some("violated"), Some(0), 1.5)];
        let text = tsv_text(&results);
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 2);
        assert_eq!(lines[1], "x y.c\tUNSAFE\tMAYBE\tviolated\t1.500\tMaybe\tbecause of x\t2048");
    }

    #[test]
    fn resources_name_the_longest_and_the_largest_run() {
        let mut results = vec![
            scored("a.c", Expected::Yes, "YES", Some("proved"), Some(0), 1.0),
            scored("b.c", Expected::No, "MAYBE", Some("proved"), Some(0), 31.25),
        ];
        results[0].run.peak_kib = 10 * 1024;
        let text = resources_text(&results, 30);
        assert!(text.contains("+1.25 s (b.c)"), "{text}");
        assert!(text.contains("10.0 MiB (a.c)"), "{text}");
    }
}
