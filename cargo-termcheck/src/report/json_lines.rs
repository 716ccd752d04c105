//! `--message-format json` for a gated run: one JSON object per line, keyed by a cargo-style
//! `reason` (`termcheck-function`, `termcheck-not-analysed`, `termcheck-unused-allow`,
//! `termcheck-summary`), each carrying `schema_version` (docs/output-format.md, "Policy messages").

use super::verdict_words::{memory_word, termination_word};
use crate::policy::{AllowUse, Assumption, AssumptionBasis, CheckFinding, Evaluation, FunctionFinding, LevelOrigin, PolicySource};
use serde_json::{json, Value};

/// Version of the messages' schema; raised on any incompatible change.
pub const JSON_SCHEMA_VERSION: u32 = 1;

/// Every message of `evaluation`, one JSON object per line: functions, not-analysed items,
/// unused allow entries, then the summary.
pub fn render_json_lines(evaluation: &Evaluation<'_>) -> String {
    let mut lines: Vec<Value> = Vec::new();
    lines.extend(evaluation.functions.iter().map(function_message));
    lines.extend(evaluation.not_analysed.iter().map(|item| {
        json!({
            "reason": "termcheck-not-analysed",
            "schema_version": JSON_SCHEMA_VERSION,
            "what": item.item.what,
            "crate": item.item.crate_name,
            "finding": finding_json(&item.finding),
        })
    }));
    lines.extend(evaluation.unused_allows.iter().map(|unused| {
        json!({
            "reason": "termcheck-unused-allow",
            "schema_version": JSON_SCHEMA_VERSION,
            "check": "unused-allow",
            "code": crate::policy::Check::UnusedAllow.code(),
            "level": unused.level,
            "message": unused.explanation(),
            "matched_functions": unused.matched_functions,
            "allow": allow_json(&unused.entry),
        })
    }));
    lines.push(summary_message(evaluation));
    lines.iter().map(|line| format!("{line}\n")).collect()
}

fn function_message(function: &FunctionFinding<'_>) -> Value {
    let result = function.result;
    let report = &result.report;
    json!({
        "reason": "termcheck-function",
        "schema_version": JSON_SCHEMA_VERSION,
        "crate": result.crate_name,
        "symbol": result.symbol,
        "path": result.path,
        "location": result.location.as_ref().map(|l| json!({ "file": l.file, "line": l.line })),
        "status": function.status.key(),
        "verdict": termination_word(&report.termination),
        "memory_safety": memory_word(&report.memory_safety),
        "termination": crate::render_json::termination_value(&report.termination),
        "memory": crate::render_json::memory_value(&report.memory_safety),
        "findings": function.findings.iter().map(finding_json).collect::<Vec<_>>(),
        "assumptions": function.assumptions.iter().map(assumption_json).collect::<Vec<_>>(),
        "seconds": if report.seconds.is_finite() { report.seconds } else { 0.0 },
    })
}

fn finding_json(finding: &CheckFinding) -> Value {
    let (source, scope) = match finding.origin {
        LevelOrigin::Default => ("default", None),
        LevelOrigin::Checks => ("checks", None),
        LevelOrigin::Scope(index) => ("scope", Some(index)),
    };
    json!({
        "check": finding.check,
        "code": finding.check.code(),
        "level": finding.level,
        "configured_level": finding.configured,
        "level_source": source,
        "scope_index": scope,
        "detail": finding.detail,
        "allowed_by": finding.allowed_by.as_ref().map(allow_json),
    })
}

fn allow_json(entry: &AllowUse) -> Value {
    json!({ "index": entry.index, "function": entry.pattern, "reason": entry.reason, "line": entry.line, "source": if entry.from_annotation { "annotation" } else { "termcheck.toml" } })
}

fn assumption_json(assumption: &Assumption) -> Value {
    let property = match assumption.property {
        crate::policy::AssumedProperty::Terminates => "terminates",
        crate::policy::AssumedProperty::IsMemorySafe => "memory-safe",
        crate::policy::AssumedProperty::TerminatesAndIsMemorySafe => "terminates-and-memory-safe",
    };
    let basis = match &assumption.basis {
        AssumptionBasis::Allowed(entry) => json!({ "kind": "allowed", "allow": allow_json(entry) }),
        AssumptionBasis::LevelAllow { check, .. } => json!({ "kind": "level-allow", "check": check }),
        AssumptionBasis::NotProved { check, level } => json!({ "kind": "not-proved", "check": check, "level": level }),
        AssumptionBasis::NotAnalysed { reason } => json!({ "kind": "not-analysed", "detail": reason }),
    };
    json!({
        "callee": assumption.callee_path,
        "callee_symbol": assumption.callee_symbol,
        "property": property,
        "basis": basis,
        "message": assumption.describe(),
    })
}

fn summary_message(evaluation: &Evaluation<'_>) -> Value {
    let c = evaluation.counts();
    let policy_file = match &evaluation.policy_source {
        PolicySource::File(path) => Some(path.display().to_string()),
        PolicySource::Defaults => None,
    };
    json!({
        "reason": "termcheck-summary",
        "schema_version": JSON_SCHEMA_VERSION,
        "policy": if evaluation.policy_met() { "met" } else { "violated" },
        "exit_code": evaluation.exit_code(),
        "policy_file": policy_file,
        "functions": c.functions,
        "proved": c.proved,
        "proved_assuming": c.proved_assuming,
        "allowed": c.allowed,
        "warnings": c.warnings,
        "errors": c.errors,
        "not_analysed": c.not_analysed,
        "unused_allows": c.unused_allows,
        "denied_findings": c.denied,
        "warned_findings": c.warned,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::policy::{evaluate, FunctionResult, NotAnalysed, Policy};
    use std::path::Path;
    use termcheck_engine::analysis::FunctionReport;
    use termcheck_engine::verdict::{MemorySafety, Termination};

    #[test]
    fn every_line_is_one_versioned_object_and_the_summary_comes_last() {
        let report = FunctionReport {
            name: "f".into(),
            location: None,
            termination: Termination::Maybe { reason: "timeout".into() },
            memory_safety: MemorySafety::Unknown { reason: "timeout".into() },
            seconds: f64::NAN,
            stats: vec![],
        };
        let results = [FunctionResult { crate_name: Some("c".into()), symbol: "f".into(), path: "c::f".into(), location: None, report }];
        let missing = [NotAnalysed { what: "libx.a".into(), reason: "make".into(), crate_name: None }];
        let policy = crate::policy::parse_policy("[[allow]]\nfunction = \"gone\"\nreason = \"r\"\n", Path::new("/ws/termcheck.toml"), Path::new("/ws")).expect("policy");
        let text = render_json_lines(&evaluate(&policy, &results, &missing, None));
        let lines: Vec<Value> = text.lines().map(|l| serde_json::from_str(l).expect("one JSON object per line")).collect();
        let reasons: Vec<&str> = lines.iter().map(|l| l["reason"].as_str().expect("reason")).collect();
        assert_eq!(reasons, ["termcheck-function", "termcheck-not-analysed", "termcheck-unused-allow", "termcheck-summary"]);
        assert!(lines.iter().all(|l| l["schema_version"] == JSON_SCHEMA_VERSION));
        assert_eq!(lines[0]["seconds"], 0.0, "a non-finite time is written as 0, JSON has no NaN");
        assert_eq!(lines[0]["findings"][0]["check"], "timeout");
        assert_eq!(lines[3]["policy"], "met");
        assert_eq!(lines[3]["warned_findings"], 3);
        let _ = Policy::defaults(Path::new("/"));
    }
}
