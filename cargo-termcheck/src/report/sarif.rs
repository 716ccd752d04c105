//! SARIF 2.1.0 for code scanning (`--format sarif`, `--sarif PATH`), built with `serde-sarif`:
//! one rule per check, one result per finding (levels: deny → error, warn → warning,
//! allow → note), allowed findings carried as suppressions with the allow entry's reason.

use crate::policy::codes::{explain, CODES};
use crate::policy::{Check, CheckFinding, Evaluation, Level, PolicySource};
use serde_sarif::sarif::{
    ArtifactLocation, Invocation, Location, LogicalLocation, Message, MultiformatMessageString, PhysicalLocation, Region,
    ReportingConfiguration, ReportingDescriptor, Result as SarifResult, ResultLevel, Run, Sarif, Suppression, Tool, ToolComponent,
};
use serde_json::json;
use std::path::Path;

/// The schema URI written into every log.
pub const SARIF_SCHEMA_URI: &str = "https://json.schemastore.org/sarif-2.1.0.json";

/// The base id relative locations refer to (the workspace root).
pub const SOURCE_ROOT_ID: &str = "%SRCROOT%";

/// The SARIF log of `evaluation` as pretty-printed JSON.
pub fn render_sarif(evaluation: &Evaluation<'_>) -> String {
    let log = sarif_log(evaluation);
    serde_json::to_string_pretty(&log).unwrap_or_else(|e| format!("{{\"error\": \"cannot serialise SARIF: {e}\"}}"))
}

/// The SARIF log of `evaluation`.
pub fn sarif_log(evaluation: &Evaluation<'_>) -> Sarif {
    let mut results = Vec::new();
    for function in &evaluation.functions {
        let result = function.result;
        let location = match &result.location {
            Some(loc) => source_location(evaluation, &loc.file, Some(loc.line as i64), Some(&result.path)),
            None => logical_location(&result.path),
        };
        for finding in &function.findings {
            let text = format!("`{}`: {}: {}", result.path, finding.check.summary(), finding.detail);
            results.push(finding_result(finding, text, location.clone()));
        }
    }
    for item in &evaluation.not_analysed {
        let text = format!("`{}` was not analysed: {}", item.item.what, item.finding.detail);
        results.push(finding_result(&item.finding, text, logical_location(&item.item.what)));
    }
    for unused in &evaluation.unused_allows {
        let location = match &evaluation.policy_source {
            _ if unused.entry.from_annotation => logical_location(&unused.entry.pattern),
            PolicySource::File(path) => source_location(evaluation, &path.to_string_lossy(), unused.entry.line.map(|l| l as i64), None),
            PolicySource::Defaults => logical_location("termcheck.toml"),
        };
        let text = format!("{} (reason given: {})", unused.explanation(), unused.entry.reason);
        results.push(
            SarifResult::builder()
                .rule_id(Check::UnusedAllow.key())
                .rule_index(rule_index(Check::UnusedAllow))
                .level(result_level(unused.level))
                .message(Message::builder().text(text).build())
                .locations(vec![location])
                .build(),
        );
    }
    let driver = ToolComponent::builder()
        .name("termcheck")
        .version(env!("CARGO_PKG_VERSION"))
        .rules(Check::ALL.iter().map(|c| rule(*c)).collect::<Vec<_>>())
        .build();
    let invocation = Invocation::builder().execution_successful(true).exit_code(evaluation.exit_code() as i64).build();
    let run = Run::builder()
        .tool(Tool::builder().driver(driver).build())
        .invocations(vec![invocation])
        .results(results)
        .original_uri_base_ids(std::collections::BTreeMap::from([(
            SOURCE_ROOT_ID.to_string(),
            ArtifactLocation::builder().uri(directory_uri(&evaluation.workspace_root)).build(),
        )]))
        .build();
    Sarif::builder().schema(SARIF_SCHEMA_URI).version(json!("2.1.0")).runs(vec![run]).build()
}

fn finding_result(finding: &CheckFinding, text: String, location: Location) -> SarifResult {
    let base = SarifResult::builder()
        .rule_id(finding.check.key())
        .rule_index(rule_index(finding.check))
        .level(result_level(finding.configured))
        .message(Message::builder().text(text).build())
        .locations(vec![location]);
    if finding.level != Level::Allow {
        return base.build();
    }
    // An allowed finding stays in the log, suppressed in the policy file ("external").
    let justification = match &finding.allowed_by {
        Some(entry) => format!("allowed by termcheck.toml entry `{}`: {}", entry.pattern, entry.reason),
        None => format!("{} is at level allow", finding.check),
    };
    base.suppressions(vec![Suppression::builder().kind(json!("external")).justification(justification).build()]).build()
}

fn rule(check: Check) -> ReportingDescriptor {
    let explanation = CODES.iter().find(|c| c.code == check.code()).map_or("", |c| c.explanation);
    ReportingDescriptor::builder()
        .id(check.key())
        .name(check.code())
        .short_description(MultiformatMessageString::builder().text(check.summary()).build())
        .full_description(MultiformatMessageString::builder().text(explanation).build())
        .help(MultiformatMessageString::builder().text(explain(check.code()).unwrap_or_default()).build())
        .default_configuration(ReportingConfiguration::builder().level(json!(level_word(check.default_level()))).build())
        .build()
}

fn rule_index(check: Check) -> i64 {
    Check::ALL.iter().position(|c| *c == check).unwrap_or(0) as i64
}

