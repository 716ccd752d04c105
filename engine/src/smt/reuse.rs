//! One z3 solver kept per helper thread and reused, with `push`/`pop`, for the linear integer
//! queries that are most of the engine's z3 calls (symbolic execution's entailments).
//!
//! Why: a fresh `z3::Solver` per query pays for its construction, z3's default tactic
//! pipeline (probing the logic, building and configuring the QF_LIA tactic, rewriting) and its
//! destruction; on the Rust `Vec` cases that set-up was about two thirds of the z3 thread's time
//! while the SMT core decided the small conjunctions in a fraction of it (BENCHMARKS.md
//! "Session 11: product"). A solver used incrementally (after a `push`) runs z3's SMT core
//! directly, without the tactic pipeline.
//!
//! Isolation between queries (soundness): every query is asserted inside its own `push` and
//! removed by the matching `pop` before its answer is returned, so no assertion of one query
//! is visible to the next. The solver is thrown away and rebuilt after any answer other than
//! `sat`/`unsat` (a timeout or an interrupt can leave z3 mid-search), after a query whose
//! scopes do not close cleanly, and every [`REBUILD_AFTER`] queries (bounding whatever z3
//! keeps between checks). Each query's own time limit is set on the solver before its check,
//! so the limit from `Config` still bounds every query; `unknown` stays `Unknown`.
//!
//! Which queries: [`fits`] — all-integer, linear (products with at most one non-constant
//! factor, division and remainder by constants) and quantifier-free. Queries over reals (the
//! Farkas LPs of ranking synthesis), non-linear ones and quantified ones keep a fresh solver
//! with z3's default tactics, whose logic-specific procedures (nlsat, the LRA tactics) the
//! incremental core does not have.

use super::SatResult;
use crate::logic::{Formula, Term};
use std::time::Duration;

/// Queries one solver answers before it is rebuilt.
pub(super) const REBUILD_AFTER: u64 = 2_000;

/// The reused solver of one thread (a helper thread, or a caller running without one).
#[derive(Default)]
pub(super) struct ReusedSolver {
    solver: Option<z3::Solver>,
    /// Queries the current solver has answered.
    answered: u64,
    /// Solvers built so far by this owner (a statistic, and the tests' view of the reuse).
    pub(super) built: u64,
}

impl ReusedSolver {
    /// Checks `assertion` within `timeout` (`None` = no limit) in a scope of its own; `read`
    /// sees the solver and the answer before the scope is popped (for the model).
    pub(super) fn check<R>(&mut self, assertion: &z3::ast::Bool, timeout: Option<Duration>, read: impl FnOnce(&z3::Solver, SatResult) -> R) -> R {
        if self.answered >= REBUILD_AFTER {
            self.solver = None;
        }
        if self.solver.is_none() {
            self.built += 1;
            self.answered = 0;
        }
        let solver = self.solver.get_or_insert_with(z3::Solver::new);
        let mut params = z3::Params::new();
        // z3's own default for `timeout` is "no limit" (u32::MAX milliseconds).
        let millis = timeout.map_or(u32::MAX, |t| t.as_millis().clamp(1, u32::MAX as u128) as u32);
        params.set_u32("timeout", millis);
        solver.set_params(&params);
        solver.push();
        solver.assert(assertion);
        let result = match solver.check() {
            z3::SatResult::Sat => SatResult::Sat,
            z3::SatResult::Unsat => SatResult::Unsat,
            z3::SatResult::Unknown => SatResult::Unknown,
        };
        let out = read(solver, result);
        solver.pop(1);
        let leftover = !solver.get_assertions().is_empty();
        self.answered += 1;
        if result == SatResult::Unknown || leftover {
            self.solver = None;
        }
        out
    }
}

/// Whether a query goes to the reused solver: no real variables, linear, quantifier-free.
pub(super) fn fits(formula: &Formula, has_reals: bool) -> bool {
    !has_reals && linear_formula(formula)
}

fn linear_formula(f: &Formula) -> bool {
    match f {
        Formula::True | Formula::False | Formula::BoolVar(_) => true,
        Formula::Cmp(_, a, b) => linear_term(a) && linear_term(b),
        Formula::And(fs) | Formula::Or(fs) => fs.iter().all(linear_formula),
        Formula::Not(f) => linear_formula(f),
        Formula::Exists(..) => false,
    }
}

fn linear_term(t: &Term) -> bool {
    match t {
        Term::Const(_) | Term::Var(_) => true,
        Term::Add(ts) => ts.iter().all(linear_term),
        Term::Mul(ts) => ts.iter().all(linear_term) && ts.iter().filter(|t| !is_constant(t)).count() <= 1,
        Term::Neg(t) => linear_term(t),
        Term::Div(a, b) | Term::Mod(a, b) => linear_term(a) && is_constant(b),
        Term::Ite(c, a, b) => linear_formula(c) && linear_term(a) && linear_term(b),
    }
}

/// A term without variables (its value is fixed).
fn is_constant(t: &Term) -> bool {
    match t {
        Term::Const(_) => true,
        Term::Var(_) => false,
        Term::Add(ts) | Term::Mul(ts) => ts.iter().all(is_constant),
        Term::Neg(t) => is_constant(t),
        Term::Div(a, b) | Term::Mod(a, b) => is_constant(a) && is_constant(b),
        Term::Ite(..) => false,
    }
}
