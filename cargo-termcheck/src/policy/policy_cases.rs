//! Data-driven tests of the gate: each `tests/policy_cases/NAME.toml` holds a policy and the
//! engine results of a made-up workspace, `NAME.out` the human report, the JSON lines and the
//! exit code they must give; each `tests/policy_errors/NAME.toml` is a broken policy file and
//! `NAME.out` the diagnostic it must give. `TERMCHECK_BLESS=1` rewrites the `.out` files.
//! Every case's SARIF log is validated against the SARIF 2.1.0 schema.

use super::{evaluate, parse_policy, CallGraph, FunctionResult, NotAnalysed, Policy, SourceLocation};
use crate::report::{render_human, render_json_lines, render_sarif};
use serde::Deserialize;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use termcheck_engine::analysis::FunctionReport;
use termcheck_engine::verdict::{MemorySafety, NonTerminationWitness, Termination, TerminationProof, Violation};

/// The workspace root every case pretends to have.
const WORKSPACE_ROOT: &str = "/ws";

#[derive(Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
struct Case {
    #[allow(dead_code, reason = "documents the case for readers")]
    description: String,
    /// The termcheck.toml text (absent: no file, the defaults).
    policy: Option<String>,
    #[serde(default)]
    function: Vec<CaseFunction>,
    #[serde(default)]
    not_analysed: Vec<CaseNotAnalysed>,
    /// caller symbol -> callee symbols (absent: no call graph given).
    calls: Option<BTreeMap<String, Vec<String>>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
struct CaseFunction {
    #[serde(rename = "crate")]
    crate_name: Option<String>,
    symbol: Option<String>,
    path: String,
    file: Option<String>,
    line: Option<u32>,
    /// `yes`, `no: witness description` or `maybe: reason`.
    termination: String,
    /// `proved`, `violated: kind: message` or `unknown: reason`.
    memory: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
struct CaseNotAnalysed {
    what: String,
    reason: String,
    #[serde(rename = "crate")]
    crate_name: Option<String>,
}

fn termination_of(text: &str) -> Termination {
    match text.split_once(": ") {
        _ if text == "yes" => Termination::Yes(TerminationProof::default()),
        Some(("no", witness)) => Termination::No(NonTerminationWitness { description: vec![witness.to_string()], ..Default::default() }),
        Some(("maybe", reason)) => Termination::Maybe { reason: reason.to_string() },
        _ => panic!("bad termination `{text}`"),
    }
}

fn memory_of(text: &str) -> MemorySafety {
    match text.split_once(": ") {
        _ if text == "proved" => MemorySafety::Proved,
        Some(("unknown", reason)) => MemorySafety::Unknown { reason: reason.to_string() },
        Some(("violated", rest)) => {
            let (kind, message) = rest.split_once(": ").unwrap_or_else(|| panic!("bad violation `{text}`"));
            MemorySafety::Violated(Violation { kind: kind.into(), message: message.into(), location: None, inputs: vec![], entry_args: vec![], entry_memory: vec![] })
        }
        _ => panic!("bad memory verdict `{text}`"),
    }
}

fn function_result(f: &CaseFunction) -> FunctionResult {
    let symbol = f.symbol.clone().unwrap_or_else(|| f.path.clone());
    FunctionResult {
        crate_name: f.crate_name.clone(),
        symbol: symbol.clone(),
        path: f.path.clone(),
        location: f.file.as_ref().map(|file| SourceLocation { file: file.clone(), line: f.line.unwrap_or(1) }),
        report: FunctionReport {
            name: symbol,
            location: None,
            termination: termination_of(&f.termination),
            memory_safety: memory_of(&f.memory),
            seconds: 0.0,
            stats: vec![],
        },
    }
}

fn case_dir(kind: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests").join(kind)
}

fn case_files(kind: &str) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(case_dir(kind))
        .unwrap_or_else(|e| panic!("{kind}: {e}"))
        .map(|entry| entry.expect("dir entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "toml"))
        .collect();
    files.sort();
    assert!(!files.is_empty(), "no cases in tests/{kind}");
    files
}

fn policy_of(text: Option<&str>) -> Policy {
    let root = Path::new(WORKSPACE_ROOT);
    match text {
        None => Policy::defaults(root),
        Some(text) => parse_policy(text, &root.join("termcheck.toml"), root).unwrap_or_else(|e| panic!("{e:?}")),
    }
}

/// Compares `actual` with the `.out` file next to `case`, or writes it under TERMCHECK_BLESS.
fn check_expected(case: &Path, actual: &str, failures: &mut Vec<String>) {
    let expected_path = case.with_extension("out");
    if std::env::var_os("TERMCHECK_BLESS").is_some() {
        std::fs::write(&expected_path, actual).expect("write blessed output");
        return;
    }
    let expected = std::fs::read_to_string(&expected_path).unwrap_or_default();
    if expected != actual {
        failures.push(format!("{}: output differs (TERMCHECK_BLESS=1 rewrites it)\n--- expected\n{expected}\n--- actual\n{actual}", case.display()));
    }
}

struct LoadedCase {
    policy: Policy,
    results: Vec<FunctionResult>,
    not_analysed: Vec<NotAnalysed>,
    graph: Option<CallGraph>,
}

fn load_case(path: &Path) -> LoadedCase {
    let text = std::fs::read_to_string(path).expect("read case");
    let case: Case = toml::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    LoadedCase {
        policy: policy_of(case.policy.as_deref()),
        results: case.function.iter().map(function_result).collect(),
        not_analysed: case
            .not_analysed
            .iter()
            .map(|n| NotAnalysed { what: n.what.clone(), reason: n.reason.clone(), crate_name: n.crate_name.clone() })
            .collect(),
        graph: case.calls.map(|calls| calls.into_iter().collect()),
    }
}

#[test]
fn policy_cases_give_their_expected_reports() {
    let mut failures = Vec::new();
    for path in case_files("policy_cases") {
        let case = load_case(&path);
        let evaluation = evaluate(&case.policy, &case.results, &case.not_analysed, case.graph.as_ref());
        let actual = format!(
            "{}--- json lines\n{}--- exit code {}\n",
            render_human(&evaluation, false),
            render_json_lines(&evaluation),
            evaluation.exit_code()
        );
        check_expected(&path, &actual, &mut failures);
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

#[test]
fn policy_errors_give_their_expected_diagnostics() {
    let handler = miette::GraphicalReportHandler::new_themed(miette::GraphicalTheme::unicode_nocolor()).with_width(100);
    let mut failures = Vec::new();
    for path in case_files("policy_errors") {
        let text = std::fs::read_to_string(&path).expect("read case");
        let name = Path::new(path.file_name().expect("file name"));
        let error = match parse_policy(&text, name, Path::new(WORKSPACE_ROOT)) {
            Ok(_) => {
                failures.push(format!("{}: the policy was accepted", path.display()));
                continue;
            }
            Err(error) => error,
        };
        let mut rendered = String::new();
        handler.render_report(&mut rendered, &error).expect("render");
        check_expected(&path, &rendered, &mut failures);
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

use termcheck_tests::sarif::sarif_validator;

#[test]
fn sarif_of_every_case_is_valid_sarif_2_1_0() {
    let validator = sarif_validator();
    for path in case_files("policy_cases") {
        let case = load_case(&path);
        let evaluation = evaluate(&case.policy, &case.results, &case.not_analysed, case.graph.as_ref());
        let log: serde_json::Value = serde_json::from_str(&render_sarif(&evaluation)).expect("SARIF is JSON");
        let errors: Vec<String> = validator.iter_errors(&log).map(|e| format!("{} at {}", e, e.instance_path())).collect();
        assert!(errors.is_empty(), "{}: {}", path.display(), errors.join("\n"));
        let results = log["runs"][0]["results"].as_array().expect("results");
        let findings: usize = evaluation.functions.iter().map(|f| f.findings.len()).sum::<usize>() + evaluation.not_analysed.len() + evaluation.unused_allows.len();
        assert_eq!(results.len(), findings, "{}: one SARIF result per finding", path.display());
    }
}

#[test]
fn the_schema_validation_rejects_invalid_sarif() {
    // Guards the test above against a validator that accepts everything.
    let validator = sarif_validator();
    let bad_version = serde_json::json!({ "version": "2.0.0", "runs": [] });
    let bad_level = serde_json::json!({ "version": "2.1.0", "runs": [{ "tool": { "driver": { "name": "t" } }, "results": [{ "message": { "text": "m" }, "level": "fatal" }] }] });
    let bad_line = serde_json::json!({ "version": "2.1.0", "runs": [{ "tool": { "driver": { "name": "t" } }, "results": [{ "message": { "text": "m" }, "locations": [{ "physicalLocation": { "artifactLocation": { "uri": "a.c" }, "region": { "startLine": 0 } } }] }] }] });
    for bad in [bad_version, bad_level, bad_line] {
        assert!(!validator.is_valid(&bad), "{bad}");
    }
}