fn result_level(level: Level) -> ResultLevel {
    match level {
        Level::Deny => ResultLevel::Error,
        Level::Warn => ResultLevel::Warning,
        Level::Allow => ResultLevel::Note,
    }
}

fn level_word(level: Level) -> &'static str {
    match level {
        Level::Deny => "error",
        Level::Warn => "warning",
        Level::Allow => "note",
    }
}

/// A file location: relative to `%SRCROOT%` when the file lies in the workspace, else a
/// `file://` URI. SARIF lines start at 1, so line 0 (unknown) is left out.
fn source_location(evaluation: &Evaluation<'_>, file: &str, line: Option<i64>, function: Option<&str>) -> Location {
    let path = Path::new(file);
    let relative = if path.is_absolute() { path.strip_prefix(&evaluation.workspace_root).ok() } else { Some(path) };
    let artifact = match relative {
        Some(rel) => ArtifactLocation::builder().uri(uri_path(rel)).uri_base_id(SOURCE_ROOT_ID).build(),
        None => ArtifactLocation::builder().uri(format!("file://{}", uri_path(path))).build(),
    };
    let physical = match line.filter(|l| *l >= 1) {
        Some(line) => PhysicalLocation::builder().artifact_location(artifact).region(Region::builder().start_line(line).build()).build(),
        None => PhysicalLocation::builder().artifact_location(artifact).build(),
    };
    match function {
        Some(name) => Location::builder().physical_location(physical).logical_locations(vec![function_logical(name)]).build(),
        None => Location::builder().physical_location(physical).build(),
    }
}

fn logical_location(name: &str) -> Location {
    Location::builder().logical_locations(vec![function_logical(name)]).build()
}

fn function_logical(name: &str) -> LogicalLocation {
    LogicalLocation::builder().fully_qualified_name(name).kind("function").build()
}

/// The workspace root as a directory URI (ending in `/`, as SARIF requires for base ids).
fn directory_uri(root: &Path) -> String {
    let path = uri_path(root);
    let path = if path.ends_with('/') { path } else { format!("{path}/") };
    if root.is_absolute() {
        format!("file://{path}")
    } else {
        path
    }
}

/// A path with `/` separators and the characters URIs do not allow percent-encoded.
fn uri_path(path: &Path) -> String {
    let text = path.to_string_lossy().replace('\\', "/");
    let mut out = String::with_capacity(text.len());
    for byte in text.bytes() {
        match byte {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'.' | b'_' | b'~' | b'/' | b':' | b'@' | b'!' | b'$' | b'&' | b'\'' | b'(' | b')' | b'*' | b'+' | b',' | b';' | b'=' => {
                out.push(byte as char)
            }
            other => out.push_str(&format!("%{other:02X}")),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn uris_are_percent_encoded_with_forward_slashes() {
        assert_eq!(uri_path(Path::new("csrc/my file.c")), "csrc/my%20file.c");
        assert_eq!(uri_path(Path::new("src/ü.rs")), "src/%C3%BC.rs");
        assert_eq!(directory_uri(Path::new("/ws")), "file:///ws/");
    }
}

#[cfg(test)]
mod log_tests {
    use super::*;
    use crate::policy::{evaluate, FunctionResult, SourceLocation};
    use termcheck_engine::analysis::FunctionReport;
    use termcheck_engine::verdict::{NonTerminationWitness, Termination};

    fn looping(path: &str, file: &str) -> FunctionResult {
        FunctionResult {
            crate_name: Some("app".into()),
            symbol: path.into(),
            path: path.into(),
            location: Some(SourceLocation { file: file.into(), line: 7 }),
            report: FunctionReport {
                name: path.into(),
                location: None,
                termination: Termination::No(NonTerminationWitness::default()),
                memory_safety: termcheck_engine::verdict::MemorySafety::Proved,
                seconds: 0.0,
                stats: vec![],
            },
        }
    }

    #[test]
    fn allowed_findings_are_suppressed_with_their_reason_and_denied_ones_are_errors() {
        let policy = crate::policy::parse_policy("[[allow]]\nfunction = \"app::serve\"\nreason = \"event loop\"\n", Path::new("/ws/termcheck.toml"), Path::new("/ws")).expect("policy");
        let results = [looping("app::serve", "/ws/src/main.rs"), looping("app::spin", "/elsewhere/x.rs")];
        let log = serde_json::to_value(sarif_log(&evaluate(&policy, &results, &[], None))).expect("JSON");
        let results = log["runs"][0]["results"].as_array().expect("results");
        assert_eq!(results.len(), 2);
        let serve = &results[0];
        assert_eq!(serve["ruleId"], "non-termination");
        assert_eq!(serve["suppressions"][0]["kind"], "external");
        assert!(serve["suppressions"][0]["justification"].as_str().expect("text").ends_with("event loop"));
        assert_eq!(serve["locations"][0]["physicalLocation"]["artifactLocation"]["uri"], "src/main.rs");
        assert_eq!(serve["locations"][0]["physicalLocation"]["artifactLocation"]["uriBaseId"], SOURCE_ROOT_ID);
        let spin = &results[1];
        assert_eq!(spin["level"], "error");
        assert!(spin.get("suppressions").is_none());
        assert_eq!(spin["locations"][0]["physicalLocation"]["artifactLocation"]["uri"], "file:///elsewhere/x.rs");
        assert_eq!(log["runs"][0]["invocations"][0]["exitCode"], 1);
        assert_eq!(log["runs"][0]["tool"]["driver"]["rules"].as_array().map(Vec::len), Some(Check::ALL.len()));
    }
}
