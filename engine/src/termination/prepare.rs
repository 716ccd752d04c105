//! Exact preprocessing of an ITS: reachable part, DNF split of guards, elimination of
//! temporaries defined by equalities, removal of infeasible rules, and chaining of locations.
//!
//! Every step preserves the set of runs from the start location (up to merging consecutive
//! steps through chained-away locations), so both YES and NO results on the prepared ITS hold
//! for the input: chaining `l1 -r1-> l -r2-> l2` into `l1 -r1;r2-> l2` when `l` has no
//! self-loop keeps every infinite run infinite (each visit to `l` is followed by a step out).

use super::rules::{normalize_atom, rename_temps};
use crate::its::{Its, LocId, Transition};
use crate::logic::{Formula, LinExpr, Rel, Term, Var};
use crate::smt::{check_sat, Budget, SatResult};
use std::collections::{BTreeSet, HashMap, VecDeque};

/// Largest number of disjuncts a guard is split into; beyond it the guard keeps its `or`.
const MAX_DNF: usize = 32;
/// Chaining stops when the ITS would grow beyond this many rules.
const MAX_RULES: usize = 3000;

/// The exact preprocessing pipeline.
pub fn prepare(its: &Its, budget: &Budget) -> Its {
    let mut out = its.clone();
    out.transitions = reachable_rules(its);
    let mut split = Vec::new();
    for t in &out.transitions {
        for guard in dnf_split(&t.guard) {
            let rule = Transition { guard, ..t.clone() };
            split.push(eliminate_temps(&out, rule));
        }
    }
    out.transitions = split;
    let t0 = std::time::Instant::now();
    prune_infeasible(&mut out, budget);
    tracing::debug!(rules = out.transitions.len(), secs = t0.elapsed().as_secs_f64(), "pruned");
    chain(&mut out, budget);
    tracing::debug!(rules = out.transitions.len(), secs = t0.elapsed().as_secs_f64(), "chained");
    out.transitions = reachable_rules(&out);
    out
}

/// Rules whose source is reachable from the start location (all rules if there is no start).
pub fn reachable_rules(its: &Its) -> Vec<Transition> {
    let Some(start) = its.start else { return its.transitions.clone() };
    let mut seen = BTreeSet::from([start]);
    let mut queue = VecDeque::from([start]);
    while let Some(l) = queue.pop_front() {
        for t in its.transitions.iter().filter(|t| t.from == l) {
            if seen.insert(t.to) {
                queue.push_back(t.to);
            }
        }
    }
    its.transitions.iter().filter(|t| seen.contains(&t.from)).cloned().collect()
}

/// Negation normal form; positive existentials are stripped (their variables become temporaries).
fn nnf(f: &Formula, positive: bool) -> Formula {
    match f {
        Formula::True => if positive { Formula::True } else { Formula::False },
        Formula::False => if positive { Formula::False } else { Formula::True },
        Formula::Cmp(r, a, b) => {
            let r = if positive { *r } else { r.negate() };
            match r {
                Rel::Ne => Formula::or([Formula::lt(a.clone(), b.clone()), Formula::gt(a.clone(), b.clone())]),
                _ => Formula::Cmp(r, a.clone(), b.clone()),
            }
        }
        Formula::And(fs) if positive => Formula::and(fs.iter().map(|f| nnf(f, true)).collect::<Vec<_>>()),
        Formula::And(fs) => Formula::or(fs.iter().map(|f| nnf(f, false)).collect::<Vec<_>>()),
        Formula::Or(fs) if positive => Formula::or(fs.iter().map(|f| nnf(f, true)).collect::<Vec<_>>()),
        Formula::Or(fs) => Formula::and(fs.iter().map(|f| nnf(f, false)).collect::<Vec<_>>()),
        Formula::Not(g) => nnf(g, !positive),
        Formula::Exists(_, body) if positive => nnf(body, true),
        other => if positive { other.clone() } else { Formula::Not(Box::new(other.clone())) },
    }
}

/// The guard as a list of conjunctive guards (exact), or the NNF guard itself if too many.
pub fn dnf_split(guard: &Formula) -> Vec<Formula> {
    let g = nnf(guard, true);
    match dnf(&g, MAX_DNF) {
        Some(ds) => ds.into_iter().map(Formula::and).filter(|f| *f != Formula::False).collect(),
        None => vec![g],
    }
}

fn dnf(f: &Formula, limit: usize) -> Option<Vec<Vec<Formula>>> {
    match f {
        Formula::False => Some(vec![]),
        Formula::True => Some(vec![vec![]]),
        Formula::Or(fs) => {
            let mut out = Vec::new();
            for g in fs {
                out.extend(dnf(g, limit)?);
                if out.len() > limit {
                    return None;
                }
            }
            Some(out)
        }
        Formula::And(fs) => {
            let mut acc: Vec<Vec<Formula>> = vec![vec![]];
            for g in fs {
                let parts = dnf(g, limit)?;
                let mut next = Vec::new();
                for a in &acc {
                    for p in &parts {
                        next.push(a.iter().chain(p).cloned().collect());
                    }
                }
                if next.len() > limit {
                    return None;
                }
                acc = next;
            }
            Some(acc)
        }
        other => Some(vec![vec![other.clone()]]),
    }
}

