//! Cycles with no run of `k` consecutive steps: every path of `k` connected rules of an SCC
//! is infeasible over the integers.
//!
//! A loop such as `while (x > 0) x = -2*x + 10` has no linear ranking function even after
//! unrolling (its rational fixed point 10/3 lies inside every unrolled guard), but over the
//! integers the set of states that can take `j` more steps shrinks to nothing: `x ∈ [1, 4]`,
//! `[3, 4]`, `{3}`, `∅`. If no path of `k` rules of an SCC is satisfiable, a run that stays in
//! the SCC takes fewer than `k` of its steps, so no infinite run ends inside it (all of the
//! SCC's rules are removed at once). The paths are the compositions `r₁; …; r_k` of rules with
//! `to(rᵢ) = from(rᵢ₊₁)`, temporaries renamed apart (fresh values at every step); a path is
//! extended only while its prefix is satisfiable (an unsatisfiable prefix makes every
//! extension unsatisfiable). z3's `unknown` counts as satisfiable.

use super::prepare::compose;
use crate::its::{Its, Transition};
use crate::smt::{check_sat, Budget, SatResult};

/// Largest SCC (in rules) that is tried.
pub const MAX_RULES: usize = 12;
/// Largest number of steps `k` tried.
pub const MAX_STEPS: usize = 8;
/// Largest number of satisfiable paths of one length that are extended further.
pub const MAX_PATHS: usize = 64;
/// Most satisfiability checks of one search (it runs wherever no ranking phase is found, so
/// it must stay cheap on loops that do have long runs).
pub const MAX_CHECKS: usize = 32;

/// The least `k ≤ MAX_STEPS` such that no path of `k` rules of `scope` is satisfiable, or
/// `None` (too large, a path of every length up to `MAX_STEPS`, or the budget ran out).
pub fn steps_bound(its: &Its, scope: &[usize], budget: &Budget) -> Option<usize> {
    if scope.is_empty() || scope.len() > MAX_RULES {
        return None;
    }
    let mut fresh = 0usize;
    let mut checks = scope.len();
    // The satisfiable paths of the current length, each as its composed rule.
    let mut paths: Vec<Transition> = Vec::new();
    for &r in scope {
        let rule = &its.transitions[r];
        match check_sat(&rule.guard, budget) {
            SatResult::Unsat => {}
            _ => paths.push(rule.clone()),
        }
    }
    for k in 1..=MAX_STEPS {
        if paths.is_empty() {
            return Some(k);
        }
        if k == MAX_STEPS || paths.len() > MAX_PATHS || budget.expired() {
            return None;
        }
        let mut next = Vec::new();
        for p in &paths {
            for &r in scope {
                let rule = &its.transitions[r];
                if rule.from != p.to {
                    continue;
                }
                checks += 1;
                if checks > MAX_CHECKS || budget.expired() {
                    return None;
                }
                let c = compose(its, p, rule, &mut fresh);
                if check_sat(&c.guard, budget) != SatResult::Unsat {
                    next.push(c);
                }
            }
        }
        paths = next;
    }
    None
}

/// Re-checks a bound found by [`steps_bound`]: every connected path of `k` rules of `scope`
/// is unsatisfiable. Unlike the search it does not stop early, and `unknown` fails it.
pub fn check_steps_bound(its: &Its, scope: &[usize], k: usize, budget: &Budget) -> Result<(), String> {
    if k == 0 || k > MAX_STEPS {
        return Err(format!("step bound {k} out of range"));
    }
    let mut fresh = 0usize;
    // Paths whose satisfiability is not yet refuted.
    let mut open: Vec<Transition> = scope.iter().map(|&r| its.transitions[r].clone()).collect();
    for len in 1..=k {
        let mut alive = Vec::new();
        for p in open {
            match check_sat(&p.guard, budget) {
                SatResult::Unsat => {}
                _ if len == k => return Err(format!("a path of {k} rules of {scope:?} is not shown infeasible")),
                _ => alive.push(p),
            }
        }
        if len == k {
            break;
        }
        open = Vec::new();
        for p in &alive {
            for &r in scope {
                let rule = &its.transitions[r];
                if rule.from == p.to {
                    open.push(compose(its, p, rule, &mut fresh));
                }
            }
        }
        if open.len() > MAX_PATHS * scope.len() {
            return Err(format!("too many paths of {scope:?} to re-check"));
        }
    }
    Ok(())
}
