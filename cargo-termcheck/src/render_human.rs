//! The human output format: verdict line, memory-safety line, then the evidence as indented text.
//!
//! Line 1 is exactly `YES`, `NO` or `MAYBE`; line 2 is `memory-safety: proved|violated|unknown`
//! (absent for integer transition systems); for MAYBE the next line is `reason: …`.
//! With `--all-functions` ([`module_text`]): one block per function (`NAME (FILE:LINE)`,
//! `termination: WORD`, `memory-safety: WORD`, the same evidence), then a summary line.
//! docs/output-format.md describes the format; tools read only the first lines.

use std::fmt::Write as _;
use termcheck_engine::analysis::FunctionReport;
use termcheck_engine::logic::Int;
use termcheck_engine::verdict::{EntryBlock, MemorySafety, Report, Termination, Violation};

/// The `YES` / `NO` / `MAYBE` word of a termination verdict.
pub fn verdict_word(t: &Termination) -> &'static str {
    match t {
        Termination::Yes(_) => "YES",
        Termination::No(_) => "NO",
        Termination::Maybe { .. } => "MAYBE",
    }
}

/// The `proved` / `violated` / `unknown` word of a memory-safety verdict.
pub fn memory_word(m: &MemorySafety) -> &'static str {
    match m {
        MemorySafety::Proved => "proved",
        MemorySafety::Violated(_) => "violated",
        MemorySafety::Unknown { .. } => "unknown",
    }
}

/// Writes `label: text`, indenting continuation lines of a multi-line text under the label.
fn labelled(out: &mut String, indent: &str, label: &str, text: &str) {
    let mut lines = text.lines();
    let first = lines.next().unwrap_or("");
    let _ = writeln!(out, "{indent}{label}: {first}");
    for line in lines {
        let _ = writeln!(out, "{indent}  {line}");
    }
}

/// Writes the entry function's arguments one per line (`name = value`); nothing when the
/// entry has no parameters.
fn entry_args(out: &mut String, indent: &str, values: &[(String, Int)]) {
    if values.is_empty() {
        return;
    }
    let _ = writeln!(out, "{indent}entry arguments:");
    for (name, value) in values {
        let _ = writeln!(out, "{indent}  {name} = {value}");
    }
}

/// Writes the blocks the entry's pointer arguments point to, one per parameter: `p = pointer
/// to element 0 of a 4-element block of 4-byte integers: {1, 1, 1, 1}` (the bytes in hex when
/// they are no whole number of elements); nothing when the entry takes no pointer.
fn entry_memory(out: &mut String, indent: &str, blocks: &[EntryBlock]) {
    if blocks.is_empty() {
        return;
    }
    let _ = writeln!(out, "{indent}entry memory (blocks the pointer arguments point to, each allocated by the caller):");
    for b in blocks {
        let contents = match b.elements() {
            Some(values) if b.offset.is_multiple_of(b.element_size) => {
                let values: Vec<String> = values.iter().map(ToString::to_string).collect();
                format!("element {} of a {}-element block of {}-byte integers: {{{}}}", b.offset / b.element_size, values.len(), b.element_size, values.join(", "))
            }
            _ => {
                let bytes: Vec<String> = b.bytes.iter().map(|x| format!("{x:02x}")).collect();
                format!("byte {} of a {}-byte block: bytes [{}]", b.offset, b.size, bytes.join(" "))
            }
        };
        let _ = writeln!(out, "{indent}  {} = pointer to {contents}", b.param);
    }
}

/// Writes named values one per line (`name = value`), or `none`.
fn inputs(out: &mut String, indent: &str, values: &[(String, Int)]) {
    if values.is_empty() {
        let _ = writeln!(out, "{indent}inputs: none");
        return;
    }
    let _ = writeln!(out, "{indent}inputs (in order):");
    for (name, value) in values {
        let _ = writeln!(out, "{indent}  {name} = {value}");
    }
}

fn termination_evidence(out: &mut String, t: &Termination) {
    match t {
        Termination::Yes(proof) => {
            let _ = writeln!(out, "termination proof:");
            crate::render_proof::write_proof(out, proof);
            for note in &proof.notes {
                labelled(out, "  ", "note", note);
            }
        }
        Termination::No(witness) => {
            let _ = writeln!(out, "non-termination witness:");
            entry_args(out, "  ", &witness.entry_args);
            entry_memory(out, "  ", &witness.entry_memory);
            inputs(out, "  ", &witness.inputs);
            for line in &witness.description {
                let _ = writeln!(out, "  {line}");
            }
        }
        Termination::Maybe { reason } => labelled(out, "", "reason", reason),
    }
}

