//! The JSON output format (`--format json`): one object, schema in docs/output-format.md.
//!
//! Built by hand from the engine's types (not derived) so that the documented schema stays
//! stable when the engine's internal representation changes.

use crate::linear_text::linear_text;
use crate::render_human::{memory_word, verdict_word};
use serde::Serialize;
use serde_json::{json, Map, Value};
use termcheck_engine::analysis::FunctionReport;
use termcheck_engine::logic::{Int, LinExpr};
use termcheck_engine::verdict::{EntryBlock, MemorySafety, Report, SourceExpr, SourceLoop, Termination};

/// Version of the schema in docs/output-format.md; bumped on incompatible changes.
pub const FORMAT_VERSION: u64 = 1;

/// An integer as a JSON number when it fits 64 bits, otherwise as a decimal string.
fn int_value(v: Int) -> Value {
    if let Ok(i) = i64::try_from(v) {
        Value::from(i)
    } else if let Ok(u) = u64::try_from(v) {
        Value::from(u)
    } else {
        Value::from(v.to_string())
    }
}

fn named_values(values: &[(String, Int)]) -> Value {
    values.iter().map(|(name, value)| json!({ "name": name, "value": int_value(*value) })).collect()
}

fn source_exprs(exprs: &[SourceExpr]) -> Value {
    exprs.iter().map(|e| json!({ "location": e.location, "text": e.text, "internal": e.internal })).collect()
}

fn source_loop(l: &Option<SourceLoop>) -> Value {
    match l {
        Some(l) => json!({ "file": l.file, "line": l.line, "column": l.column, "function": l.function, "header": l.header }),
        None => Value::Null,
    }
}

fn function_value(location: &str, f: &LinExpr) -> Value {
    let coefficients: Map<String, Value> =
        f.coeffs.iter().map(|(var, c)| (var.name().to_string(), int_value(*c))).collect();
    json!({
        "location": location,
        "function": linear_text(f),
        "coefficients": coefficients,
        "constant": int_value(f.constant),
    })
}

pub(crate) fn termination_value(t: &Termination) -> Value {
    match t {
        Termination::Yes(proof) => json!({
            "result": "YES",
            "components": proof.components.iter().map(|c| json!({
                "locations": c.locations,
                "loops": c.loops.iter().map(source_loop).collect::<Vec<_>>(),
                "phases": c.phases.iter().map(|p| json!({
                    "kind": p.kind,
                    "depth": p.depth,
                    "functions": p.functions.iter().map(|(loc, f)| function_value(loc, f)).collect::<Vec<_>>(),
                    "expressions": source_exprs(&p.expressions),
                    "removes": p.removes,
                })).collect::<Vec<_>>(),
                "invariants": source_exprs(&c.invariants),
            })).collect::<Vec<_>>(),
            "notes": proof.notes,
        }),
        Termination::No(w) => json!({
            "result": "NO",
            "entry_args": named_values(&w.entry_args),
            "entry_memory": entry_blocks(&w.entry_memory),
            "inputs": named_values(&w.inputs),
            "input_cycle": named_values(&w.input_cycle),
            "any_further_inputs": w.any_further_inputs,
            "description": w.description,
            "recurrent_set": w.recurrent_set.as_ref().map(|r| json!({
                "function": r.function,
                "header": r.header,
                "depth": r.depth,
                "stem_inputs": named_values(&r.stem_inputs),
                "stem_steps": r.stem_steps,
                "fixed_input": r.fixed_input.map(|c| c.to_string()),
                "set": r.set.to_string(),
                "set_formula": serde_json::to_value(&r.set).unwrap_or(Value::Null),
                "inner_sets": r.inner_sets.iter().map(|s| json!({ "header": s.header, "set": s.set.to_string(), "set_formula": serde_json::to_value(&s.set).unwrap_or(Value::Null) })).collect::<Vec<_>>(),
                "recursion": r.recursion,
            })),
            "recursion": w.recursion,
            "its_lasso": w.its_lasso.as_ref().map(|l| json!({
                "stem": l.stem.iter().map(|s| json!({ "from": s.from, "to": s.to, "rule": s.rule, "state": named_values(&s.state) })).collect::<Vec<_>>(),
                "location": l.location,
                "set": l.set.to_string(),
                "set_formula": serde_json::to_value(&l.set).unwrap_or(Value::Null),
                "loops": l.loops,
            })),
        }),
        Termination::Maybe { reason } => json!({ "result": "MAYBE", "reason": reason }),
    }
}

