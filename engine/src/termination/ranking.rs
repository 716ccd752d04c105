//! Lexicographic combination of (multiphase) linear ranking functions by rank-and-remove.
//!
//! One *phase* on a set of rules (an SCC) is a tuple `f₁ … f_d` of linear functions per
//! location (d = 1: a linear ranking function; d > 1: a nested / multiphase ranking function
//! in the sense of Ben-Amram & Genaim and Leike & Heizmann) such that
//! * on every kept rule each `fᵢ` is non-increasing, and
//! * on every removed rule `f_{i-1}(x) + fᵢ(x) − fᵢ(x') ≥ 1` for all i (f₀ = 0) and `f_d(x) ≥ 0`.
//!
//! Then removed rules are used only finitely often in any run (f₁ eventually negative, then f₂
//! decreases by at least 1 on each removed step, …, finally f_d, which is bounded there).
//! The remaining rules are split into SCCs again and handled recursively.
//! Coefficients are found with z3 over the reals via Farkas' lemma and scaled to integers.

use super::farkas::{farkas, Template};
use super::graph::cyclic_components;
use super::rules::LinRule;
use crate::its::{Its, LocId};
use crate::logic::{Formula, Int, LinExpr, Term, Var};
use crate::smt::{solve, Budget, Query, SatResult, Value};
use std::collections::{BTreeMap, BTreeSet};

/// One phase of the lexicographic argument (see the module doc).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Phase {
    /// The rules of the SCC this phase was found on.
    pub scope: Vec<usize>,
    /// The rules shown to be used only finitely often.
    pub removed: Vec<usize>,
    /// Per location: `f₁ … f_d`.
    pub functions: BTreeMap<LocId, Vec<LinExpr>>,
    pub depth: usize,
    /// `Some(k)`: no function; the scope has no run of `k` steps (`bounded`), and every rule
    /// of the scope is removed.
    pub steps: Option<usize>,
}

/// Largest multiphase depth tried.
pub const MAX_DEPTH: usize = 3;

/// Rank-and-remove on the rules `scope`: all phases, or the SCC (rule indices) where it got stuck.
pub fn rank_and_remove(its: &Its, lin: &[LinRule], scope: &[usize], max_depth: usize, budget: &Budget) -> Result<Vec<Phase>, Vec<usize>> {
    let mut phases = Vec::new();
    let mut work = vec![scope.to_vec()];
    // The rule removed last: rules of one source loop are adjacent, so the next rule-by-rule
    // LP search starts after it.
    let mut after: usize = 0;
    while let Some(rules) = work.pop() {
        for comp in cyclic_components(its, &rules) {
            if budget.expired() {
                return Err(comp);
            }
            let found = (1..=max_depth.min(MAX_DEPTH)).find_map(|d| find_phase(its, lin, &comp, d, after, budget));
            // the bounded search only after the linear pass (the portfolio's lasso search comes
            // between them, and NO answers must not wait for it)
            let Some(phase) = found.or_else(|| if max_depth > 1 { bounded_phase(its, &comp, budget) } else { None }) else {
                return Err(comp);
            };
            after = phase.removed.iter().copied().max().unwrap_or(0);
            let rest: Vec<usize> = comp.iter().copied().filter(|r| !phase.removed.contains(r)).collect();
            phases.push(phase);
            work.push(rest);
        }
    }
    Ok(phases)
}

/// The whole SCC removed at once when it has no run of `k` steps (`bounded`).
fn bounded_phase(its: &Its, comp: &[usize], budget: &Budget) -> Option<Phase> {
    let k = super::bounded::steps_bound(its, comp, budget)?;
    Some(Phase { scope: comp.to_vec(), removed: comp.to_vec(), functions: BTreeMap::new(), depth: 0, steps: Some(k) })
}

