//! Termination back end for integer transition systems.
//!
//! Portfolio, cheapest first, all within the `Budget`: exact preprocessing (`prepare`); no
//! cycles ⇒ YES; lexicographic rank-and-remove with linear and then multiphase ranking
//! functions (`ranking`; an SCC with no run of k steps is removed whole, `bounded`), on the
//! prepared ITS, then on the ITS split by guard predicates (`split`) and refined by the last
//! rule (`refine`), re-verified by an independent checker (`certificate`) before YES;
//! otherwise a lasso search (`nontermination`) whose witness is replayed before NO.
//! Anything else, including a timeout or a z3 `unknown`, is MAYBE.

pub mod bounded;
pub mod certificate;
pub mod eval;
pub mod farkas;
pub mod graph;
pub mod invariants;
pub mod nontermination;
pub mod prepare;
pub mod ranking;
pub mod refine;
pub mod split;
pub mod rules;
#[cfg(test)]
mod tests;

use crate::config::PortfolioShares;
use crate::its::Its;
use crate::smt::Budget;
use crate::verdict::{NonTerminationWitness, Termination};
use certificate::{check_certificate, to_proof, Certificate};

/// The result of the back end with its internal evidence (for tests and re-checking).
#[derive(Clone, Debug)]
pub enum Outcome {
    Yes { prepared: Its, certificate: Certificate },
    No { prepared: Its, lasso: nontermination::Lasso },
    Maybe(String),
}

/// Proves or disproves termination of `its` from its start location within the budget,
/// splitting it between the portfolio's steps by `shares`.
pub fn prove_its(its: &Its, shares: &PortfolioShares, budget: &Budget) -> Termination {
    match analyse(its, shares, budget) {
        Outcome::Yes { prepared, certificate } => {
            let notes = if certificate.phases.is_empty() { vec!["no reachable cycles".to_string()] } else { vec![] };
            Termination::Yes(to_proof(&prepared, &certificate, notes))
        }
        Outcome::No { prepared, lasso } => {
            let inputs = lasso
                .states
                .first()
                .map(|s| prepared.vars.iter().filter_map(|v| Some((v.name().to_string(), *s.get(v)?))).collect())
                .unwrap_or_default();
            let its_lasso = nontermination::witness(&prepared, &lasso);
            Termination::No(NonTerminationWitness { inputs, description: nontermination::describe(&prepared, &lasso), its_lasso, ..Default::default() })
        }
        Outcome::Maybe(reason) => Termination::Maybe { reason },
    }
}

/// A budget ending after a share of the time left (never later than `budget`'s deadline).
trait ShareOf {
    fn share(&self, share: crate::config::Share) -> Budget;
}

impl ShareOf for Budget {
    fn share(&self, share: crate::config::Share) -> Budget {
        match self.deadline {
            None => *self,
            Some(d) => {
                let now = std::time::Instant::now();
                let left = d.saturating_duration_since(now);
                Budget { deadline: Some(now + share.of(left)), per_query: self.per_query }
            }
        }
    }
}

