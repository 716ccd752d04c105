//! The gate: every function's findings at the levels the policy gives them, the allow entries
//! used and unused, and the exit code.

use super::assumptions::{assumptions_of, Assumption, CalleeIndex};
use super::check::{Check, Level};
use super::classify::observations;
use super::exit_code;
use super::function_result::{CallGraph, FunctionResult, NotAnalysed};
use super::model::{AllowEntry, LevelOrigin, Policy, PolicySource};

/// The allow entry that turned a finding into `allow`.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct AllowUse {
    /// 0-based index of the `[[allow]]` entry.
    pub index: usize,
    pub pattern: String,
    pub reason: String,
    /// Line of the entry in termcheck.toml.
    pub line: Option<usize>,
    /// Whether the entry is a source annotation rather than a termcheck.toml entry.
    pub from_annotation: bool,
}

impl AllowUse {
    fn of(entry: &AllowEntry) -> AllowUse {
        AllowUse { index: entry.index, pattern: entry.pattern.as_str().to_string(), reason: entry.reason.clone(), line: entry.line, from_annotation: entry.from_annotation }
    }
}

/// One check raised for one function (or one not-analysed item).
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct CheckFinding {
    pub check: Check,
    /// The engine's words (reason, witness summary, violation).
    pub detail: String,
    /// The level from `[checks]`, a scope or the default, before allow entries.
    pub configured: Level,
    pub origin: LevelOrigin,
    pub allowed_by: Option<AllowUse>,
    /// The level that counts: `allow` when an entry allowed it, else `configured`.
    pub level: Level,
}

/// The outcome of one function under the policy.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub enum Status {
    /// Terminates and is memory-safe, relying on no allowed or unproven callee (as far as the
    /// call graph shows).
    Proved,
    /// Its own verdicts are proved, but a callee it depends on was allowed or is unproven.
    ProvedAssuming,
    /// Not proved, and every finding is at level `allow`.
    Allowed,
    /// Its worst finding is at level `warn`.
    Warning,
    /// Its worst finding is at level `deny`: the policy is violated.
    Error,
}

impl Status {
    pub fn key(self) -> &'static str {
        match self {
            Status::Proved => "proved",
            Status::ProvedAssuming => "proved-assuming",
            Status::Allowed => "allowed",
            Status::Warning => "warning",
            Status::Error => "error",
        }
    }

    fn of(findings: &[CheckFinding], assumptions: &[Assumption]) -> Status {
        match findings.iter().map(|f| f.level).max() {
            None if assumptions.is_empty() => Status::Proved,
            None => Status::ProvedAssuming,
            Some(Level::Allow) => Status::Allowed,
            Some(Level::Warn) => Status::Warning,
            Some(Level::Deny) => Status::Error,
        }
    }
}

/// One function with its findings.
#[derive(Clone, Debug)]
pub struct FunctionFinding<'a> {
    pub result: &'a FunctionResult,
    pub findings: Vec<CheckFinding>,
    /// For a function whose own verdicts are proved: the callees (transitively) it relies on
    /// that are not proved (docs/policy.md, "Allowed callees").
    pub assumptions: Vec<Assumption>,
    pub status: Status,
}

/// Code that was not analysed, under the `not-analysed` check.
#[derive(Clone, Debug)]
pub struct NotAnalysedFinding<'a> {
    pub item: &'a NotAnalysed,
    pub finding: CheckFinding,
}

/// An allow entry that suppressed nothing (the `unused-allow` check).
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct UnusedAllowFinding {
    pub entry: AllowUse,
    /// How many functions the pattern matched (all of them needed none of its checks).
    pub matched_functions: usize,
    pub level: Level,
}

impl UnusedAllowFinding {
    /// Why the entry is unused, in words.
    pub fn explanation(&self) -> String {
        match self.matched_functions {
            0 => format!("allow entry `{}` matches no analysed function", self.entry.pattern),
            n => format!(
                "allow entry `{}` matches {n} function{} but none of {} needed it",
                self.entry.pattern,
                if n == 1 { "" } else { "s" },
                if n == 1 { "its findings" } else { "their findings" }
            ),
        }
    }
}

