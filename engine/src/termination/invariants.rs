//! Inductive invariants (Houdini over linear candidate atoms) to strengthen the guards of
//! rules on cycles.
//!
//! Candidates at a location on a cycle: the temporary-free guard atoms of its outgoing rules,
//! and sign facts of the variables in them. Houdini removes every candidate that some rule
//! into the location does not establish (`I_from ∧ G ⇒ a(U)` for all temporaries, checked by
//! z3; locations off cycles and the start location have the invariant `true`). The fixpoint
//! holds in every reachable state, so conjoining it to guards keeps all reachable runs: sound
//! for YES, and a NO witness of the strengthened ITS is one of the original (its rules are subsets).

use super::graph::cyclic_components;
use crate::its::{Its, LocId};
use crate::logic::{Formula, LinExpr, Rel, Term, Var};
use crate::smt::{entails, Budget};
use std::collections::{BTreeMap, BTreeSet};

const MAX_ATOMS: usize = 30;
const MAX_RULES: usize = 400;

/// `e ≥ 0` as a formula.
pub fn atom_formula(e: &LinExpr) -> Formula {
    let mut lhs = e.clone();
    let c = lhs.constant;
    lhs.constant = 0;
    Formula::ge(lhs.to_term(), Term::Const(-c))
}

/// Temporary-free linear atoms of a guard, each as `e ≥ 0` (equalities give two).
pub fn pure_atoms(its: &Its, guard: &Formula) -> Vec<LinExpr> {
    let vars: BTreeSet<Var> = its.vars.iter().cloned().collect();
    let mut out = Vec::new();
    for c in guard.conjuncts() {
        let Formula::Cmp(rel, a, b) = &c else { continue };
        if !c.vars().is_subset(&vars) {
            continue;
        }
        let Some(d) = LinExpr::from_term(&Term::sub(a.clone(), b.clone())) else { continue };
        let one = LinExpr::constant(-1);
        let parts = match rel {
            Rel::Ge => vec![Some(d)],
            Rel::Gt => vec![d.add_scaled(1, &one)],
            Rel::Le => vec![d.scale(-1)],
            Rel::Lt => vec![d.scale(-1).and_then(|e| e.add_scaled(1, &one))],
            Rel::Eq => vec![Some(d.clone()), d.scale(-1)],
            Rel::Ne => vec![],
        };
        out.extend(parts.into_iter().flatten().filter(|e| !e.is_constant()));
    }
    out
}

/// Invariants per location on a cycle (conjunctions of atoms `e ≥ 0`).
pub fn houdini_invariants(its: &Its, budget: &Budget) -> BTreeMap<LocId, Vec<LinExpr>> {
    let mut inv: BTreeMap<LocId, Vec<LinExpr>> = BTreeMap::new();
    if its.transitions.len() > MAX_RULES {
        return inv;
    }
    let all: Vec<usize> = (0..its.transitions.len()).collect();
    let mut on_cycle: BTreeSet<LocId> = BTreeSet::new();
    for comp in cyclic_components(its, &all) {
        for r in comp {
            on_cycle.insert(its.transitions[r].from);
        }
    }
    for &l in &on_cycle {
        if Some(l) == its.start {
            continue;
        }
        let mut atoms: Vec<LinExpr> = Vec::new();
        for t in its.transitions.iter().filter(|t| t.from == l) {
            for e in pure_atoms(its, &t.guard) {
                let mut signs = Vec::new();
                for v in e.coeffs.keys() {
                    signs.push(LinExpr::var(v));
                    signs.push(LinExpr::var(v).scale(-1).unwrap_or_default());
                }
                for a in std::iter::once(e).chain(signs) {
                    if !a.is_constant() && !atoms.contains(&a) {
                        atoms.push(a);
                    }
                }
            }
        }
        // Facts an incoming rule's guard states about variables it does not change.
        for t in its.transitions.iter().filter(|t| t.to == l) {
            let kept: BTreeSet<&Var> = its.vars.iter().zip(&t.update).filter(|(v, u)| **u == Term::var(v)).map(|(v, _)| v).collect();
            for e in pure_atoms(its, &t.guard) {
                if e.coeffs.keys().all(|v| kept.contains(v)) && !atoms.contains(&e) {
                    atoms.push(e);
                }
            }
        }
        atoms.truncate(MAX_ATOMS);
        inv.insert(l, atoms);
    }
    // Houdini fixpoint.
    loop {
        if budget.expired() {
            return BTreeMap::new();
        }
        let mut changed = false;
        for t in &its.transitions {
            let Some(target) = inv.get(&t.to) else { continue };
            if target.is_empty() {
                continue;
            }
            let pre_atoms = inv.get(&t.from).cloned().unwrap_or_default();
            let pre = Formula::and(std::iter::once(t.guard.clone()).chain(pre_atoms.iter().map(atom_formula)));
            let map: BTreeMap<Var, Term> = its.vars.iter().cloned().zip(t.update.iter().cloned()).collect();
            let post = |e: &LinExpr| atom_formula(e).substitute(&|v| map.get(v).cloned());
            let all_post = Formula::and(target.iter().map(post).collect::<Vec<_>>());
            if entails(&pre, &all_post, budget) {
                continue;
            }
            if budget.expired() {
                return BTreeMap::new();
            }
            let keep: Vec<LinExpr> = target.iter().filter(|e| entails(&pre, &post(e), budget)).cloned().collect();
            if keep.len() != target.len() {
                inv.insert(t.to, keep);
                changed = true;
            }
        }
        if !changed {
            break;
        }
    }
    inv.retain(|_, atoms| !atoms.is_empty());
    inv
}

/// The ITS with each rule's guard strengthened by the invariant of its source location.
pub fn strengthen(its: &Its, budget: &Budget) -> Its {
    let inv = houdini_invariants(its, budget);
    let mut out = its.clone();
    for t in &mut out.transitions {
        if let Some(atoms) = inv.get(&t.from) {
            let existing: BTreeSet<Formula> = t.guard.conjuncts().into_iter().collect();
            let extra: Vec<Formula> = atoms.iter().map(atom_formula).filter(|f| !existing.contains(f)).collect();
            if !extra.is_empty() {
                t.guard = Formula::and(std::iter::once(t.guard.clone()).chain(extra));
            }
        }
    }
    out
}
