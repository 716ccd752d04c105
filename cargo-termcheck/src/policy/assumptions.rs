//! The allowed-callee rule: a function whose own verdicts are proved still depends on its
//! callees, so every callee it reaches (directly or transitively) that is not proved itself
//! (allowed by an entry, at level `allow`, unproven, not analysed) becomes an assumption of
//! its proof: "proved, assuming `f` terminates (allowed: reason)". An allow entry therefore
//! never makes a caller count as plainly proved (docs/policy.md, "Allowed callees").

use super::check::{Check, Level};
use super::evaluate::{AllowUse, CheckFinding, FunctionFinding, NotAnalysedFinding};
use super::function_result::CallGraph;
use super::model::LevelOrigin;
use std::collections::{BTreeSet, HashMap, VecDeque};

/// What a caller's proof takes for granted about a callee.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum AssumedProperty {
    Terminates,
    IsMemorySafe,
    TerminatesAndIsMemorySafe,
}

impl AssumedProperty {
    fn of(checks: impl IntoIterator<Item = Check>) -> AssumedProperty {
        let (mut termination, mut memory) = (false, false);
        for check in checks {
            if check.is_about_termination() {
                termination = true;
            } else {
                memory = true;
            }
        }
        match (termination, memory) {
            (true, true) => AssumedProperty::TerminatesAndIsMemorySafe,
            (false, true) => AssumedProperty::IsMemorySafe,
            _ => AssumedProperty::Terminates,
        }
    }

    pub fn words(self) -> &'static str {
        match self {
            AssumedProperty::Terminates => "terminates",
            AssumedProperty::IsMemorySafe => "is memory-safe",
            AssumedProperty::TerminatesAndIsMemorySafe => "terminates and is memory-safe",
        }
    }
}

/// Why the callee is assumed rather than proved.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum AssumptionBasis {
    /// An allow entry allowed the callee's finding.
    Allowed(AllowUse),
    /// The callee's findings are at level `allow` by `[checks]`, a scope or the default.
    LevelAllow { check: Check, origin: LevelOrigin },
    /// The callee has a finding at level `warn` or `deny` (reported on the callee itself).
    NotProved { check: Check, level: Level },
    /// The callee was not analysed at all.
    NotAnalysed { reason: String },
}

/// One callee a proof relies on.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Assumption {
    pub callee_symbol: String,
    /// The demangled path (the symbol for a not-analysed callee).
    pub callee_path: String,
    pub property: AssumedProperty,
    pub basis: AssumptionBasis,
}

impl Assumption {
    /// "assuming `f` terminates (allowed: reason)".
    pub fn describe(&self) -> String {
        let basis = match &self.basis {
            AssumptionBasis::Allowed(entry) => format!("allowed: {}", entry.reason),
            AssumptionBasis::LevelAllow { check, .. } => format!("{check} is at level allow"),
            AssumptionBasis::NotProved { check, level } => format!("{check}, {level}"),
            AssumptionBasis::NotAnalysed { reason } => format!("not analysed: {reason}"),
        };
        format!("assuming `{}` {} ({basis})", self.callee_path, self.property.words())
    }
}

/// The functions and not-analysed items of a run by name, built once per evaluation.
pub(crate) struct CalleeIndex<'e, 'a> {
    by_symbol: HashMap<&'e str, &'e FunctionFinding<'a>>,
    missing: HashMap<&'e str, &'e NotAnalysedFinding<'a>>,
}

impl<'e, 'a> CalleeIndex<'e, 'a> {
    pub(crate) fn new(functions: &'e [FunctionFinding<'a>], not_analysed: &'e [NotAnalysedFinding<'a>]) -> CalleeIndex<'e, 'a> {
        CalleeIndex {
            by_symbol: functions.iter().map(|f| (f.result.symbol.as_str(), f)).collect(),
            missing: not_analysed.iter().map(|n| (n.item.what.as_str(), n)).collect(),
        }
    }
}

/// The not-proved callees `symbol` reaches in `graph`, sorted by callee symbol. Callees that are
/// neither results nor not-analysed items (e.g. std functions the engine summarises) add nothing.
pub(crate) fn assumptions_of(symbol: &str, graph: &CallGraph, index: &CalleeIndex<'_, '_>) -> Vec<Assumption> {
    let (by_symbol, missing) = (&index.by_symbol, &index.missing);
    let mut seen: BTreeSet<&str> = BTreeSet::from([symbol]);
    let mut queue: VecDeque<&str> = VecDeque::from([symbol]);
    let mut assumptions = Vec::new();
    while let Some(caller) = queue.pop_front() {
        for callee in graph.callees_of(caller) {
            if !seen.insert(callee.as_str()) {
                continue;
            }
            queue.push_back(callee.as_str());
            if let Some(function) = by_symbol.get(callee.as_str()) {
                if let Some(basis) = basis_of(&function.findings) {
                    assumptions.push(Assumption {
                        callee_symbol: callee.clone(),
                        callee_path: function.result.path.clone(),
                        property: AssumedProperty::of(function.findings.iter().map(|f| f.check)),
                        basis,
                    });
                }
            } else if let Some(item) = missing.get(callee.as_str()) {
                assumptions.push(Assumption {
                    callee_symbol: callee.clone(),
                    callee_path: callee.clone(),
                    property: AssumedProperty::TerminatesAndIsMemorySafe,
                    basis: match &item.finding.allowed_by {
                        Some(entry) => AssumptionBasis::Allowed(entry.clone()),
                        None => AssumptionBasis::NotAnalysed { reason: item.item.reason.clone() },
                    },
                });
            }
        }
    }
    assumptions.sort_by(|a, b| a.callee_symbol.cmp(&b.callee_symbol));
    assumptions
}

/// `None` for a proved callee; else the most telling reason: an allow entry first, then the
/// worst finding.
fn basis_of(findings: &[CheckFinding]) -> Option<AssumptionBasis> {
    if let Some(entry) = findings.iter().find_map(|f| f.allowed_by.clone()) {
        return Some(AssumptionBasis::Allowed(entry));
    }
    let worst = findings.iter().max_by_key(|f| (f.level, std::cmp::Reverse(f.check)))?;
    Some(match worst.level {
        Level::Allow => AssumptionBasis::LevelAllow { check: worst.check, origin: worst.origin },
        level => AssumptionBasis::NotProved { check: worst.check, level },
    })
}