/// How many of each outcome (the summary line and `termcheck-summary`).
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub struct Counts {
    pub functions: usize,
    pub proved: usize,
    pub proved_assuming: usize,
    pub allowed: usize,
    pub warnings: usize,
    pub errors: usize,
    pub not_analysed: usize,
    pub unused_allows: usize,
    /// Findings (functions, not-analysed items, unused entries) at level `deny`.
    pub denied: usize,
    /// Findings at level `warn`.
    pub warned: usize,
}

/// The whole result of the gate.
#[derive(Clone, Debug)]
pub struct Evaluation<'a> {
    pub policy_source: PolicySource,
    /// The workspace root of the policy (reports make paths relative to it).
    pub workspace_root: std::path::PathBuf,
    pub functions: Vec<FunctionFinding<'a>>,
    pub not_analysed: Vec<NotAnalysedFinding<'a>>,
    pub unused_allows: Vec<UnusedAllowFinding>,
}

impl Evaluation<'_> {
    pub fn counts(&self) -> Counts {
        let mut counts = Counts { functions: self.functions.len(), not_analysed: self.not_analysed.len(), unused_allows: self.unused_allows.len(), ..Counts::default() };
        for function in &self.functions {
            match function.status {
                Status::Proved => counts.proved += 1,
                Status::ProvedAssuming => counts.proved_assuming += 1,
                Status::Allowed => counts.allowed += 1,
                Status::Warning => counts.warnings += 1,
                Status::Error => counts.errors += 1,
            }
        }
        let levels = self
            .functions
            .iter()
            .flat_map(|f| f.findings.iter().map(|c| c.level))
            .chain(self.not_analysed.iter().map(|n| n.finding.level))
            .chain(self.unused_allows.iter().map(|u| u.level));
        for level in levels {
            match level {
                Level::Deny => counts.denied += 1,
                Level::Warn => counts.warned += 1,
                Level::Allow => {}
            }
        }
        counts
    }

    /// Whether no finding is at level `deny`.
    pub fn policy_met(&self) -> bool {
        self.counts().denied == 0
    }

    /// 0 when the policy is met, 1 when it is violated (README, "Exit codes").
    pub fn exit_code(&self) -> i32 {
        if self.policy_met() {
            exit_code::POLICY_MET
        } else {
            exit_code::POLICY_VIOLATED
        }
    }
}

/// Applies `policy` to the engine's results. `call_graph` (caller symbol → callee symbols), when
/// given, adds to each proved function the unproven or allowed callees it relies on.
pub fn evaluate<'a>(policy: &Policy, results: &'a [FunctionResult], not_analysed: &'a [NotAnalysed], call_graph: Option<&CallGraph>) -> Evaluation<'a> {
    let mut allow_uses = AllowUsage::new(policy.allows.len());
    let mut functions: Vec<FunctionFinding<'a>> = results
        .iter()
        .map(|result| {
            let file = result.location.as_ref().map(|l| l.file.as_str());
            let names = [result.path.as_str(), result.symbol.as_str()];
            let matching: Vec<&AllowEntry> = policy.allows.iter().filter(|e| e.pattern.matches_any(names)).collect();
            allow_uses.note_matches(&matching);
            let findings: Vec<CheckFinding> = observations(&result.report)
                .into_iter()
                .map(|o| finding(policy, o.check, o.detail, result.crate_name.as_deref(), file, &matching, &mut allow_uses))
                .collect();
            FunctionFinding { result, status: Status::of(&findings, &[]), findings, assumptions: vec![] }
        })
        .collect();
    let not_analysed: Vec<NotAnalysedFinding<'a>> = not_analysed
        .iter()
        .map(|item| {
            let matching: Vec<&AllowEntry> = policy.allows.iter().filter(|e| e.pattern.matches_any([item.what.as_str()])).collect();
            allow_uses.note_matches(&matching);
            let finding = finding(policy, Check::NotAnalysed, item.reason.clone(), item.crate_name.as_deref(), None, &matching, &mut allow_uses);
            NotAnalysedFinding { item, finding }
        })
        .collect();
    if let Some(graph) = call_graph {
        let index = CalleeIndex::new(&functions, &not_analysed);
        let assumptions: Vec<Vec<Assumption>> = functions
            .iter()
            .map(|f| if f.findings.is_empty() { assumptions_of(&f.result.symbol, graph, &index) } else { vec![] })
            .collect();
        drop(index);
        for (function, assumptions) in functions.iter_mut().zip(assumptions) {
            function.status = Status::of(&function.findings, &assumptions);
            function.assumptions = assumptions;
        }
    }
    let (unused_level, _) = policy.base_level(Check::UnusedAllow);
    let unused_allows = policy
        .allows
        .iter()
        .filter(|entry| allow_uses.used[entry.index] == 0)
        .map(|entry| UnusedAllowFinding { entry: AllowUse::of(entry), matched_functions: allow_uses.matched[entry.index], level: unused_level })
        .collect();
    Evaluation { policy_source: policy.source.clone(), workspace_root: policy.workspace_root.clone(), functions, not_analysed, unused_allows }
}

