//! Control-flow refinement by guard predicates: each location of an SCC is split into one
//! copy per truth assignment of a few linear atoms taken from the guards of its outgoing
//! rules (partial evaluation in the style of LoAT and KoAT's control-flow refinement).
//!
//! A rule `l₁ → l₂` becomes the rules `l₁[σ₁] → l₂[σ₂]` with guard `g ∧ σ₁(x) ∧ σ₂(u(x))`
//! (`u` the update, temporaries shared with `g`), kept unless z3 shows it unsatisfiable. Every
//! state at `l` satisfies exactly one assignment, so each run of the original is a run of the
//! refined ITS (at each visit of `l`, the copy of the state's assignment), and a termination
//! proof of the refined ITS proves the original. The start location is never split (runs
//! begin there in any state). It makes `min(x, y)` a linear function per copy: `x` where
//! `x < y`, `y` where `x ≥ y`; and it separates regions such as `x > 0` and `x < 0` whose
//! rules are ranked by different orders.

use super::invariants::{atom_formula, pure_atoms};
use crate::its::{Its, LocId, Transition};
use crate::logic::{Formula, LinExpr, Term, Var};
use crate::smt::{check_sat, Budget, SatResult};
use std::collections::{BTreeMap, BTreeSet};

/// Largest SCC (in rules) that is split (larger ones keep their locations).
pub const MAX_SCOPE_RULES: usize = 40;
/// Most predicates per location (2^k copies).
pub const MAX_PREDICATES: usize = 3;
/// Largest refined ITS (in rules) that is built.
pub const MAX_RULES: usize = 1200;

/// `e ≥ 0` in a canonical orientation: of `e ≥ 0` and its integer complement `−e − 1 ≥ 0`,
/// the one whose first coefficient is positive (so an atom and its negation are one predicate).
fn canonical(e: &LinExpr) -> Option<LinExpr> {
    let (_, k) = e.coeffs.iter().find(|(_, k)| **k != 0)?;
    if *k > 0 {
        return Some(e.clone());
    }
    e.scale(-1)?.add_scaled(1, &LinExpr::constant(-1))
}

/// The predicates of location `l`: canonical atoms of the guards of `scope`'s rules leaving
/// `l`, those that some of these rules lack first (they tell the rules apart), at most
/// `MAX_PREDICATES`.
fn predicates(its: &Its, scope: &[usize], l: LocId) -> Vec<LinExpr> {
    let outs: Vec<&Transition> = scope.iter().map(|&r| &its.transitions[r]).filter(|t| t.from == l).collect();
    let per_rule: Vec<BTreeSet<LinExpr>> =
        outs.iter().map(|t| pure_atoms(its, &t.guard).iter().filter_map(canonical).collect()).collect();
    let mut all: Vec<LinExpr> = Vec::new();
    for set in &per_rule {
        for a in set {
            if !all.contains(a) {
                all.push(a.clone());
            }
        }
    }
    let (mut telling, common): (Vec<LinExpr>, Vec<LinExpr>) = all.into_iter().partition(|a| per_rule.iter().any(|s| !s.contains(a)));
    telling.extend(common);
    telling.truncate(MAX_PREDICATES);
    telling
}

/// The assignment `bits` (bit i: predicate i holds) of `preds` as a formula over `at(v)`.
fn assignment(preds: &[LinExpr], bits: usize, at: &dyn Fn(&Var) -> Option<Term>) -> Formula {
    let parts = preds.iter().enumerate().map(|(i, p)| {
        let f = atom_formula(p);
        let f = if bits & (1 << i) != 0 { f } else { Formula::not(f) };
        f.substitute(at)
    });
    Formula::and(parts.collect::<Vec<_>>())
}

/// Splits the locations of the SCCs `scopes` (rule indices) of `its`, each by the guards of
/// its own rules; `None` if nothing is split, the result is too large, or time ran out.
pub fn split_by_guards(its: &Its, scopes: &[Vec<usize>], budget: &Budget) -> Option<Its> {
    let mut preds: BTreeMap<LocId, Vec<LinExpr>> = BTreeMap::new();
    for scope in scopes.iter().filter(|s| s.len() <= MAX_SCOPE_RULES) {
        let locs: BTreeSet<LocId> = scope.iter().map(|&r| its.transitions[r].from).filter(|l| Some(*l) != its.start).collect();
        preds.extend(locs.iter().map(|&l| (l, predicates(its, scope, l))).filter(|(_, p)| !p.is_empty()));
    }
    tracing::trace!(?preds, "split predicates");
    if preds.is_empty() {
        return None;
    }
    let mut out = Its { locations: its.locations.clone(), start: its.start, vars: its.vars.clone(), transitions: Vec::new() };
    // Per split location: (assignment, copy) for every assignment.
    let mut copies: BTreeMap<LocId, Vec<(usize, LocId)>> = BTreeMap::new();
    for (&l, ps) in &preds {
        let name = its.location_name(l).to_string();
        let list = (0..1usize << ps.len())
            .map(|bits| {
                let tag: String = (0..ps.len()).map(|i| if bits & (1 << i) != 0 { '+' } else { '-' }).collect();
                (bits, out.location(&format!("{name}[{tag}]")))
            })
            .collect();
        copies.insert(l, list);
    }
    let id = |_: &Var| -> Option<Term> { None };
    for t in &its.transitions {
        let post: BTreeMap<Var, Term> = its.vars.iter().cloned().zip(t.update.iter().cloned()).collect();
        let at_post = |v: &Var| post.get(v).cloned();
        let sources: Vec<(Formula, LocId)> = match (copies.get(&t.from), preds.get(&t.from)) {
            (Some(cs), Some(ps)) => cs.iter().map(|&(bits, c)| (assignment(ps, bits, &id), c)).collect(),
            _ => vec![(Formula::True, t.from)],
        };
        let targets: Vec<(Formula, LocId)> = match (copies.get(&t.to), preds.get(&t.to)) {
            (Some(cs), Some(ps)) => cs.iter().map(|&(bits, c)| (assignment(ps, bits, &at_post), c)).collect(),
            _ => vec![(Formula::True, t.to)],
        };
        for (gs, src) in &sources {
            if budget.expired() {
                return None;
            }
            let with_src = Formula::and([t.guard.clone(), gs.clone()]);
            if sources.len() > 1 && check_sat(&with_src, budget) == SatResult::Unsat {
                continue;
            }
            for (gt, dst) in &targets {
                let guard = Formula::and([with_src.clone(), gt.clone()]);
                if targets.len() > 1 && check_sat(&guard, budget) == SatResult::Unsat {
                    continue;
                }
                out.transitions.push(Transition { from: *src, to: *dst, guard, update: t.update.clone(), origin: t.origin.clone() });
                if out.transitions.len() > MAX_RULES {
                    return None;
                }
            }
        }
    }
    // the DNF split and normal form the ranking back end expects of prepared rules
    let mut prepared = Vec::with_capacity(out.transitions.len());
    for t in std::mem::take(&mut out.transitions) {
        for guard in super::prepare::dnf_split(&t.guard) {
            prepared.push(super::prepare::eliminate_temps(&out, Transition { guard, ..t.clone() }));
        }
    }
    out.transitions = prepared;
    Some(out)
}
