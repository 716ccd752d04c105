//! The only module that touches z3: satisfiability, entailment and models for `logic::Formula`.
//!
//! z3 contexts are thread-local (z3 crate ≥ 0.20), so callers on different rayon threads
//! never share solver state. z3's `unknown` (including a timeout) is always reported as
//! `SatResult::Unknown`; callers must treat it as "not proven" (see `entails`).
//!
//! Every query runs on a helper thread (`helper`): it returns `Unknown` by its time limit
//! even when z3 does not stop, and at once when the analysis is cancelled (`crate::cancel`).

mod bv;
mod helper;
mod reuse;
mod translate;

pub use bv::BvModel;
pub use helper::{busy as helpers_busy, live as helpers_live, ABANDON_SLACK, CANCEL_POLL};

use crate::logic::{Formula, Int, Var};
use std::collections::{BTreeMap, BTreeSet};
use std::time::{Duration, Instant};

/// Outcome of a satisfiability check.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum SatResult {
    Sat,
    Unsat,
    Unknown,
}

/// A value in a model: integers for `Int` variables, exact rationals `num/den` for `Real` ones.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Value {
    Int(Int),
    Rat(Int, Int),
}

/// A model restricted to the variables the caller asked for.
pub type Model = BTreeMap<Var, Value>;

/// Budget and sorts of one query.
#[derive(Clone, Debug)]
pub struct Query<'a> {
    pub formula: &'a Formula,
    /// Variables of sort `Real` (all others are `Int`).
    pub real_vars: &'a BTreeSet<Var>,
    /// Hard limit for this query; `None` = z3's default (no limit).
    pub timeout: Option<Duration>,
}

/// Budget shared by all queries of one analysis: no query runs past the deadline.
#[derive(Clone, Copy, Debug)]
pub struct Budget {
    pub deadline: Option<Instant>,
    /// Upper bound for a single query, to keep one hard query from eating the whole budget.
    pub per_query: Duration,
}

impl Budget {
    /// No deadline; each query at most `per_query`.
    pub fn unlimited(per_query: Duration) -> Budget {
        Budget { deadline: None, per_query }
    }
    /// Queries end by `deadline`, each at most `per_query`.
    pub fn until(deadline: Instant, per_query: Duration) -> Budget {
        Budget { deadline: Some(deadline), per_query }
    }
    /// Whether the deadline has passed or the analysis was cancelled (`crate::cancel`).
    pub fn expired(&self) -> bool {
        crate::cancel::requested() || self.deadline.is_some_and(|d| Instant::now() >= d)
    }
    /// The timeout for the next query, `None` if the deadline has passed or the analysis
    /// was cancelled.
    pub fn next_timeout(&self) -> Option<Duration> {
        if crate::cancel::requested() {
            return None;
        }
        match self.deadline {
            None => Some(self.per_query),
            Some(d) => {
                let left = d.checked_duration_since(Instant::now())?;
                if left.is_zero() {
                    None
                } else {
                    Some(left.min(self.per_query))
                }
            }
        }
    }
}

static EMPTY: std::sync::LazyLock<BTreeSet<Var>> = std::sync::LazyLock::new(BTreeSet::new);

/// Checks satisfiability; returns the model of the requested variables when `Sat`.
pub fn solve(query: &Query<'_>, model_vars: &[Var]) -> (SatResult, Option<Model>) {
    let job = helper::Job::Arith { formula: query.formula.clone(), real_vars: query.real_vars.clone(), timeout: query.timeout, model_vars: model_vars.to_vec() };
    match helper::run(job) {
        helper::Answer::Arith(result, model) => (result, model),
        helper::Answer::BitVector(..) => (SatResult::Unknown, None),
    }
}

/// Satisfiability of a bit-vector formula within `timeout` (`None` = no limit); when `Sat`,
/// the model assigns every variable of the formula. A model that cannot be read back makes
/// the result `Unknown`.
pub fn check_bv(formula: &crate::logic::bv::BvFormula, timeout: Option<Duration>) -> (SatResult, Option<BvModel>) {
    match helper::run(helper::Job::BitVector { formula: formula.clone(), timeout }) {
        helper::Answer::BitVector(result, model) => (result, model),
        helper::Answer::Arith(..) => (SatResult::Unknown, None),
    }
}

/// Satisfiability of an all-integer formula within the budget.
pub fn check_sat(formula: &Formula, budget: &Budget) -> SatResult {
    let Some(timeout) = budget.next_timeout() else { return SatResult::Unknown };
    solve(&Query { formula, real_vars: &EMPTY, timeout: Some(timeout) }, &[]).0
}

/// Satisfiability plus a model of `vars` (all-integer formula).
pub fn model(formula: &Formula, vars: &[Var], budget: &Budget) -> (SatResult, Option<Model>) {
    let Some(timeout) = budget.next_timeout() else { return (SatResult::Unknown, None) };
    solve(&Query { formula, real_vars: &EMPTY, timeout: Some(timeout) }, vars)
}

/// `⊨ premise ⇒ conclusion`, decided as unsatisfiability of `premise ∧ ¬conclusion`.
/// `Unknown` (timeouts included) counts as *not* entailed, the sound side for every caller.
pub fn entails(premise: &Formula, conclusion: &Formula, budget: &Budget) -> bool {
    let f = Formula::and([premise.clone(), Formula::not(conclusion.clone())]);
    check_sat(&f, budget) == SatResult::Unsat
}

/// Checks one z3 assertion with an optional time limit; returns the solver for the model.
fn run_solver(assertion: &z3::ast::Bool, timeout: Option<Duration>) -> (SatResult, z3::Solver) {
    let solver = z3::Solver::new();
    if let Some(t) = timeout {
        let mut params = z3::Params::new();
        params.set_u32("timeout", t.as_millis().clamp(1, u32::MAX as u128) as u32);
        solver.set_params(&params);
    }
    solver.assert(assertion);
    let result = match solver.check() {
        z3::SatResult::Sat => SatResult::Sat,
        z3::SatResult::Unsat => SatResult::Unsat,
        z3::SatResult::Unknown => SatResult::Unknown,
    };
    (result, solver)
}

#[cfg(test)]
mod tests;