fn violation_evidence(out: &mut String, v: &Violation) {
    let _ = writeln!(out, "memory-safety violation:");
    labelled(out, "  ", "kind", &v.kind);
    labelled(out, "  ", "message", &v.message);
    labelled(out, "  ", "location", v.location.as_deref().unwrap_or("unknown"));
    entry_args(out, "  ", &v.entry_args);
    entry_memory(out, "  ", &v.entry_memory);
    inputs(out, "  ", &v.inputs);
}

/// The evidence after the verdict lines: termination evidence, memory-safety evidence, stats.
fn evidence(out: &mut String, termination: &Termination, memory_safety: Option<&MemorySafety>, stats: &[(String, String)]) {
    termination_evidence(out, termination);
    match memory_safety {
        Some(MemorySafety::Violated(v)) => violation_evidence(out, v),
        Some(MemorySafety::Unknown { reason }) => labelled(out, "", "memory-safety reason", reason),
        Some(MemorySafety::Proved) | None => {}
    }
    if !stats.is_empty() {
        let _ = writeln!(out, "stats:");
        for (key, value) in stats {
            let _ = writeln!(out, "  {key}: {value}");
        }
    }
}

/// The complete human-format text of a report.
pub fn human_text(report: &Report) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "{}", verdict_word(&report.termination));
    if let Some(ms) = &report.memory_safety {
        let _ = writeln!(out, "memory-safety: {}", memory_word(ms));
    }
    evidence(&mut out, &report.termination, report.memory_safety.as_ref(), &report.stats);
    out
}

/// The header of a function's block: `NAME (FILE:LINE)`, or `NAME (unknown location)`.
pub fn function_header(f: &FunctionReport) -> String {
    match &f.location {
        Some(loc) => format!("{} ({}:{})", f.name, loc.file, loc.line),
        None => format!("{} (unknown location)", f.name),
    }
}

/// `N functions: a YES, b NO, c MAYBE; memory safety proved for p, violated for v, unknown
/// for u` (`1 function: …` for one), or `no functions analysed: REASON` when the run ended
/// before the functions were known.
pub fn summary_line(functions: &[FunctionReport], unfinished: Option<&str>) -> String {
    if let (true, Some(reason)) = (functions.is_empty(), unfinished) {
        return format!("no functions analysed: {}", reason.lines().next().unwrap_or(""));
    }
    let count = |pred: &dyn Fn(&FunctionReport) -> bool| functions.iter().filter(|f| pred(f)).count();
    let yes = count(&|f| matches!(f.termination, Termination::Yes(_)));
    let no = count(&|f| matches!(f.termination, Termination::No(_)));
    let maybe = count(&|f| matches!(f.termination, Termination::Maybe { .. }));
    let proved = count(&|f| matches!(f.memory_safety, MemorySafety::Proved));
    let violated = count(&|f| matches!(f.memory_safety, MemorySafety::Violated(_)));
    let unknown = count(&|f| matches!(f.memory_safety, MemorySafety::Unknown { .. }));
    let noun = if functions.len() == 1 { "function" } else { "functions" };
    format!(
        "{} {noun}: {yes} YES, {no} NO, {maybe} MAYBE; memory safety proved for {proved}, violated for {violated}, unknown for {unknown}",
        functions.len()
    )
}

