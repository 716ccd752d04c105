//! The termcheck.toml file as written: serde types with spans, checked into a `Policy` by `parse`.

use super::check::{Check, Level};
use serde::Deserialize;
use toml::Spanned;

/// The whole file.
#[derive(Deserialize, Debug, Default)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct RawPolicy {
    /// Version of the file format (only 1 exists).
    pub version: Option<Spanned<i64>>,
    #[serde(default)]
    pub checks: RawLevels,
    #[serde(default)]
    pub analysis: RawAnalysis,
    #[serde(default)]
    pub scope: Vec<Spanned<RawScope>>,
    #[serde(default)]
    pub allow: Vec<Spanned<RawAllow>>,
    #[serde(default)]
    pub timeout: Vec<Spanned<RawTimeout>>,
}

/// A `[checks]` table (also a scope's `checks`): a level per check, all optional.
#[derive(Deserialize, Debug, Default, Clone)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct RawLevels {
    pub non_termination: Option<Level>,
    pub termination_unproven: Option<Level>,
    pub memory_safety_violated: Option<Level>,
    pub memory_safety_unproven: Option<Level>,
    pub undefined_behaviour: Option<Level>,
    pub timeout: Option<Level>,
    pub not_analysed: Option<Level>,
    pub unused_allow: Option<Spanned<Level>>,
}

impl RawLevels {
    /// The levels that are set, by check.
    pub fn set_levels(&self) -> Vec<(Check, Level)> {
        let all = [
            (Check::NonTermination, self.non_termination),
            (Check::TerminationUnproven, self.termination_unproven),
            (Check::MemorySafetyViolated, self.memory_safety_violated),
            (Check::MemorySafetyUnproven, self.memory_safety_unproven),
            (Check::UndefinedBehaviour, self.undefined_behaviour),
            (Check::Timeout, self.timeout),
            (Check::NotAnalysed, self.not_analysed),
            (Check::UnusedAllow, self.unused_allow.as_ref().map(|l| *l.get_ref())),
        ];
        all.into_iter().filter_map(|(check, level)| level.map(|l| (check, l))).collect()
    }
}

/// `[analysis]`: settings handed to the engine.
#[derive(Deserialize, Debug, Default)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct RawAnalysis {
    /// Seconds one function may take (the engine's `--function-timeout`).
    pub function_timeout: Option<Spanned<f64>>,
}

/// `[[scope]]`: levels for the functions of one crate and/or files.
#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct RawScope {
    #[serde(rename = "crate")]
    pub crate_name: Option<Spanned<String>>,
    pub files: Option<Spanned<String>>,
    #[serde(default)]
    pub checks: RawLevels,
}

/// `[[allow]]`: functions whose findings are accepted, with the reason why.
#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct RawAllow {
    pub function: Spanned<String>,
    pub reason: Spanned<String>,
    pub checks: Option<Vec<Spanned<Check>>>,
}

/// `[[timeout]]`: a per-function time limit.
#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct RawTimeout {
    pub function: Spanned<String>,
    pub seconds: Spanned<f64>,
}