/// Variables that can matter for a ranking function on `rules`: those in guards, closed under
/// the dependencies of their updates.
fn relevant_vars(its: &Its, lin: &[LinRule], rules: &[usize]) -> Vec<Var> {
    let vars: BTreeSet<&Var> = its.vars.iter().collect();
    let mut rel: BTreeSet<Var> = BTreeSet::new();
    for &r in rules {
        for g in &lin[r].guard {
            rel.extend(g.coeffs.keys().filter(|v| vars.contains(v)).cloned());
        }
    }
    loop {
        let before = rel.len();
        for &r in rules {
            for (v, u) in its.vars.iter().zip(&lin[r].update) {
                if rel.contains(v) {
                    rel.extend(u.coeffs.keys().filter(|w| vars.contains(w)).cloned());
                }
            }
        }
        if rel.len() == before {
            break;
        }
    }
    its.vars.iter().filter(|v| rel.contains(*v)).cloned().collect()
}

/// Unknown coefficients of `d` linear functions per location of `rules`: the relevant
/// variables, the templates, their unknowns, and the real-valued variables (the unknowns).
type Templates = (Vec<Var>, BTreeMap<LocId, Vec<Template>>, Vec<Var>, BTreeSet<Var>);

fn templates(its: &Its, lin: &[LinRule], rules: &[usize], d: usize) -> Templates {
    let vars = relevant_vars(its, lin, rules);
    let locs: BTreeSet<LocId> = rules.iter().flat_map(|&r| [lin[r].from, lin[r].to]).collect();
    let mut reals: BTreeSet<Var> = BTreeSet::new();
    // Unknown coefficients: c[l][i] = (per-variable unknowns, constant unknown).
    let mut templates: BTreeMap<LocId, Vec<Template>> = BTreeMap::new();
    let mut unknowns: Vec<Var> = Vec::new();
    for &l in &locs {
        let mut per = Vec::new();
        for i in 0..d {
            let mut t = Template::default();
            for (k, v) in vars.iter().enumerate() {
                let u = Var::new(format!("c{}_{i}_{k}", l.0));
                t.coeffs.insert(v.clone(), LinExpr::var(&u));
                unknowns.push(u);
            }
            let u0 = Var::new(format!("c{}_{i}_k", l.0));
            t.constant = LinExpr::var(&u0);
            unknowns.push(u0);
            per.push(t);
        }
        templates.insert(l, per);
    }
    reals.extend(unknowns.iter().cloned());
    (vars, templates, unknowns, reals)
}

/// A linear ranking phase (d = 1) found by linear programs only: first one function bounded
/// on every rule of `rules` that decreases on some; then, rule by rule, one that is bounded
/// and decreasing on that rule and non-increasing on the others (the lexicographic
/// components of Ben-Amram & Genaim, which need not be bounded where they do not decrease).
/// The rule-by-rule search tries the rules after `after` first (then the others).
pub fn find_lp_phase(its: &Its, lin: &[LinRule], rules: &[usize], after: usize, budget: &Budget) -> Option<Phase> {
    let (vars, templates, unknowns, reals) = templates(its, lin, rules, 1);
    if let Some(p) = lp_phase(its, lin, rules, &templates, &unknowns, &vars, reals.clone(), None, budget) {
        return Some(p);
    }
    let order = rules.iter().copied().filter(|&r| r > after).chain(rules.iter().copied().filter(|&r| r <= after));
    for r in order {
        if budget.expired() {
            return None;
        }
        if let Some(p) = lp_phase(its, lin, rules, &templates, &unknowns, &vars, reals.clone(), Some(r), budget) {
            return Some(p);
        }
    }
    None
}

