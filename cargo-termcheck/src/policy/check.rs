//! The checks a policy gates on and the levels (`deny | warn | allow`) each can be set to.

use serde::{Deserialize, Serialize};
use std::fmt;

/// One thing termcheck can report about a function (or about the policy itself).
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Check {
    /// A replayed non-terminating run (termination verdict NO).
    NonTermination,
    /// Termination neither proved nor disproved (MAYBE), other than by a timeout.
    TerminationUnproven,
    /// A replayed memory-safety violation (invalid read/write/free, null dereference, …).
    MemorySafetyViolated,
    /// Memory safety neither proved nor violated (unknown), other than by a timeout.
    MemorySafetyUnproven,
    /// A replayed run with undefined behaviour (violation kind `undefined-behaviour`).
    UndefinedBehaviour,
    /// The analysis of the function ran out of time.
    Timeout,
    /// Code termcheck could not analyse at all (C built outside the cc crate, unknown externals).
    NotAnalysed,
    /// An allow entry of the policy that suppressed nothing.
    UnusedAllow,
}

impl Check {
    /// Every check, in the order of the `[checks]` table.
    pub const ALL: [Check; 8] = [
        Check::NonTermination,
        Check::TerminationUnproven,
        Check::MemorySafetyViolated,
        Check::MemorySafetyUnproven,
        Check::UndefinedBehaviour,
        Check::Timeout,
        Check::NotAnalysed,
        Check::UnusedAllow,
    ];

    /// The key of the check in termcheck.toml and its SARIF rule id (kebab-case).
    pub fn key(self) -> &'static str {
        match self {
            Check::NonTermination => "non-termination",
            Check::TerminationUnproven => "termination-unproven",
            Check::MemorySafetyViolated => "memory-safety-violated",
            Check::MemorySafetyUnproven => "memory-safety-unproven",
            Check::UndefinedBehaviour => "undefined-behaviour",
            Check::Timeout => "timeout",
            Check::NotAnalysed => "not-analysed",
            Check::UnusedAllow => "unused-allow",
        }
    }

    /// The stable diagnostic code (`cargo termcheck explain CODE`).
    pub fn code(self) -> &'static str {
        match self {
            Check::NonTermination => "termcheck::check::non_termination",
            Check::TerminationUnproven => "termcheck::check::termination_unproven",
            Check::MemorySafetyViolated => "termcheck::check::memory_safety_violated",
            Check::MemorySafetyUnproven => "termcheck::check::memory_safety_unproven",
            Check::UndefinedBehaviour => "termcheck::check::undefined_behaviour",
            Check::Timeout => "termcheck::check::timeout",
            Check::NotAnalysed => "termcheck::check::not_analysed",
            Check::UnusedAllow => "termcheck::check::unused_allow",
        }
    }

    /// The check named by a termcheck.toml key.
    pub fn from_key(key: &str) -> Option<Check> {
        Check::ALL.into_iter().find(|c| c.key() == key)
    }

    /// The level a check has when termcheck.toml does not set it (docs/policy.md, "Defaults"):
    /// what is shown to be wrong fails the gate, what is merely not shown to be right warns.
    pub fn default_level(self) -> Level {
        match self {
            Check::NonTermination | Check::MemorySafetyViolated | Check::UndefinedBehaviour => Level::Deny,
            Check::TerminationUnproven
            | Check::MemorySafetyUnproven
            | Check::Timeout
            | Check::NotAnalysed
            | Check::UnusedAllow => Level::Warn,
        }
    }

    /// Whether the check says something about termination (the allowed-callee rule words
    /// such a callee as "assuming f terminates").
    pub fn is_about_termination(self) -> bool {
        matches!(self, Check::NonTermination | Check::TerminationUnproven | Check::Timeout | Check::NotAnalysed)
    }

    /// One line saying what the check means, for reports.
    pub fn summary(self) -> &'static str {
        match self {
            Check::NonTermination => "a non-terminating run was found and replayed",
            Check::TerminationUnproven => "termination is neither proved nor disproved",
            Check::MemorySafetyViolated => "a memory-safety violation was found and replayed",
            Check::MemorySafetyUnproven => "memory safety is neither proved nor disproved",
            Check::UndefinedBehaviour => "a run with undefined behaviour was found and replayed",
            Check::Timeout => "the analysis ran out of time",
            Check::NotAnalysed => "the code was not analysed",
            Check::UnusedAllow => "an allow entry of termcheck.toml suppressed nothing",
        }
    }
}

impl fmt::Display for Check {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.key())
    }
}

/// How a check's findings count: `deny` fails the gate, `warn` is shown, `allow` is recorded only.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Level {
    Allow,
    Warn,
    Deny,
}

impl Level {
    pub fn key(self) -> &'static str {
        match self {
            Level::Allow => "allow",
            Level::Warn => "warn",
            Level::Deny => "deny",
        }
    }
}

impl fmt::Display for Level {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.key())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_and_codes_are_unique_and_round_trip() {
        let keys: std::collections::BTreeSet<_> = Check::ALL.iter().map(|c| c.key()).collect();
        let codes: std::collections::BTreeSet<_> = Check::ALL.iter().map(|c| c.code()).collect();
        assert_eq!((keys.len(), codes.len()), (Check::ALL.len(), Check::ALL.len()));
        for check in Check::ALL {
            assert_eq!(Check::from_key(check.key()), Some(check));
            assert_eq!(check.code().rsplit("::").next().map(|s| s.replace('_', "-")).as_deref(), Some(check.key()));
        }
        assert_eq!(Check::from_key("termination"), None);
    }

    #[test]
    fn defaults_deny_what_is_shown_wrong_and_warn_on_the_rest() {
        let denied: Vec<_> = Check::ALL.into_iter().filter(|c| c.default_level() == Level::Deny).collect();
        assert_eq!(denied, [Check::NonTermination, Check::MemorySafetyViolated, Check::UndefinedBehaviour]);
        assert!(Check::ALL.into_iter().all(|c| c.default_level() != Level::Allow), "no check is silent by default");
    }

    #[test]
    fn levels_are_ordered_by_severity() {
        assert!(Level::Allow < Level::Warn && Level::Warn < Level::Deny);
        assert_eq!(serde_json::to_string(&Level::Deny).unwrap(), "\"deny\"");
        assert_eq!(serde_json::to_string(&Check::UnusedAllow).unwrap(), "\"unused-allow\"");
    }
}
