//! Control-flow refinement by the last rule taken: each location of an SCC is split into one
//! copy per SCC rule entering it (plus the original location for entries from outside), and a
//! rule `r2` leaves the copy for `r1` only if `r1; r2` is feasible.
//!
//! The refined ITS has exactly the runs of the original (a run's copy is determined by its
//! previous rule; only successions without any concrete state are dropped), so a termination
//! proof of it proves the original. It separates phases such as "x increases while y > x" and
//! "y increases while y < x" that can never follow each other.

use crate::its::{Its, LocId, Transition};
use crate::logic::{Formula, Term, Var};
use crate::smt::{check_sat, Budget, SatResult};
use std::collections::{BTreeMap, BTreeSet};

/// Largest SCC (in rules) that is refined.
pub const MAX_REFINE_RULES: usize = 40;

/// Is `r1; r2` feasible (some state takes `r1` and then `r2`)? Unknown counts as feasible.
fn feasible(its: &Its, r1: &Transition, r2: &Transition, budget: &Budget) -> bool {
    let r2 = super::rules::rename_temps(its, r2, "rf2");
    let map: BTreeMap<Var, Term> = its.vars.iter().cloned().zip(r1.update.iter().cloned()).collect();
    let f = Formula::and([r1.guard.clone(), r2.guard.substitute(&|v| map.get(v).cloned())]);
    check_sat(&f, budget) != SatResult::Unsat
}

/// Refines the SCC `scc` (rule indices) of `its`; `None` if it is too large or time ran out.
pub fn refine_by_last_rule(its: &Its, scc: &[usize], budget: &Budget) -> Option<Its> {
    if scc.len() > MAX_REFINE_RULES {
        return None;
    }
    let in_scc: BTreeSet<usize> = scc.iter().copied().collect();
    let locs: BTreeSet<LocId> = scc.iter().flat_map(|&r| [its.transitions[r].from, its.transitions[r].to]).collect();
    let mut out = Its { locations: its.locations.clone(), start: its.start, vars: its.vars.clone(), transitions: Vec::new() };
    // Copy of `to(r)` for arrivals by SCC rule r.
    let mut copy: BTreeMap<usize, LocId> = BTreeMap::new();
    for &r in scc {
        let t = &its.transitions[r];
        let name = format!("{}@{}", its.location_name(t.to), r);
        copy.insert(r, out.location(&name));
    }
    // Copies of each SCC location: the original (entries from outside) and one per entering SCC rule.
    let copies_of = |l: LocId| -> Vec<(Option<usize>, LocId)> {
        std::iter::once((None, l)).chain(scc.iter().filter(|&&r| its.transitions[r].to == l).map(|&r| (Some(r), copy[&r]))).collect()
    };
    for (i, t) in its.transitions.iter().enumerate() {
        if budget.expired() {
            return None;
        }
        if !locs.contains(&t.from) {
            out.transitions.push(t.clone());
            continue;
        }
        for (prev, src) in copies_of(t.from) {
            if let Some(p) = prev {
                if !feasible(its, &its.transitions[p], t, budget) {
                    continue;
                }
            }
            let dst = if in_scc.contains(&i) { copy[&i] } else { t.to };
            out.transitions.push(Transition { from: src, to: dst, ..t.clone() });
        }
    }
    Some(out)
}