/// A witness's initial memory: `{ "param", "index", "size", "offset", "element_size",
/// "bytes" }` per block (docs/output-format.md).
fn entry_blocks(blocks: &[EntryBlock]) -> Value {
    Value::Array(
        blocks
            .iter()
            .map(|b| json!({ "param": b.param, "index": b.index, "size": b.size, "offset": b.offset, "element_size": b.element_size, "bytes": b.bytes }))
            .collect(),
    )
}

pub(crate) fn memory_value(m: &MemorySafety) -> Value {
    match m {
        MemorySafety::Proved => json!({ "result": "proved" }),
        MemorySafety::Violated(v) => json!({
            "result": "violated",
            "kind": v.kind,
            "message": v.message,
            "location": v.location,
            "entry_args": named_values(&v.entry_args),
            "entry_memory": entry_blocks(&v.entry_memory),
            "inputs": named_values(&v.inputs),
        }),
        MemorySafety::Unknown { reason } => json!({ "result": "unknown", "reason": reason }),
    }
}

/// The top-level object; a struct so that the keys keep the documented order (verdict first).
#[derive(Serialize)]
struct JsonReport {
    verdict: &'static str,
    memory_safety: Option<&'static str>,
    termination: Value,
    memory: Option<Value>,
    stats: Map<String, Value>,
    time_ms: u64,
    format_version: u64,
}

fn json_report(report: &Report, time_ms: u128) -> JsonReport {
    JsonReport {
        verdict: verdict_word(&report.termination),
        memory_safety: report.memory_safety.as_ref().map(memory_word),
        termination: termination_value(&report.termination),
        memory: report.memory_safety.as_ref().map(memory_value),
        stats: report.stats.iter().map(|(k, v)| (k.clone(), Value::from(v.clone()))).collect(),
        time_ms: u64::try_from(time_ms).unwrap_or(u64::MAX),
        format_version: FORMAT_VERSION,
    }
}

/// The JSON object of a report, with the analysis wall time in milliseconds.
#[cfg(test)]
pub fn json_value(report: &Report, time_ms: u128) -> Value {
    serde_json::to_value(json_report(report, time_ms)).expect("plain data serializes")
}

/// The JSON text (one line) of a report, keys in the documented order.
pub fn json_text(report: &Report, time_ms: u128) -> String {
    let text = serde_json::to_string(&json_report(report, time_ms)).expect("plain data serializes");
    format!("{text}\n")
}

/// One function of an `--all-functions` run; keys in the documented order.
#[derive(Serialize)]
struct JsonFunction {
    name: String,
    location: Option<Value>,
    verdict: &'static str,
    memory_safety: &'static str,
    termination: Value,
    memory: Value,
    seconds: f64,
    stats: Map<String, Value>,
}

/// The top-level object of an `--all-functions` run.
#[derive(Serialize)]
struct JsonModuleReport {
    functions: Vec<JsonFunction>,
    analysed: usize,
    reused: usize,
    /// Callee summaries the run's module-wide summary store received, and calls served from it.
    summaries_stored: u64,
    calls_served_from_summaries: u64,
    /// Summaries loaded from the summary cache on disk, and calls served from those.
    summaries_loaded_from_disk: u64,
    calls_served_from_disk: u64,
    seconds: f64,
    reason: Option<String>,
    time_ms: u64,
    format_version: u64,
}

/// Finite seconds for JSON (serde_json writes NaN and infinities as null).
fn finite(seconds: f64) -> f64 {
    if seconds.is_finite() { seconds } else { 0.0 }
}