/// Searches one phase of depth `d` on the SCC `rules` (at least one rule removed); `after`
/// orders the rule-by-rule LPs (`find_lp_phase`).
pub fn find_phase(its: &Its, lin: &[LinRule], rules: &[usize], d: usize, after: usize, budget: &Budget) -> Option<Phase> {
    if d == 1 {
        if let Some(p) = find_lp_phase(its, lin, rules, after, budget) {
            return Some(p);
        }
    }
    let (vars, templates, unknowns, mut reals) = templates(its, lin, rules, d);
    if budget.expired() {
        return None;
    }
    let mut indicators = Vec::new();
    let mut per_rule = Vec::new();
    for &r in rules {
        let rule = &lin[r];
        let sigma: BTreeMap<Var, LinExpr> = its.vars.iter().cloned().zip(rule.update.iter().cloned()).collect();
        let from = &templates[&rule.from];
        let to = &templates[&rule.to];
        let mut keep = Vec::new();
        let mut strict = Vec::new();
        for i in 0..d {
            let after = to[i].compose(&sigma)?;
            let diff = from[i].add_scaled(-1, &after)?;
            keep.push(farkas(&rule.guard, &diff, Term::Const(0), &format!("k{r}_{i}_"), &mut reals));
            let nested = if i == 0 { diff } else { diff.add_scaled(1, &from[i - 1])? };
            strict.push(farkas(&rule.guard, &nested, Term::Const(1), &format!("s{r}_{i}_"), &mut reals));
        }
        strict.push(farkas(&rule.guard, &from[d - 1], Term::Const(0), &format!("b{r}_"), &mut reals));
        let b = Var::new(format!("ind{r}"));
        reals.insert(b.clone());
        per_rule.push(Formula::or([
            Formula::and(std::iter::once(Formula::eq(Term::var(&b), Term::Const(0))).chain(keep)),
            Formula::and(std::iter::once(Formula::eq(Term::var(&b), Term::Const(1))).chain(strict)),
        ]));
        indicators.push(b);
    }
    let sum = Term::Add(indicators.iter().map(Term::var).collect());
    // First ask for all rules at once (one ranking function for the whole SCC), then for at least one.
    let attempts = [Term::Const(indicators.len() as Int), Term::Const(1)];
    for need in attempts {
        let formula = Formula::and(per_rule.iter().cloned().chain([Formula::ge(sum.clone(), need)]));
        let timeout = budget.next_timeout()?;
        let model_vars: Vec<Var> = unknowns.iter().chain(&indicators).cloned().collect();
        let t0 = std::time::Instant::now();
        let (res, model) = solve(&Query { formula: &formula, real_vars: &reals, timeout: Some(timeout) }, &model_vars);
        tracing::debug!(rules = rules.len(), vars = vars.len(), depth = d, ?res, secs = t0.elapsed().as_secs_f64(), "farkas query");
        if res != SatResult::Sat {
            if indicators.len() == 1 {
                return None;
            }
            continue;
        }
        let model = model?;
        let removed: Vec<usize> = rules
            .iter()
            .zip(&indicators)
            .filter(|(_, b)| matches!(model.get(*b), Some(Value::Int(1)) | Some(Value::Rat(1, 1))))
            .map(|(r, _)| *r)
            .collect();
        return phase_from_model(&model, &templates, removed, rules, &vars, d, 1);
    }
    None
}