/// Substitutes temporaries defined by an equality conjunct (`t = e`, or linear with coefficient ±1).
pub fn eliminate_temps(its: &Its, mut rule: Transition) -> Transition {
    let vars: BTreeSet<Var> = its.vars.iter().cloned().collect();
    loop {
        let conj = rule.guard.conjuncts();
        let mut found = None;
        'search: for (i, c) in conj.iter().enumerate() {
            let Formula::Cmp(Rel::Eq, a, b) = c else { continue };
            for (x, y) in [(a, b), (b, a)] {
                if let Term::Var(t) = x {
                    if !vars.contains(t) {
                        let mut ys = BTreeSet::new();
                        y.collect_vars(&mut ys);
                        if !ys.contains(t) {
                            found = Some((i, t.clone(), y.clone()));
                            break 'search;
                        }
                    }
                }
            }
            if let Some(lin) = LinExpr::from_term(&Term::sub(a.clone(), b.clone())) {
                for (t, k) in &lin.coeffs {
                    if !vars.contains(t) && (*k == 1 || *k == -1) {
                        let mut rest = lin.clone();
                        rest.coeffs.remove(t);
                        if let Some(sol) = rest.scale(-*k) {
                            found = Some((i, t.clone(), sol.to_term()));
                            break 'search;
                        }
                    }
                }
            }
        }
        let Some((i, t, e)) = found else { break };
        let sub = |v: &Var| if *v == t { Some(e.clone()) } else { None };
        let rest: Vec<Formula> = conj.iter().enumerate().filter(|(j, _)| *j != i).map(|(_, c)| c.substitute(&sub)).collect();
        rule.guard = Formula::and(rest);
        rule.update = rule.update.iter().map(|u| u.substitute(&sub)).collect();
    }
    simplify_rule(rule)
}

/// Normalizes linear atoms and updates, drops trivially true atoms and duplicates.
pub fn simplify_rule(mut rule: Transition) -> Transition {
    let mut seen = BTreeSet::new();
    let mut parts = Vec::new();
    for c in rule.guard.conjuncts() {
        let c = normalize_atom(&c);
        if c == Formula::False {
            parts = vec![Formula::False];
            break;
        }
        if c != Formula::True && seen.insert(c.clone()) {
            parts.push(c);
        }
    }
    rule.guard = Formula::and(parts);
    rule.update = rule.update.iter().map(|u| u.as_linear().map_or_else(|| u.clone(), |l| l.to_term())).collect();
    rule
}

/// Locations on some cycle.
fn cyclic_locations(its: &Its) -> BTreeSet<LocId> {
    let all: Vec<usize> = (0..its.transitions.len()).collect();
    super::graph::cyclic_components(its, &all).into_iter().flatten().map(|r| its.transitions[r].from).collect()
}

/// Removes rules with unsatisfiable guards; z3 is asked only for rules inside cycles (the
/// others cannot affect termination, and each query costs milliseconds on large ITSs).
fn prune_infeasible(its: &mut Its, budget: &Budget) {
    let cyclic = cyclic_locations(its);
    its.transitions.retain(|t| {
        t.guard != Formula::False
            && !(cyclic.contains(&t.from) && cyclic.contains(&t.to) && check_sat(&t.guard, budget) == SatResult::Unsat)
    });
}

/// Sequential composition `r1; r2` (temporaries of `r2` renamed apart).
pub fn compose(its: &Its, r1: &Transition, r2: &Transition, fresh: &mut usize) -> Transition {
    // Rename r2's temporaries apart from r1's (retry with a new suffix on any clash, whatever
    // names the producer of the ITS chose).
    let r1_temps = super::rules::temps_of(its, r1);
    let r2 = loop {
        *fresh += 1;
        let renamed = rename_temps(its, r2, &format!("c{fresh}"));
        if super::rules::temps_of(its, &renamed).is_disjoint(&r1_temps) {
            break renamed;
        }
    };
    let map: HashMap<Var, Term> = its.vars.iter().cloned().zip(r1.update.iter().cloned()).collect();
    let sub = |v: &Var| map.get(v).cloned();
    let guard = Formula::and([r1.guard.clone(), r2.guard.substitute(&sub)]);
    let update = r2.update.iter().map(|u| u.substitute(&sub)).collect();
    let origin = match (&r1.origin, &r2.origin) {
        (Some(a), Some(b)) => Some(format!("{a}; {b}")),
        _ => None,
    };
    eliminate_temps(its, Transition { from: r1.from, to: r2.to, guard, update, origin })
}

/// Chains away locations without self-loops while the ITS does not grow much.
fn chain(its: &mut Its, budget: &Budget) {
    let mut fresh = 0usize;
    let mut removed: BTreeSet<LocId> = BTreeSet::new();
    // Only locations on cycles are chained away (the others do not matter for termination).
    let cyclic = cyclic_locations(its);
    loop {
        if budget.expired() {
            return;
        }
        let mut best: Option<(usize, LocId)> = None;
        for l in (0..its.locations.len() as u32).map(LocId) {
            if Some(l) == its.start || removed.contains(&l) || !cyclic.contains(&l) {
                continue;
            }
            let ins = its.transitions.iter().filter(|t| t.to == l).count();
            let outs = its.transitions.iter().filter(|t| t.from == l).count();
            if its.transitions.iter().any(|t| t.from == l && t.to == l) || ins == 0 {
                continue;
            }
            let growth = ins * outs;
            if growth > 2 * (ins + outs) + 2 || its.transitions.len() + growth > MAX_RULES {
                continue;
            }
            if best.is_none_or(|(g, _)| growth < g) {
                best = Some((growth, l));
            }
        }
        let Some((_, l)) = best else { return };
        let ins: Vec<Transition> = its.transitions.iter().filter(|t| t.to == l).cloned().collect();
        let outs: Vec<Transition> = its.transitions.iter().filter(|t| t.from == l).cloned().collect();
        its.transitions.retain(|t| t.to != l && t.from != l);
        for a in &ins {
            for b in &outs {
                let c = compose(its, a, b, &mut fresh);
                if c.guard != Formula::False && check_sat(&c.guard, budget) != SatResult::Unsat {
                    its.transitions.push(c);
                }
            }
        }
        removed.insert(l);
    }
}
