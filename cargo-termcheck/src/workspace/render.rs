//! The human output of workspace mode: per owner (crate or C code of a package) one line per
//! function — verdict, memory safety, name, location — with the evidence `prove` prints
//! (reasons, ranking functions, witnesses) indented below anything short of YES with memory
//! safety proved; then what was not analysed, then the summary line.

use super::c_bitcode::NotAnalysed;
use super::verdicts::{display_name, FunctionVerdict, UnitOutcome};
use crate::render_human::{human_text, memory_word, summary_line, verdict_word};
use std::fmt::Write;
use termcheck_engine::verdict::{MemorySafety, Report, Termination};

/// Whether a function counts as proved: terminating and memory safe.
pub fn is_proved(f: &FunctionVerdict) -> bool {
    matches!(f.report.termination, Termination::Yes(_)) && f.report.memory_safety == MemorySafety::Proved
}

/// The evidence lines of a report (what `prove` prints after its two verdict lines), with
/// Rust symbols in backquotes demangled.
fn evidence_lines(f: &FunctionVerdict) -> Vec<String> {
    let report = Report { termination: f.report.termination.clone(), memory_safety: Some(f.report.memory_safety.clone()), stats: vec![] };
    human_text(&report).lines().skip(2).map(demangle_quoted).collect()
}

/// `line` with every `` `SYMBOL` `` that is a mangled Rust symbol replaced by its demangled name.
fn demangle_quoted(line: &str) -> String {
    let parts: Vec<&str> = line.split('`').collect();
    parts
        .iter()
        .enumerate()
        .map(|(i, part)| if i % 2 == 1 && i + 1 < parts.len() { display_name(part) } else { part.to_string() })
        .collect::<Vec<_>>()
        .join("`")
}

/// The whole text.
pub fn workspace_text(units: &[UnitOutcome], not_analysed: &[NotAnalysed], seconds: f64) -> String {
    let mut out = String::new();
    let mut owners: Vec<&str> = Vec::new();
    for f in units.iter().flat_map(|u| &u.functions) {
        if !owners.contains(&f.owner.as_str()) {
            owners.push(&f.owner);
        }
    }
    for owner in owners {
        let _ = writeln!(out, "{owner}");
        for f in units.iter().flat_map(|u| &u.functions).filter(|f| f.owner == owner) {
            let location = f.location.as_deref().unwrap_or("unknown location");
            let _ = writeln!(
                out,
                "  {:<5} memory-safety: {:<8} {} ({location})",
                verdict_word(&f.report.termination),
                memory_word(&f.report.memory_safety),
                f.display_name
            );
            if !is_proved(f) {
                for line in evidence_lines(f) {
                    let _ = writeln!(out, "        {line}");
                }
            }
        }
        out.push('\n');
    }
    let mut skipped: Vec<NotAnalysed> = not_analysed.to_vec();
    for unit in units {
        for (name, owner) in &unit.dropped {
            skipped.push(NotAnalysed { what: format!("{name} ({owner})"), why: "internal function referenced by nothing: dropped by the linker".into() });
        }
        if let Some(failure) = &unit.failure {
            skipped.push(NotAnalysed { what: unit.label.clone(), why: failure.lines().next().unwrap_or("").to_string() });
        }
    }
    if !skipped.is_empty() {
        let _ = writeln!(out, "not analysed:");
        for item in &skipped {
            let _ = writeln!(out, "  {}: {}", item.what, item.why);
        }
        out.push('\n');
    }
    let reports: Vec<_> = units.iter().flat_map(|u| u.functions.iter().map(|f| f.report.clone())).collect();
    let glue: usize = units.iter().map(|u| u.unreported_glue).sum();
    let _ = writeln!(out, "termcheck: {} ({glue} compiler-generated functions without a source location not reported); {seconds:.2} s", summary_line(&reports, None));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quoted_rust_symbols_in_reasons_are_demangled() {
        assert_eq!(
            demangle_quoted("reason: call of unknown external function `_RNvNtCsjrHSEGnQ3l9_3std3env4args` (line 15)"),
            "reason: call of unknown external function `std::env::args` (line 15)"
        );
        assert_eq!(demangle_quoted("call of `malloc` and `x"), "call of `malloc` and `x");
    }
}
