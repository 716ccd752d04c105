//! A checked policy: levels per check, scopes, allow entries and time limits, with the lookups
//! the evaluation and the command need (precedence in docs/policy.md).

use super::check::{Check, Level};
use super::pattern::FunctionPattern;
use globset::GlobMatcher;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// Where the policy came from.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum PolicySource {
    /// No file was found: the documented defaults.
    Defaults,
    /// Read from this file.
    File(PathBuf),
}

/// Which setting decided a level (shown in reports).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum LevelOrigin {
    /// The built-in default (`Check::default_level`).
    Default,
    /// The `[checks]` table.
    Checks,
    /// The `[[scope]]` with this index (0-based, in file order).
    Scope(usize),
}

/// `[[scope]]`: its own levels for the functions of a crate and/or of files.
#[derive(Clone, Debug)]
pub struct Scope {
    pub index: usize,
    /// Crate name as cargo reports it; `-` and `_` are the same.
    pub crate_name: Option<String>,
    /// Glob over source files, relative to the workspace root (`*` stays within a directory).
    pub files: Option<(String, GlobMatcher)>,
    pub levels: BTreeMap<Check, Level>,
}

/// `[[allow]]`: a function pattern whose findings are accepted, for a reason.
#[derive(Clone, Debug)]
pub struct AllowEntry {
    /// 0-based index among the file's `[[allow]]` entries.
    pub index: usize,
    /// Line of the entry in termcheck.toml (1-based).
    pub line: Option<usize>,
    pub pattern: FunctionPattern,
    pub reason: String,
    /// The checks the entry allows.
    pub checks: Vec<Check>,
    /// Whether the entry comes from a source annotation (`#[termcheck::…]`, `termcheck.h`)
    /// rather than from termcheck.toml (`policy::annotations`).
    pub from_annotation: bool,
}

impl AllowEntry {
    /// The checks an entry allows when it does not list any: everything that says "this
    /// function may not terminate". Memory-safety and undefined-behaviour findings must be
    /// listed by name, so that allowing a slow or looping function never hides a memory error.
    pub const DEFAULT_CHECKS: [Check; 4] = [Check::NonTermination, Check::TerminationUnproven, Check::Timeout, Check::NotAnalysed];
}

/// `[[timeout]]`: the time limit of the functions a pattern matches.
#[derive(Clone, Debug)]
pub struct TimeoutEntry {
    pub pattern: FunctionPattern,
    pub limit: Duration,
}

/// A checked termcheck.toml (or the defaults).
#[derive(Clone, Debug)]
pub struct Policy {
    pub source: PolicySource,
    /// The workspace root: relative file scopes and reported paths are relative to it.
    pub workspace_root: PathBuf,
    pub(crate) levels: BTreeMap<Check, Level>,
    pub scopes: Vec<Scope>,
    pub allows: Vec<AllowEntry>,
    /// `[analysis] function-timeout`: every function's limit unless a `[[timeout]]` matches.
    pub function_timeout: Option<Duration>,
    pub timeouts: Vec<TimeoutEntry>,
}

impl Policy {
    /// The policy without a file (docs/policy.md, "Defaults").
    pub fn defaults(workspace_root: &Path) -> Policy {
        Policy {
            source: PolicySource::Defaults,
            workspace_root: workspace_root.to_path_buf(),
            levels: BTreeMap::new(),
            scopes: vec![],
            allows: vec![],
            function_timeout: None,
            timeouts: vec![],
        }
    }

    /// The level of `check` outside every scope, and what set it.
    pub fn base_level(&self, check: Check) -> (Level, LevelOrigin) {
        match self.levels.get(&check) {
            Some(level) => (*level, LevelOrigin::Checks),
            None => (check.default_level(), LevelOrigin::Default),
        }
    }

    /// The level of `check` for a function of `crate_name` defined in `file`: the last
    /// matching scope that sets the check wins, then `[checks]`, then the default.
    pub fn level_for(&self, check: Check, crate_name: Option<&str>, file: Option<&str>) -> (Level, LevelOrigin) {
        self.scopes
            .iter()
            .rev()
            .filter(|scope| self.scope_contains(scope, crate_name, file))
            .find_map(|scope| scope.levels.get(&check).map(|level| (*level, LevelOrigin::Scope(scope.index))))
            .unwrap_or_else(|| self.base_level(check))
    }

    fn scope_contains(&self, scope: &Scope, crate_name: Option<&str>, file: Option<&str>) -> bool {
        let crate_matches = match (&scope.crate_name, crate_name) {
            (None, _) => true,
            (Some(wanted), Some(actual)) => same_crate_name(wanted, actual),
            (Some(_), None) => false,
        };
        let file_matches = match (&scope.files, file) {
            (None, _) => true,
            (Some((_, glob)), Some(file)) => glob.is_match(self.relative_file(file)),
            (Some(_), None) => false,
        };
        crate_matches && file_matches
    }

    /// `file` relative to the workspace root when it lies below it, else unchanged.
    pub fn relative_file(&self, file: &str) -> String {
        let path = Path::new(file);
        match path.strip_prefix(&self.workspace_root) {
            Ok(rel) if path.is_absolute() => rel.to_string_lossy().into_owned(),
            _ => file.strip_prefix("./").unwrap_or(file).to_string(),
        }
    }

    /// The time limit for one function: the last matching `[[timeout]]`, else
    /// `[analysis] function-timeout`, else `None` (the command's `--function-timeout`).
    pub fn function_timeout_for(&self, path: &str, symbol: &str) -> Option<Duration> {
        self.timeout_entry_for(path, symbol).or(self.function_timeout)
    }

    /// The limit of the last `[[timeout]]` entry matching the function, if any.
    pub fn timeout_entry_for(&self, path: &str, symbol: &str) -> Option<Duration> {
        self.timeouts.iter().rev().find(|entry| entry.pattern.matches_any([path, symbol])).map(|entry| entry.limit)
    }
}

/// Cargo treats `-` and `_` in crate names alike (`my-crate` is `my_crate` in paths).
fn same_crate_name(a: &str, b: &str) -> bool {
    a.len() == b.len() && a.bytes().zip(b.bytes()).all(|(x, y)| x == y || (x == b'-' && y == b'_') || (x == b'_' && y == b'-'))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn crate_names_compare_modulo_dash_and_underscore() {
        assert!(same_crate_name("my-crate", "my_crate"));
        assert!(same_crate_name("my_crate", "my_crate"));
        assert!(!same_crate_name("my_crate", "my_crates"));
        assert!(!same_crate_name("mycrate", "my_crat"));
    }

    #[test]
    fn files_are_made_relative_to_the_workspace_root() {
        let policy = Policy::defaults(Path::new("/ws"));
        assert_eq!(policy.relative_file("/ws/csrc/a.c"), "csrc/a.c");
        assert_eq!(policy.relative_file("./csrc/a.c"), "csrc/a.c");
        assert_eq!(policy.relative_file("/elsewhere/a.c"), "/elsewhere/a.c");
    }
}