/// The portfolio, returning internal evidence.
pub fn analyse(its: &Its, shares: &PortfolioShares, budget: &Budget) -> Outcome {
    let n_locs = its.locations.len() as u32;
    let malformed = its.start.is_some_and(|s| s.0 >= n_locs)
        || its.transitions.iter().any(|t| t.from.0 >= n_locs || t.to.0 >= n_locs || t.update.len() != its.vars.len());
    if malformed {
        return Outcome::Maybe("malformed ITS: a rule has an unknown location or an update of the wrong length".into());
    }
    let t0 = std::time::Instant::now();
    let prepared = prepare::prepare(its, budget);
    tracing::debug!(rules = prepared.transitions.len(), secs = t0.elapsed().as_secs_f64(), "prepared");
    tracing::trace!(vars = ?prepared.vars, locations = ?prepared.locations, rules = ?prepared.transitions, "prepared ITS");
    if budget.expired() {
        return Outcome::Maybe("timeout".into());
    }
    let all: Vec<usize> = (0..prepared.transitions.len()).collect();
    let sccs = graph::cyclic_components(&prepared, &all);
    if sccs.is_empty() {
        let certificate = Certificate::default();
        return match check_certificate(&prepared, &certificate, budget) {
            Ok(()) => Outcome::Yes { prepared, certificate },
            Err(e) => Outcome::Maybe(format!("certificate check failed: {e}")),
        };
    }
    // Portfolio with time shares: ranking on the prepared ITS; a lasso search; ranking on the
    // ITS strengthened by invariants; ranking on the refined (by last rule) and strengthened ITS.
    let rank = |target: Its, depth: usize, sub: &Budget| -> Result<Outcome, Vec<usize>> {
        let all: Vec<usize> = (0..target.transitions.len()).collect();
        let lin: Vec<rules::LinRule> = target.transitions.iter().map(|t| rules::linearize(&target, t)).collect();
        let phases = ranking::rank_and_remove(&target, &lin, &all, depth, sub)?;
        let certificate = Certificate { phases };
        Ok(match check_certificate(&target, &certificate, budget) {
            Ok(()) => Outcome::Yes { prepared: target, certificate },
            Err(e) if budget.expired() => Outcome::Maybe(format!("timeout while checking the certificate ({e})")),
            Err(e) => Outcome::Maybe(format!("certificate check failed: {e}")),
        })
    };
    let stuck = match rank(prepared.clone(), 1, &budget.share(shares.linear_ranking)) {
        Ok(outcome) => {
            tracing::debug!(secs = t0.elapsed().as_secs_f64(), "ranked");
            return outcome;
        }
        Err(s) => s,
    };
    tracing::debug!(secs = t0.elapsed().as_secs_f64(), "linear ranking failed");
    // Non-termination: the SCC where ranking got stuck first, then all others.
    let mut order = vec![stuck.clone()];
    order.extend(sccs.iter().filter(|s| !s.iter().all(|r| stuck.contains(r))).cloned());
    let lasso_budget = budget.share(shares.lasso);
    for scc in &order {
        if let Some(lasso) = nontermination::find_lasso(&prepared, scc, &lasso_budget) {
            return Outcome::No { prepared, lasso };
        }
    }
    tracing::debug!(secs = t0.elapsed().as_secs_f64(), "no lasso");
    if let Ok(outcome) = rank(prepared.clone(), ranking::MAX_DEPTH, &budget.share(shares.multiphase_ranking)) {
        return outcome;
    }
    let sub = budget.share(shares.strengthened_ranking);
    if let Ok(outcome) = rank(invariants::strengthen(&prepared, &sub), ranking::MAX_DEPTH, &sub) {
        return outcome;
    }
    // Locations split by the guards of their rules (`split`): piecewise arguments such as min(x, y).
    // Every SCC is split, not only the stuck one: the symbolic execution graph often unrolls one
    // loop into several SCCs that need the same argument.
    let sub = budget.share(shares.split_ranking);
    if let Some(split) = split::split_by_guards(&prepared, &sccs, &sub) {
        tracing::debug!(rules = split.transitions.len(), secs = t0.elapsed().as_secs_f64(), "split by guards");
        if let Ok(outcome) = rank(split, ranking::MAX_DEPTH, &sub) {
            return outcome;
        }
    }
    if let Some(refined) = refine::refine_by_last_rule(&prepared, &stuck, budget) {
        if let Ok(outcome) = rank(invariants::strengthen(&refined, budget), ranking::MAX_DEPTH, budget) {
            return outcome;
        }
    }
    if budget.expired() {
        return Outcome::Maybe("timeout".into());
    }
    let locs: Vec<&str> = stuck.iter().map(|&r| prepared.location_name(prepared.transitions[r].from)).collect();
    Outcome::Maybe(format!("no ranking function found for the cycle through {}, and no lasso found", locs.join(", ")))
}
