//! termcheck.toml text to a checked `Policy`: TOML and serde errors, then the rules serde
//! cannot express (non-empty reasons, valid globs, positive limits), each pointing into the file.

use super::check::Check;
use super::error::PolicyError;
use super::model::{AllowEntry, Policy, PolicySource, Scope, TimeoutEntry};
use super::pattern::FunctionPattern;
use super::raw::{RawLevels, RawPolicy};
use globset::GlobBuilder;
use miette::{NamedSource, SourceSpan};
use std::ops::Range;
use std::path::Path;
use std::time::Duration;
use toml::Spanned;

/// The only version of the file format.
pub const FORMAT_VERSION: i64 = 1;

/// The largest time limit accepted, in seconds (as the command's `--timeout`).
const MAX_SECONDS: f64 = 1.0e7;

/// Parses and checks the policy in `text`, read from `path` (named in diagnostics).
pub fn parse_policy(text: &str, path: &Path, workspace_root: &Path) -> Result<Policy, PolicyError> {
    let file = || NamedSource::new(path.display().to_string(), text.to_string()).with_language("toml");
    let raw: RawPolicy = toml::from_str(text).map_err(|e| serde_error(e.message(), e.span(), file()))?;
    let invalid = |message: String, span: Range<usize>, label: &str, help: &str| PolicyError::InvalidValue {
        message,
        help: help.to_string(),
        file: file(),
        span: Some(to_span(span)),
        label: label.to_string(),
    };
    if let Some(version) = &raw.version {
        if *version.get_ref() != FORMAT_VERSION {
            return Err(invalid(format!("unsupported termcheck.toml version {}", version.get_ref()), version.span(), "this version", "the only version is 1"));
        }
    }
    let mut policy = Policy::defaults(workspace_root);
    policy.source = PolicySource::File(path.to_path_buf());
    policy.levels = raw.checks.set_levels().into_iter().collect();
    if let Some(limit) = &raw.analysis.function_timeout {
        policy.function_timeout = Some(seconds(limit).map_err(|m| invalid(m, limit.span(), "this limit", "give a positive number of seconds"))?);
    }
    for (index, scope) in raw.scope.iter().enumerate() {
        let span = scope.span();
        let scope = scope.get_ref();
        if scope.crate_name.is_none() && scope.files.is_none() {
            return Err(PolicyError::MissingKey {
                message: "a [[scope]] needs `crate` or `files`".into(),
                help: "e.g. `crate = \"my_crate\"` or `files = \"csrc/**\"`".into(),
                file: file(),
                span: Some(to_span(span)),
            });
        }
        if let Some(unused) = &scope.checks.unused_allow {
            return Err(invalid(
                "`unused-allow` cannot be set in a scope".into(),
                unused.span(),
                "only in [checks]",
                "allow entries belong to no crate or file; set `unused-allow` in the top-level [checks] table",
            ));
        }
        let files = match &scope.files {
            None => None,
            Some(glob) => {
                let matcher = GlobBuilder::new(glob.get_ref())
                    .literal_separator(true)
                    .build()
                    .map_err(|e| invalid(format!("invalid file glob: {}", e.kind()), glob.span(), "this glob", "globs use `*`, `**`, `?`, `[…]` and `{a,b}`"))?
                    .compile_matcher();
                Some((glob.get_ref().clone(), matcher))
            }
        };
        policy.scopes.push(Scope {
            index,
            crate_name: scope.crate_name.as_ref().map(|c| c.get_ref().clone()),
            files,
            levels: levels_of(&scope.checks),
        });
    }
    for (index, entry) in raw.allow.iter().enumerate() {
        let line = Some(line_of(text, entry.span().start));
        let entry = entry.get_ref();
        let pattern = pattern(&entry.function).map_err(|m| invalid(m, entry.function.span(), "this pattern", PATTERN_HELP))?;
        if entry.reason.get_ref().trim().is_empty() {
            return Err(invalid(
                "the reason of an allow entry must not be empty".into(),
                entry.reason.span(),
                "empty reason",
                "say why the finding is acceptable; the reason is shown wherever the entry is used",
            ));
        }
        let checks = match &entry.checks {
            None => AllowEntry::DEFAULT_CHECKS.to_vec(),
            Some(checks) => {
                if let Some(bad) = checks.iter().find(|c| *c.get_ref() == Check::UnusedAllow) {
                    return Err(invalid(
                        "an allow entry cannot allow `unused-allow`".into(),
                        bad.span(),
                        "not a check of a function",
                        "set `unused-allow = \"allow\"` in [checks] instead",
                    ));
                }
                let mut list: Vec<Check> = checks.iter().map(|c| *c.get_ref()).collect();
                list.sort();
                list.dedup();
                list
            }
        };
        policy.allows.push(AllowEntry { index, line, pattern, reason: entry.reason.get_ref().trim().to_string(), checks });
    }
    for entry in &raw.timeout {
        let entry = entry.get_ref();
        let pattern = pattern(&entry.function).map_err(|m| invalid(m, entry.function.span(), "this pattern", PATTERN_HELP))?;
        let limit = seconds(&entry.seconds).map_err(|m| invalid(m, entry.seconds.span(), "this limit", "give a positive number of seconds"))?;
        policy.timeouts.push(TimeoutEntry { pattern, limit });
    }
    Ok(policy)
}