/// Per allow entry: how many functions its pattern matched, how many findings it allowed.
struct AllowUsage {
    matched: Vec<usize>,
    used: Vec<usize>,
}

impl AllowUsage {
    fn new(entries: usize) -> AllowUsage {
        AllowUsage { matched: vec![0; entries], used: vec![0; entries] }
    }

    fn note_matches(&mut self, matching: &[&AllowEntry]) {
        for entry in matching {
            self.matched[entry.index] += 1;
        }
    }
}

/// One finding: its configured level, then the first matching entry (file order) that lists
/// the check allows it.
fn finding(
    policy: &Policy,
    check: Check,
    detail: String,
    crate_name: Option<&str>,
    file: Option<&str>,
    matching: &[&AllowEntry],
    usage: &mut AllowUsage,
) -> CheckFinding {
    let (configured, origin) = policy.level_for(check, crate_name, file);
    let entry = matching.iter().find(|e| e.checks.contains(&check));
    if let Some(entry) = entry {
        usage.used[entry.index] += 1;
    }
    let level = if entry.is_some() { Level::Allow } else { configured };
    CheckFinding { check, detail, configured, origin, allowed_by: entry.map(|e| AllowUse::of(e)), level }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::policy::function_result::SourceLocation;
    use std::path::Path;
    use termcheck_engine::analysis::FunctionReport;
    use termcheck_engine::verdict::{MemorySafety, NonTerminationWitness, Termination, TerminationProof};

    fn result(symbol: &str, termination: Termination, memory_safety: MemorySafety) -> FunctionResult {
        FunctionResult {
            crate_name: Some("app".into()),
            symbol: symbol.into(),
            path: format!("app::{symbol}"),
            location: Some(SourceLocation { file: "src/lib.rs".into(), line: 1 }),
            report: FunctionReport { name: symbol.into(), location: None, termination, memory_safety, seconds: 0.0, stats: vec![] },
        }
    }

    fn proved(symbol: &str) -> FunctionResult {
        result(symbol, Termination::Yes(TerminationProof::default()), MemorySafety::Proved)
    }

    fn looping(symbol: &str) -> FunctionResult {
        result(symbol, Termination::No(NonTerminationWitness::default()), MemorySafety::Proved)
    }

    fn policy(text: &str) -> Policy {
        crate::policy::parse_policy(text, Path::new("/ws/termcheck.toml"), Path::new("/ws")).expect("valid policy")
    }

    #[test]
    fn a_function_with_any_finding_is_never_proved() {
        let everything_allowed = "[[allow]]\nfunction = \"*\"\nreason = \"r\"\nchecks = [\"non-termination\", \"termination-unproven\", \"memory-safety-violated\", \"memory-safety-unproven\", \"undefined-behaviour\", \"timeout\", \"not-analysed\"]\n";
        let results = [looping("spin"), result("maybe", Termination::Maybe { reason: "x".into() }, MemorySafety::Unknown { reason: "y".into() })];
        let graph: CallGraph = [("spin", ["maybe"])].into_iter().collect();
        let evaluation = evaluate(&policy(everything_allowed), &results, &[], Some(&graph));
        for function in &evaluation.functions {
            assert_eq!(function.status, Status::Allowed, "{}", function.result.symbol);
        }
        assert_eq!(evaluation.exit_code(), exit_code::POLICY_MET);
        assert_eq!(evaluation.counts().proved, 0);
    }

    #[test]
    fn callers_of_an_allowed_function_are_proved_only_assuming_it() {
        let text = "[[allow]]\nfunction = \"app::spin\"\nreason = \"event loop\"\n";
        let results = [proved("main"), proved("middle"), looping("spin"), proved("alone")];
        let graph: CallGraph = [("main", vec!["middle"]), ("middle", vec!["spin", "middle"])].into_iter().collect();
        let evaluation = evaluate(&policy(text), &results, &[], Some(&graph));
        let status = |s: &str| evaluation.functions.iter().find(|f| f.result.symbol == s).expect("function").status;
        assert_eq!(status("main"), Status::ProvedAssuming);
        assert_eq!(status("middle"), Status::ProvedAssuming);
        assert_eq!(status("alone"), Status::Proved);
        assert_eq!(status("spin"), Status::Allowed);
        let main = &evaluation.functions[0];
        assert_eq!(main.assumptions.len(), 1);
        assert_eq!(main.assumptions[0].describe(), "assuming `app::spin` terminates (allowed: event loop)");
        // Without a call graph nothing can be said about callers: they are proved on their own verdicts.
        let without = evaluate(&policy(text), &results, &[], None);
        assert_eq!(without.functions[0].status, Status::Proved);
    }

    #[test]
    fn exit_code_follows_the_worst_level_including_unused_entries() {
        let results = [proved("f")];
        assert_eq!(evaluate(&policy(""), &results, &[], None).exit_code(), exit_code::POLICY_MET);
        let stale = "[checks]\nunused-allow = \"deny\"\n[[allow]]\nfunction = \"gone\"\nreason = \"r\"\n";
        let evaluation = evaluate(&policy(stale), &results, &[], None);
        assert_eq!(evaluation.unused_allows.len(), 1);
        assert_eq!(evaluation.exit_code(), exit_code::POLICY_VIOLATED);
        let looping_results = [looping("spin")];
        assert_eq!(evaluate(&policy(""), &looping_results, &[], None).exit_code(), exit_code::POLICY_VIOLATED);
        let not_analysed = [NotAnalysed { what: "libx.a".into(), reason: "make".into(), crate_name: None }];
        let evaluation = evaluate(&policy("[checks]\nnot-analysed = \"deny\"\n"), &results, &not_analysed, None);
        assert_eq!(evaluation.exit_code(), exit_code::POLICY_VIOLATED);
    }

    #[test]
    fn the_first_matching_entry_that_lists_the_check_is_used() {
        let text = "[[allow]]\nfunction = \"app::*\"\nreason = \"memory only\"\nchecks = [\"memory-safety-unproven\"]\n[[allow]]\nfunction = \"app::spin\"\nreason = \"loops\"\n";
        let results = [looping("spin")];
        let evaluation = evaluate(&policy(text), &results, &[], None);
        let used = evaluation.functions[0].findings[0].allowed_by.as_ref().expect("allowed");
        assert_eq!((used.index, used.reason.as_str()), (1, "loops"));
        assert_eq!(evaluation.unused_allows.len(), 1);
        assert_eq!(evaluation.unused_allows[0].matched_functions, 1);
    }
}
