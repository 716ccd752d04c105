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
use std::sync::Arc;
use std::time::Duration;
use toml::Spanned;

/// The only version of the file format.
pub const FORMAT_VERSION: i64 = 1;

/// The largest time limit accepted, in seconds (as the command's `--timeout`).
const MAX_SECONDS: f64 = 1.0e7;

/// Parses and checks the policy in `text`, read from `path` (named in diagnostics).
pub fn parse_policy(text: &str, path: &Path, workspace_root: &Path) -> Result<Policy, PolicyError> {
    let file = || Arc::new(NamedSource::new(path.display().to_string(), text.to_string()).with_language("toml"));
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
        policy.allows.push(AllowEntry { index, line, pattern, reason: entry.reason.get_ref().trim().to_string(), checks, from_annotation: false });
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
fn serde_error(message: &str, span: Option<Range<usize>>, file: Arc<NamedSource<String>>) -> PolicyError {
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
    } else if ["unknown variant", "invalid type", "invalid value", "wanted "].iter().any(|p| message.starts_with(p)) {
        let help = if message.starts_with("wanted string") {
            "levels (`\"deny\"`, `\"warn\"`, `\"allow\"`) and check names are quoted strings".to_string()
        } else if message.contains("`deny`") {
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::policy::check::Level;
    use crate::policy::model::LevelOrigin;

    fn parse(text: &str) -> Policy {
        parse_policy(text, Path::new("/ws/termcheck.toml"), Path::new("/ws")).unwrap_or_else(|e| panic!("{e:?}"))
    }

    fn error_code(text: &str) -> String {
        parse_policy(text, Path::new("t.toml"), Path::new("/ws")).expect_err(text).code_str()
    }

    #[test]
    fn an_empty_file_is_the_default_policy_from_a_file() {
        let policy = parse("");
        assert_eq!(policy.source, PolicySource::File("/ws/termcheck.toml".into()));
        for check in Check::ALL {
            assert_eq!(policy.base_level(check), (check.default_level(), LevelOrigin::Default));
        }
    }

    #[test]
    fn allow_entries_default_to_the_termination_checks_and_keep_listed_ones() {
        let policy = parse(
            "[[allow]]\nfunction = \"a\"\nreason = \" r \"\n\n[[allow]]\nfunction = \"b\"\nreason = \"r\"\nchecks = [\"timeout\", \"undefined-behaviour\", \"timeout\"]\n",
        );
        assert_eq!(policy.allows[0].checks, AllowEntry::DEFAULT_CHECKS);
        assert!(!policy.allows[0].checks.iter().any(|c| matches!(c, Check::MemorySafetyViolated | Check::UndefinedBehaviour | Check::MemorySafetyUnproven)));
        assert_eq!(policy.allows[0].reason, "r", "reasons are trimmed");
        assert_eq!(policy.allows[1].checks, [Check::UndefinedBehaviour, Check::Timeout]);
        assert_eq!((policy.allows[0].line, policy.allows[1].line), (Some(1), Some(5)));
    }

    #[test]
    fn the_last_matching_scope_wins_then_checks_then_default() {
        let policy = parse(
            "[checks]\ntimeout = \"deny\"\n[[scope]]\ncrate = \"c\"\nchecks = { timeout = \"warn\" }\n[[scope]]\nfiles = \"csrc/**\"\nchecks = { timeout = \"allow\" }\n",
        );
        assert_eq!(policy.level_for(Check::Timeout, Some("c"), Some("csrc/x/a.c")), (Level::Allow, LevelOrigin::Scope(1)));
        assert_eq!(policy.level_for(Check::Timeout, Some("c"), Some("src/a.rs")), (Level::Warn, LevelOrigin::Scope(0)));
        assert_eq!(policy.level_for(Check::Timeout, Some("d"), None), (Level::Deny, LevelOrigin::Checks));
        assert_eq!(policy.level_for(Check::NonTermination, Some("c"), Some("csrc/a.c")), (Level::Deny, LevelOrigin::Default));
        // `*` in a file scope stays within one directory; `**` crosses them.
        let star = parse("[[scope]]\nfiles = \"csrc/*.c\"\nchecks = { timeout = \"allow\" }\n");
        assert_eq!(star.level_for(Check::Timeout, None, Some("csrc/a.c")).0, Level::Allow);
        assert_eq!(star.level_for(Check::Timeout, None, Some("csrc/sub/a.c")).0, Level::Warn);
    }

    #[test]
    fn function_timeouts_last_matching_entry_then_the_default() {
        let policy = parse(
            "[analysis]\nfunction-timeout = 30\n[[timeout]]\nfunction = \"app::*\"\nseconds = 60\n[[timeout]]\nfunction = \"app::solver::*\"\nseconds = 0.5\n",
        );
        assert_eq!(policy.function_timeout_for("app::solver::run", "sym"), Some(Duration::from_millis(500)));
        assert_eq!(policy.function_timeout_for("app::main", "sym"), Some(Duration::from_secs(60)));
        assert_eq!(policy.function_timeout_for("other", "sym"), Some(Duration::from_secs(30)));
        assert_eq!(parse("").function_timeout_for("other", "sym"), None);
        let by_symbol = parse("[[timeout]]\nfunction = \"_ZN3app4main*\"\nseconds = 7\n");
        assert_eq!(by_symbol.function_timeout_for("app::main", "_ZN3app4main17h0123456789abcdefE"), Some(Duration::from_secs(7)));
    }

    #[test]
    fn each_kind_of_mistake_has_its_code() {
        assert_eq!(error_code("[checks]\nbogus = \"deny\""), "termcheck::config::unknown_key");
        assert_eq!(error_code("[[allow]]\nfunction = \"f\"\nreason = \"r\"\nextra = 1"), "termcheck::config::unknown_key");
        assert_eq!(error_code("[[allow]]\nreason = \"r\""), "termcheck::config::missing_key");
        assert_eq!(error_code("[[timeout]]\nfunction = \"f\""), "termcheck::config::missing_key");
        assert_eq!(error_code("[checks]\ntimeout = 1"), "termcheck::config::invalid_value");
        assert_eq!(error_code("[analysis]\nfunction-timeout = 0"), "termcheck::config::invalid_value");
        assert_eq!(error_code("[analysis]\nfunction-timeout = nan"), "termcheck::config::invalid_value");
        assert_eq!(error_code("[[allow]]\nfunction = \"\"\nreason = \"r\""), "termcheck::config::invalid_value");
        assert_eq!(error_code("[checks]\ntimeout = \"deny\"\ntimeout = \"warn\""), "termcheck::config::syntax");
    }

    #[test]
    fn diagnostics_point_at_the_offending_text() {
        let text = "[checks]\nnon-terminaton = \"deny\"\n";
        let err = parse_policy(text, Path::new("t.toml"), Path::new("/ws")).expect_err("unknown key");
        let span = miette::Diagnostic::labels(&err).and_then(|mut l| l.next()).expect("a label");
        assert_eq!(&text[span.offset()..span.offset() + span.len()], "non-terminaton");
    }
}