const PATTERN_HELP: &str = "a demangled Rust path (`my_crate::module::func`), a C function name or a glob over them";

fn pattern(text: &Spanned<String>) -> Result<FunctionPattern, String> {
    FunctionPattern::new(text.get_ref()).map_err(|e| format!("invalid function pattern: {e}"))
}

fn seconds(value: &Spanned<f64>) -> Result<Duration, String> {
    let secs = *value.get_ref();
    if !secs.is_finite() || secs <= 0.0 || secs > MAX_SECONDS || Duration::from_secs_f64(secs).is_zero() {
        return Err(format!("a time limit must be a positive number of seconds (at most 10^7), got {secs}"));
    }
    Ok(Duration::from_secs_f64(secs))
}

fn levels_of(raw: &RawLevels) -> std::collections::BTreeMap<Check, super::check::Level> {
    raw.set_levels().into_iter().collect()
}

fn to_span(range: Range<usize>) -> SourceSpan {
    SourceSpan::from(range)
}

/// 1-based line of a byte offset.
fn line_of(text: &str, offset: usize) -> usize {
    text.get(..offset).unwrap_or(text).matches('\n').count() + 1
}

/// Classifies a TOML or serde error by what went wrong: unknown keys and missing keys get
/// codes of their own, wrong values (an unknown level or check name, a wrong type) another.
fn serde_error(message: &str, span: Option<Range<usize>>, file: NamedSource<String>) -> PolicyError {
    let message = message.trim().to_string();
    let span = span.map(to_span);
    if message.starts_with("unknown field") {
        PolicyError::UnknownKey { message, file, span }
    } else if message.starts_with("missing field") {
        let help = if message.contains("`reason`") {
            "every [[allow]] entry needs `reason = \"…\"`: why its findings are acceptable".to_string()
        } else {
            "add the key (docs/policy.md lists every key)".to_string()
        };
        PolicyError::MissingKey { message, help, file, span }
    } else if message.starts_with("unknown variant") || message.starts_with("invalid type") || message.starts_with("invalid value") {
        let help = if message.contains("`deny`") {
            "levels are `deny`, `warn` and `allow`".to_string()
        } else if message.contains("`non-termination`") {
            format!("checks are {}", Check::ALL.iter().map(|c| format!("`{}`", c.key())).collect::<Vec<_>>().join(", "))
        } else {
            "see docs/policy.md for the type of each key".to_string()
        };
        PolicyError::InvalidValue { message, help, file, span, label: "this value".into() }
    } else {
        PolicyError::Syntax { message, file, span }
    }
}