fn json_function(f: &FunctionReport) -> JsonFunction {
    JsonFunction {
        name: f.name.clone(),
        location: f.location.as_ref().map(|l| json!({ "file": l.file, "line": l.line, "column": l.col })),
        verdict: verdict_word(&f.termination),
        memory_safety: memory_word(&f.memory_safety),
        termination: termination_value(&f.termination),
        memory: memory_value(&f.memory_safety),
        seconds: finite(f.seconds),
        stats: f.stats.iter().map(|(k, v)| (k.clone(), Value::from(v.clone()))).collect(),
    }
}

/// What an `--all-functions` run hands to the JSON renderer.
pub struct ModuleRun<'a> {
    pub functions: &'a [FunctionReport],
    pub analysed: usize,
    pub reused: usize,
    /// Callee summaries stored in the run's summary store, and calls served from it.
    pub summaries_stored: u64,
    pub calls_served_from_summaries: u64,
    /// Summaries loaded from the summary cache on disk, and calls served from those.
    pub summaries_loaded_from_disk: u64,
    pub calls_served_from_disk: u64,
    /// The engine's time for the run.
    pub seconds: f64,
    /// Why the engine gave no report (timeout, internal error); `None` when it did.
    pub unfinished: Option<&'a str>,
}

fn json_module_report(run: &ModuleRun<'_>, time_ms: u128) -> JsonModuleReport {
    JsonModuleReport {
        functions: run.functions.iter().map(json_function).collect(),
        analysed: run.analysed,
        reused: run.reused,
        summaries_stored: run.summaries_stored,
        calls_served_from_summaries: run.calls_served_from_summaries,
        summaries_loaded_from_disk: run.summaries_loaded_from_disk,
        calls_served_from_disk: run.calls_served_from_disk,
        seconds: finite(run.seconds),
        reason: run.unfinished.map(String::from),
        time_ms: u64::try_from(time_ms).unwrap_or(u64::MAX),
        format_version: FORMAT_VERSION,
    }
}

/// The JSON text (one line) of an `--all-functions` run.
pub fn module_json_text(run: &ModuleRun<'_>, time_ms: u128) -> String {
    let text = serde_json::to_string(&json_module_report(run, time_ms)).expect("plain data serializes");
    format!("{text}\n")
}

#[cfg(test)]
mod tests {
    use super::*;
    use termcheck_engine::logic::Var;
    use termcheck_engine::verdict::{ComponentProof, NonTerminationWitness, RankingPhase, SourceLoop, TerminationProof, Violation};

    #[test]
    fn its_maybe_has_null_memory_fields() {
        let report = Report { termination: Termination::Maybe { reason: "r".into() }, memory_safety: None, stats: vec![] };
        let v = json_value(&report, 12);
        assert_eq!(
            v,
            json!({"verdict": "MAYBE", "memory_safety": null, "termination": {"result": "MAYBE", "reason": "r"},
                   "memory": null, "stats": {}, "time_ms": 12, "format_version": 1})
        );
    }

    #[test]
    fn all_functions_object_lists_functions_in_order() {
        use termcheck_engine::ir::SrcLoc;
        let functions = vec![
            FunctionReport {
                name: "f".into(),
                location: Some(SrcLoc { file: "a.c".into(), line: 3, col: 5 }),
                termination: Termination::Maybe { reason: "r".into() },
                memory_safety: MemorySafety::Unknown { reason: "m".into() },
                seconds: 1.5,
                stats: vec![("nodes".into(), "2".into())],
            },
            FunctionReport {
                name: "g".into(),
                location: None,
                termination: Termination::No(NonTerminationWitness::default()),
                memory_safety: MemorySafety::Proved,
                seconds: f64::NAN,
                stats: vec![],
            },
        ];
        let run = ModuleRun { functions: &functions, analysed: 2, reused: 0, summaries_stored: 0, calls_served_from_summaries: 0, summaries_loaded_from_disk: 0, calls_served_from_disk: 0, seconds: 2.0, unfinished: None };
        let text = module_json_text(&run, 7);
        assert!(text.ends_with("}\n") && !text.trim_end().contains('\n'), "{text}");
        let v: Value = serde_json::from_str(&text).unwrap();
        assert_eq!(
            v["functions"][0],
            json!({"name": "f", "location": {"file": "a.c", "line": 3, "column": 5}, "verdict": "MAYBE",
                   "memory_safety": "unknown", "termination": {"result": "MAYBE", "reason": "r"},
                   "memory": {"result": "unknown", "reason": "m"}, "seconds": 1.5, "stats": {"nodes": "2"}})
        );
        assert_eq!(v["functions"][1]["location"], Value::Null);
        assert_eq!(v["functions"][1]["verdict"], "NO");
        assert_eq!(v["functions"][1]["seconds"], 0.0);
        assert_eq!(v["analysed"], 2);
        assert_eq!(v["reused"], 0);
        assert_eq!(v["seconds"], 2.0);
        assert_eq!(v["reason"], Value::Null);
        assert_eq!(v["time_ms"], 7);
        assert_eq!(v["format_version"], 1);
        assert!(text.starts_with("{\"functions\":[{\"name\":\"f\","), "{text}");
    }

