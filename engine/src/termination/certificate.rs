//! Independent checker for termination certificates, and their conversion to `TerminationProof`.
//!
//! The checker does not trust the synthesis: it recomputes the SCC structure of the (prepared)
//! ITS and re-verifies every phase condition with z3 over the integers on the exact rules
//! (guards and updates as they are, non-linear terms included), so an error in the Farkas
//! encoding, the linear over-approximation or the scaling cannot produce a YES.

use super::graph::cyclic_components;
use super::ranking::Phase;
use crate::its::{Its, Transition};
use crate::logic::{Formula, LinExpr, Term, Var};
use crate::smt::{entails, Budget};
use crate::verdict::{ComponentProof, RankingPhase, TerminationProof};
use std::collections::{BTreeMap, VecDeque};

/// A complete termination argument for a (prepared) ITS: the phases of rank-and-remove.
#[derive(Clone, Debug, Default)]
pub struct Certificate {
    pub phases: Vec<Phase>,
}

/// `f(update)` as a term.
fn after(its: &Its, f: &LinExpr, rule: &Transition) -> Term {
    let map: BTreeMap<&Var, &Term> = its.vars.iter().zip(&rule.update).collect();
    let mut parts = vec![Term::Const(f.constant)];
    for (v, k) in &f.coeffs {
        let image = map.get(v).map(|t| (*t).clone()).unwrap_or_else(|| Term::var(v));
        parts.push(Term::scale(*k, image));
    }
    Term::Add(parts)
}

/// Re-verifies the certificate against `its`; `Err` names the first condition that fails.
pub fn check_certificate(its: &Its, cert: &Certificate, budget: &Budget) -> Result<(), String> {
    let all: Vec<usize> = (0..its.transitions.len()).collect();
    let mut work: VecDeque<Vec<usize>> = cyclic_components(its, &all).into();
    while let Some(scope) = work.pop_front() {
        let phase = cert.phases.iter().find(|p| p.scope == scope).ok_or_else(|| format!("no phase for the cycle through rules {scope:?}"))?;
        if phase.removed.is_empty() || phase.removed.iter().any(|r| !scope.contains(r)) {
            return Err(format!("phase on {scope:?} removes no rule of its scope"));
        }
        if let Some(k) = phase.steps {
            // no run of k steps inside the scope: every rule of it is used finitely often
            if phase.removed != scope {
                return Err(format!("bounded phase on {scope:?} does not remove its whole scope"));
            }
            super::bounded::check_steps_bound(its, &scope, k, budget)?;
            continue;
        }
        if phase.depth == 0 {
            return Err("phase of depth 0".into());
        }
        for &r in &scope {
            let rule = &its.transitions[r];
            let (Some(ff), Some(ft)) = (phase.functions.get(&rule.from), phase.functions.get(&rule.to)) else {
                return Err(format!("phase on {scope:?} lacks a function for a location of rule {r}"));
            };
            if ff.len() != phase.depth || ft.len() != phase.depth {
                return Err(format!("phase on {scope:?} has the wrong number of components"));
            }
            let removed = phase.removed.contains(&r);
            for i in 0..phase.depth {
                // fᵢ(x) − fᵢ(x') (+ f_{i−1}(x) for removed rules) ≥ 0 resp. ≥ 1
                let mut lhs = vec![ff[i].to_term(), Term::Neg(Box::new(after(its, &ft[i], rule)))];
                if removed && i > 0 {
                    lhs.push(ff[i - 1].to_term());
                }
                let bound = if removed { 1 } else { 0 };
                let cond = Formula::ge(Term::Add(lhs), Term::Const(bound));
                if !entails(&rule.guard, &cond, budget) {
                    return Err(format!("rule {r}: component {} not {}", i + 1, if removed { "decreasing" } else { "non-increasing" }));
                }
            }
            if removed {
                let cond = Formula::ge(ff[phase.depth - 1].to_term(), Term::Const(0));
                if !entails(&rule.guard, &cond, budget) {
                    return Err(format!("rule {r}: last component not bounded"));
                }
            }
        }
        let rest: Vec<usize> = scope.iter().copied().filter(|r| !phase.removed.contains(r)).collect();
        work.extend(cyclic_components(its, &rest));
    }
    Ok(())
}

/// Renders a linear expression with its variables' names (`2*x + y - 3`).
pub fn show_lin(f: &LinExpr) -> String {
    let mut s = String::new();
    for (v, k) in &f.coeffs {
        let sign = if *k < 0 { "-" } else { "+" };
        let mag = k.abs();
        if s.is_empty() {
            s.push_str(if *k < 0 { "-" } else { "" });
        } else {
            s.push_str(&format!(" {sign} "));
        }
        if mag == 1 {
            s.push_str(v.name());
        } else {
            s.push_str(&format!("{mag}*{}", v.name()));
        }
    }
    if s.is_empty() {
        return f.constant.to_string();
    }
    if f.constant != 0 {
        s.push_str(&format!(" {} {}", if f.constant < 0 { "-" } else { "+" }, f.constant.abs()));
    }
    s
}

/// The user-facing proof: per phase its functions (`f₁ … f_d` listed in order per location).
pub fn to_proof(its: &Its, cert: &Certificate, notes: Vec<String>) -> TerminationProof {
    let mut components = Vec::new();
    for p in &cert.phases {
        let mut locations: Vec<String> = p.functions.keys().map(|l| its.location_name(*l).to_string()).collect();
        if p.steps.is_some() {
            let locs: std::collections::BTreeSet<_> = p.scope.iter().map(|&r| its.transitions[r].from).collect();
            locations = locs.into_iter().map(|l| its.location_name(l).to_string()).collect();
        }
        locations.dedup();
        let mut functions = Vec::new();
        for (l, fs) in &p.functions {
            for f in fs {
                functions.push((its.location_name(*l).to_string(), f.clone()));
            }
        }
        let removed: Vec<String> =
            p.removed.iter().map(|&r| its.transitions[r].origin.clone().unwrap_or_else(|| format!("rule {r}"))).collect();
        let kind = match (p.steps, p.depth) {
            (Some(_), _) => "bound",
            (None, 1) => "linear",
            (None, _) => "multiphase",
        };
        // `bound`: no run of k steps inside the cycle (`bounded`), so at most k − 1 of them
        let expressions = match p.steps {
            Some(k) => {
                let text = format!("at most {} iterations", k - 1);
                let location = locations.first().cloned().unwrap_or_default();
                vec![crate::verdict::SourceExpr { location, text: text.clone(), internal: format!("no run of {k} steps") }]
            }
            None => vec![],
        };
        components.push(ComponentProof {
            locations,
            phases: vec![RankingPhase { functions, kind: kind.to_string(), depth: p.depth, removes: removed, expressions }],
            loops: vec![],
            invariants: vec![],
        });
    }
    TerminationProof { components, notes }
}