/// The human text of an `--all-functions` run: per function (module order) a block of the
/// header line, `termination: WORD`, `memory-safety: WORD` and the evidence `prove` prints,
/// blocks separated by an empty line; then an empty line and the summary line.
/// `unfinished` is the reason when the engine gave no report (timeout, internal error).
pub fn module_text(functions: &[FunctionReport], unfinished: Option<&str>) -> String {
    let mut out = String::new();
    for f in functions {
        let _ = writeln!(out, "{}", function_header(f));
        let _ = writeln!(out, "termination: {}", verdict_word(&f.termination));
        let _ = writeln!(out, "memory-safety: {}", memory_word(&f.memory_safety));
        evidence(&mut out, &f.termination, Some(&f.memory_safety), &f.stats);
        out.push('\n');
    }
    let _ = writeln!(out, "{}", summary_line(functions, unfinished));
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use termcheck_engine::logic::{LinExpr, Var};
    use termcheck_engine::ir::SrcLoc;
    use termcheck_engine::verdict::{ComponentProof, NonTerminationWitness, RankingPhase, SourceLoop, TerminationProof};

    #[test]
    fn yes_lists_ranking_functions_per_component_and_phase() {
        let f = LinExpr { coeffs: [(Var::new("i"), 1)].into_iter().collect(), constant: 0 };
        let report = Report {
            termination: Termination::Yes(TerminationProof {
                components: vec![ComponentProof {
                    locations: vec!["loop".into()],
                    phases: vec![RankingPhase { functions: vec![("loop".into(), f)], kind: "linear".into(), depth: 1, removes: vec![], expressions: vec![] }],
                    loops: vec![Some(SourceLoop { file: "a.c".into(), line: 3, column: 5, function: "main".into(), header: "loop".into() })],
                    invariants: vec![],
                }],
                notes: vec![],
            }),
            memory_safety: Some(MemorySafety::Proved),
            stats: vec![],
        };
        assert_eq!(
            human_text(&report),
            "YES\nmemory-safety: proved\ntermination proof:\n  loop a.c:3:5 in main:\n    ranking function (linear): i\n"
        );
    }

    #[test]
    fn no_lists_inputs_in_order_and_description() {
        let report = Report {
            termination: Termination::No(NonTerminationWitness {
                inputs: vec![("b".into(), 2), ("a".into(), -1)],
                description: vec!["cycle at l1".into()],
                ..Default::default()
            }),
            memory_safety: None,
            stats: vec![],
        };
        assert_eq!(
            human_text(&report),
            "NO\nnon-termination witness:\n  inputs (in order):\n    b = 2\n    a = -1\n  cycle at l1\n"
        );
    }

    #[test]
    fn maybe_with_violation_shows_reason_then_violation() {
        let report = Report {
            termination: Termination::Maybe { reason: "line one\nline two".into() },
            memory_safety: Some(MemorySafety::Violated(Violation {
                kind: "out-of-bounds".into(),
                message: "store past the end".into(),
                location: None,
                inputs: vec![],
                entry_args: vec![],
                entry_memory: vec![],
            })),
            stats: vec![("nodes".into(), "3".into())],
        };
        assert_eq!(
            human_text(&report),
            "MAYBE\nmemory-safety: violated\nreason: line one\n  line two\nmemory-safety violation:\n  kind: out-of-bounds\n  message: store past the end\n  location: unknown\n  inputs: none\nstats:\n  nodes: 3\n"
        );
    }

    #[test]
    fn entry_memory_shows_elements_or_bytes() {
        let block = |element_size, offset, bytes: Vec<u8>| EntryBlock { param: "a".into(), index: 0, size: bytes.len() as u64, offset, bytes, element_size };
        let mut out = String::new();
        entry_memory(&mut out, "", &[block(4, 4, vec![1, 0, 0, 0, 0xff, 0xff, 0xff, 0xff]), block(4, 0, vec![1, 2, 3]), block(2, 1, vec![1, 0])]);
        assert_eq!(
            out,
            "entry memory (blocks the pointer arguments point to, each allocated by the caller):\n  \
             a = pointer to element 1 of a 2-element block of 4-byte integers: {1, -1}\n  \
             a = pointer to byte 0 of a 3-byte block: bytes [01 02 03]\n  \
             a = pointer to byte 1 of a 2-byte block: bytes [01 00]\n"
        );
    }

    fn function(name: &str, termination: Termination, memory_safety: MemorySafety) -> FunctionReport {
        FunctionReport {
            name: name.into(),
            location: Some(SrcLoc { file: "f.c".into(), line: 3, col: 1 }),
            termination,
            memory_safety,
            seconds: 0.5,
            stats: vec![],
        }
    }

    #[test]
    fn all_functions_blocks_then_summary() {
        let mut unlocated = function("g", Termination::No(NonTerminationWitness::default()), MemorySafety::Proved);
        unlocated.location = None;
        let functions = vec![
            function("f", Termination::Maybe { reason: "r".into() }, MemorySafety::Unknown { reason: "m".into() }),
            unlocated,
        ];
        assert_eq!(
            module_text(&functions, None),
            "f (f.c:3)\ntermination: MAYBE\nmemory-safety: unknown\nreason: r\nmemory-safety reason: m\n\n\
             g (unknown location)\ntermination: NO\nmemory-safety: proved\nnon-termination witness:\n  inputs: none\n\n\
             2 functions: 0 YES, 1 NO, 1 MAYBE; memory safety proved for 1, violated for 0, unknown for 1\n"
        );
    }

    #[test]
    fn summary_of_one_function_and_of_none() {
        let one = vec![function("f", Termination::Yes(TerminationProof::default()), MemorySafety::Proved)];
        assert_eq!(summary_line(&one, None), "1 function: 1 YES, 0 NO, 0 MAYBE; memory safety proved for 1, violated for 0, unknown for 0");
        assert_eq!(summary_line(&[], None), "0 functions: 0 YES, 0 NO, 0 MAYBE; memory safety proved for 0, violated for 0, unknown for 0");
        assert_eq!(module_text(&[], Some("timeout after 3 s")), "no functions analysed: timeout after 3 s\n");
    }

    #[test]
    fn unknown_memory_safety_gives_its_reason() {
        let report = Report {
            termination: Termination::Maybe { reason: "r".into() },
            memory_safety: Some(MemorySafety::Unknown { reason: "m".into() }),
            stats: vec![],
        };
        assert_eq!(human_text(&report), "MAYBE\nmemory-safety: unknown\nreason: r\nmemory-safety reason: m\n");
    }
}