/// The linear-programming variant for d = 1 (no disjunctions, fast). With `only = None`: `f`
/// bounded on every rule, non-increasing on every rule, and decreasing by `δᵣ ∈ [0, 1]` with
/// `Σ δᵣ ≥ 1`; rules with `δᵣ > 0` are removed and `f` is scaled so that their decrease is
/// at least 1. With `only = Some(τ)`: `f` non-increasing on every rule, and bounded and
/// decreasing by 1 on `τ` alone, which is removed (a component that need not be bounded on
/// the rules it keeps).
#[allow(clippy::too_many_arguments)]
fn lp_phase(
    its: &Its,
    lin: &[LinRule],
    rules: &[usize],
    templates: &BTreeMap<LocId, Vec<Template>>,
    unknowns: &[Var],
    vars: &[Var],
    mut reals: BTreeSet<Var>,
    only: Option<usize>,
    budget: &Budget,
) -> Option<Phase> {
    let mut parts = Vec::new();
    let mut deltas = Vec::new();
    for &r in rules {
        let rule = &lin[r];
        let sigma: BTreeMap<Var, LinExpr> = its.vars.iter().cloned().zip(rule.update.iter().cloned()).collect();
        let from = &templates[&rule.from][0];
        let diff = from.add_scaled(-1, &templates[&rule.to][0].compose(&sigma)?)?;
        if let Some(t) = only {
            let decrease = if r == t { 1 } else { 0 };
            parts.push(farkas(&rule.guard, &diff, Term::Const(decrease), &format!("k{r}_"), &mut reals));
            if r == t {
                parts.push(farkas(&rule.guard, from, Term::Const(0), &format!("b{r}_"), &mut reals));
            }
            continue;
        }
        let delta = Var::new(format!("delta{r}"));
        reals.insert(delta.clone());
        parts.push(Formula::ge(Term::var(&delta), Term::Const(0)));
        parts.push(Formula::le(Term::var(&delta), Term::Const(1)));
        parts.push(farkas(&rule.guard, &diff, Term::var(&delta), &format!("k{r}_"), &mut reals));
        parts.push(farkas(&rule.guard, from, Term::Const(0), &format!("b{r}_"), &mut reals));
        deltas.push(delta);
    }
    if only.is_none() {
        parts.push(Formula::ge(Term::Add(deltas.iter().map(Term::var).collect()), Term::Const(1)));
    }
    let formula = Formula::and(parts);
    let timeout = budget.next_timeout()?;
    let model_vars: Vec<Var> = unknowns.iter().chain(&deltas).cloned().collect();
    let t0 = std::time::Instant::now();
    let (res, model) = solve(&Query { formula: &formula, real_vars: &reals, timeout: Some(timeout) }, &model_vars);
    tracing::debug!(rules = rules.len(), vars = vars.len(), ?only, ?res, secs = t0.elapsed().as_secs_f64(), "farkas LP query");
    if res != SatResult::Sat {
        return None;
    }
    let model = model?;
    if let Some(t) = only {
        return phase_from_model(&model, templates, vec![t], rules, vars, 1, 1);
    }
    let mut removed = Vec::new();
    let mut boost: Int = 1;
    for (&r, delta) in rules.iter().zip(&deltas) {
        let (n, den) = match model.get(delta)? {
            Value::Int(i) => (*i, 1),
            Value::Rat(n, den) => (*n, *den),
        };
        if (n > 0) == (den > 0) && n != 0 {
            removed.push(r);
            // δ = n/den ≥ 1/boost  ⇐  boost ≥ den/n (rounded up).
            let (n, den) = (n.abs(), den.abs());
            boost = boost.max((den + n - 1) / n);
        }
    }
    phase_from_model(&model, templates, removed, rules, vars, 1, boost)
}

fn phase_from_model(
    model: &BTreeMap<Var, Value>,
    templates: &BTreeMap<LocId, Vec<Template>>,
    removed: Vec<usize>,
    rules: &[usize],
    vars: &[Var],
    d: usize,
    boost: Int,
) -> Option<Phase> {
    // Common denominator of all coefficients (one positive scaling keeps every condition).
    let mut lcm: Int = 1;
    let rat = |v: &Var| -> Option<(Int, Int)> {
        match model.get(v)? {
            Value::Int(i) => Some((*i, 1)),
            Value::Rat(n, den) if *den > 0 => Some((*n, *den)),
            Value::Rat(n, den) if *den < 0 => Some((n.checked_neg()?, den.checked_neg()?)),
            Value::Rat(..) => None,
        }
    };
    for per in templates.values() {
        for t in per {
            for u in t.coeffs.values().chain(std::iter::once(&t.constant)) {
                for w in u.coeffs.keys() {
                    let (_, den) = rat(w)?;
                    lcm = lcm_of(lcm, den)?;
                }
            }
        }
    }
    let value = |u: &LinExpr| -> Option<Int> {
        let w = u.coeffs.keys().next()?;
        let (n, den) = rat(w)?;
        n.checked_mul(lcm / den)?.checked_mul(boost)
    };
    let mut functions = BTreeMap::new();
    for (l, per) in templates {
        let mut fs = Vec::new();
        for t in per.iter().take(d) {
            let mut f = LinExpr::constant(value(&t.constant)?);
            for v in vars {
                let k = value(&t.coeffs[v])?;
                if k != 0 {
                    f.coeffs.insert(v.clone(), k);
                }
            }
            fs.push(f);
        }
        functions.insert(*l, fs);
    }
    if removed.is_empty() {
        return None;
    }
    Some(Phase { scope: rules.to_vec(), removed, functions, depth: d, steps: None })
}

fn gcd(a: Int, b: Int) -> Int {
    if b == 0 { a.abs() } else { gcd(b, a % b) }
}

fn lcm_of(a: Int, b: Int) -> Option<Int> {
    let g = gcd(a, b);
    if g == 0 {
        return Some(a.max(b));
    }
    (a / g).checked_mul(b)
}