    #[test]
    fn text_starts_with_the_verdict() {
        let report = Report { termination: Termination::Maybe { reason: "r".into() }, memory_safety: None, stats: vec![] };
        let text = json_text(&report, 5);
        assert!(text.starts_with("{\"verdict\":\"MAYBE\",\"memory_safety\":null,\"termination\":"), "{text}");
        assert!(text.ends_with("\"time_ms\":5,\"format_version\":1}\n"), "{text}");
    }

    #[test]
    fn yes_carries_functions_with_coefficients() {
        let f = LinExpr { coeffs: [(Var::new("x"), 2)].into_iter().collect(), constant: -1 };
        let report = Report {
            termination: Termination::Yes(TerminationProof {
                components: vec![ComponentProof {
                    locations: vec!["l".into()],
                    phases: vec![RankingPhase { functions: vec![("l".into(), f)], kind: "linear".into(), depth: 1, removes: vec!["graph path n1 → n1".into()], expressions: vec![] }],
                    loops: vec![Some(SourceLoop { file: "a.c".into(), line: 3, column: 5, function: "main".into(), header: "l".into() })],
                    invariants: vec![],
                }],
                notes: vec!["n".into()],
            }),
            memory_safety: Some(MemorySafety::Proved),
            stats: vec![("nodes".into(), "4".into())],
        };
        let v = json_value(&report, 0);
        assert_eq!(v["verdict"], "YES");
        assert_eq!(v["memory_safety"], "proved");
        assert_eq!(v["memory"], json!({"result": "proved"}));
        assert_eq!(v["stats"], json!({"nodes": "4"}));
        assert_eq!(
            v["termination"]["components"][0]["phases"][0]["functions"][0],
            json!({"location": "l", "function": "2*x - 1", "coefficients": {"x": 2}, "constant": -1})
        );
        assert_eq!(v["termination"]["notes"], json!(["n"]));
    }

    #[test]
    fn no_and_violation_carry_inputs_and_huge_values_as_strings() {
        let report = Report {
            termination: Termination::No(NonTerminationWitness {
                inputs: vec![("n".into(), 5), ("big".into(), i128::MAX)],
                description: vec!["d".into()],
                ..Default::default()
            }),
            memory_safety: Some(MemorySafety::Violated(Violation {
                kind: "k".into(),
                message: "m".into(),
                location: Some("main:3".into()),
                inputs: vec![("u".into(), u64::MAX as i128)],
                entry_args: vec![("n".into(), -3)],
                entry_memory: vec![EntryBlock { param: "p".into(), index: 1, size: 2, offset: 1, bytes: vec![7, 255], element_size: 1 }],
            })),
            stats: vec![],
        };
        let v = json_value(&report, 0);
        assert_eq!(v["memory_safety"], "violated");
        assert_eq!(
            v["termination"]["inputs"],
            json!([{"name": "n", "value": 5}, {"name": "big", "value": i128::MAX.to_string()}])
        );
        assert_eq!(
            v["memory"],
            json!({"result": "violated", "kind": "k", "message": "m", "location": "main:3",
                   "entry_args": [{"name": "n", "value": -3}],
                   "entry_memory": [{"param": "p", "index": 1, "size": 2, "offset": 1, "element_size": 1, "bytes": [7, 255]}],
                   "inputs": [{"name": "u", "value": u64::MAX}]})
        );
    }
}
