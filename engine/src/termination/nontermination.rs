//! Non-termination proofs: a lasso = a stem from the start location to a state in a closed
//! recurrent set of a loop.
//!
//! A loop is a self-loop rule or a short simple cycle composed into one rule `L` at location
//! `l` (guard `G(x,t)`, update `U(x,t)`). A set `S` of states at `l` is *closed recurrent* if it
//! is non-empty and `∀x. S(x) ⇒ ∃t. G(x,t) ∧ S(U(x,t))` (temporaries are nondeterministic
//! choices, so an infinite run may pick them: `∃t` is right). Candidates for `S`: a fixed
//! point of `L` (found by z3 together with the stem), the temporary-free part of the guard,
//! and the guard strengthened with "no guard atom decreases". The stem is a concrete path
//! found by z3 over bounded unrollings from the start; every witness is replayed concretely
//! and its closedness re-checked before it is reported.

use super::eval::{eval_formula, eval_term, Valuation};
use super::prepare::compose;
use super::rules::{rename_temps, temps_of};
use crate::its::{Its, LocId, Transition};
use crate::logic::{Formula, Int, LinExpr, Rel, Term, Var};
use crate::smt::{check_sat, model, Budget, SatResult, Value};
use std::collections::{BTreeMap, BTreeSet, VecDeque};

/// A non-termination witness on an ITS.
#[derive(Clone, Debug)]
pub struct Lasso {
    /// Rules of the stem, in order (indices into `its.transitions`).
    pub stem: Vec<usize>,
    /// Full valuations (variables and the step's temporaries) before each stem step, plus the final state.
    pub states: Vec<Valuation>,
    /// The loop (composed rule) and the rule indices it was composed from.
    pub loop_rule: Transition,
    pub loop_rules: Vec<usize>,
    /// Closed recurrent set at the loop's location, over `its.vars`.
    pub recurrent: Formula,
}

const MAX_LOOPS: usize = 40;
const MAX_CYCLE_LEN: usize = 3;
const MAX_STEM_LEN: usize = 6;
const MAX_STEMS: usize = 40;

/// Searches a lasso whose loop lies in the SCC given by `scc` (rule indices).
pub fn find_lasso(its: &Its, scc: &[usize], budget: &Budget) -> Option<Lasso> {
    let loops = candidate_loops(its, scc);
    let mut stems_cache: BTreeMap<LocId, Vec<Vec<usize>>> = BTreeMap::new();
    for (loop_rule, loop_rules) in loops {
        if budget.expired() {
            return None;
        }
        let l = loop_rule.from;
        let stems = stems_cache.entry(l).or_insert_with(|| stem_paths(its, l)).clone();
        // (1) A fixed point reachable by a stem.
        let temps: Vec<Var> = temps_of(its, &loop_rule).into_iter().collect();
        let fixed = Formula::and(
            std::iter::once(loop_rule.guard.clone())
                .chain(its.vars.iter().zip(&loop_rule.update).map(|(v, u)| Formula::eq(Term::var(v), u.clone()))),
        );
        for stem in &stems {
            if budget.expired() {
                return None;
            }
            if let Some((states, last)) = solve_stem(its, stem, &fixed, &temps, budget) {
                let recurrent = Formula::and(its.vars.iter().map(|v| Formula::eq(Term::var(v), Term::Const(last[v]))).collect::<Vec<_>>());
                let lasso = Lasso { stem: stem.clone(), states, loop_rule: loop_rule.clone(), loop_rules: loop_rules.clone(), recurrent };
                if check_lasso(its, &lasso, budget) {
                    return Some(lasso);
                }
            }
        }
        // (2) Closed recurrent sets from the guard.
        for s in recurrent_candidates(its, &loop_rule) {
            if budget.expired() {
                return None;
            }
            if !is_closed(its, &loop_rule, &s, budget) {
                continue;
            }
            for stem in &stems {
                if let Some((states, _)) = solve_stem(its, stem, &s, &[], budget) {
                    let lasso = Lasso { stem: stem.clone(), states, loop_rule: loop_rule.clone(), loop_rules: loop_rules.clone(), recurrent: s.clone() };
                    if check_lasso(its, &lasso, budget) {
                        return Some(lasso);
                    }
                }
            }
        }
    }
    None
}

/// Self-loops and short simple cycles of the SCC, each composed into one rule.
fn candidate_loops(its: &Its, scc: &[usize]) -> Vec<(Transition, Vec<usize>)> {
    let mut out: Vec<(Transition, Vec<usize>)> = Vec::new();
    for &r in scc {
        let t = &its.transitions[r];
        if t.from == t.to {
            out.push((t.clone(), vec![r]));
        }
    }
    // Simple cycles l → … → l of length 2..=MAX_CYCLE_LEN, starting at their smallest location.
    let mut stack: Vec<Vec<usize>> = scc.iter().map(|&r| vec![r]).filter(|p| its.transitions[p[0]].from != its.transitions[p[0]].to).collect();
    while let Some(path) = stack.pop() {
        if out.len() >= MAX_LOOPS {
            break;
        }
        let first = its.transitions[path[0]].from;
        let last = its.transitions[*path.last().unwrap_or(&path[0])].to;
        if last == first {
            let mut composed = its.transitions[path[0]].clone();
            let mut fresh = 0usize;
            for &r in &path[1..] {
                composed = compose(its, &composed, &its.transitions[r], &mut fresh);
            }
            out.push((composed, path));
            continue;
        }
        if path.len() >= MAX_CYCLE_LEN {
            continue;
        }
        let visited: BTreeSet<LocId> = path.iter().map(|&r| its.transitions[r].from).collect();
        for &r in scc {
            let t = &its.transitions[r];
            if t.from == last && t.from != t.to && t.to >= first && (t.to == first || !visited.contains(&t.to)) {
                let mut p = path.clone();
                p.push(r);
                stack.push(p);
            }
        }
    }
    out
}

/// Candidate recurrent sets: the temporary-free guard, then strengthened by "atoms do not decrease".
fn recurrent_candidates(its: &Its, rule: &Transition) -> Vec<Formula> {
    let vars: BTreeSet<Var> = its.vars.iter().cloned().collect();
    let pure: Vec<Formula> = rule.guard.conjuncts().into_iter().filter(|c| c.vars().is_subset(&vars)).collect();
    let map: BTreeMap<Var, Term> = its.vars.iter().cloned().zip(rule.update.iter().cloned()).collect();
    let mut mono = pure.clone();
    let mut mono2 = pure.clone();
    for c in &pure {
        let Formula::Cmp(rel, a, b) = c else { continue };
        let Some(e) = LinExpr::from_term(&Term::sub(a.clone(), b.clone())) else { continue };
        let e_after = e.to_term().substitute(&|v| map.get(v).cloned());
        if !e_after.vars_subset(&vars) {
            continue;
        }
        let Some(delta) = LinExpr::from_term(&Term::sub(e_after.clone(), e.to_term())) else { continue };
        let dir = match rel {
            Rel::Gt | Rel::Ge => Rel::Ge,
            Rel::Lt | Rel::Le => Rel::Le,
            _ => continue,
        };
        mono.push(Formula::cmp(dir, delta.to_term(), Term::Const(0)));
        let delta_after = delta.to_term().substitute(&|v| map.get(v).cloned());
        if delta_after.vars_subset(&vars) {
            mono2.push(Formula::cmp(dir, delta.to_term(), Term::Const(0)));
            mono2.push(Formula::cmp(dir, Term::sub(delta_after, delta.to_term()), Term::Const(0)));
        }
    }
    let mut out = vec![Formula::and(pure), Formula::and(mono)];
    let m2 = Formula::and(mono2);
    if !out.contains(&m2) {
        out.push(m2);
    }
    out.dedup();
    out
}

trait VarsSubset {
    fn vars_subset(&self, vars: &BTreeSet<Var>) -> bool;
}

impl VarsSubset for Term {
    fn vars_subset(&self, vars: &BTreeSet<Var>) -> bool {
        let mut vs = BTreeSet::new();
        self.collect_vars(&mut vs);
        vs.is_subset(vars)
    }
}

/// `∀x. S(x) ⇒ ∃t. G(x,t) ∧ S(U(x,t))`, decided by z3 (unknown = not closed).
pub fn is_closed(its: &Its, rule: &Transition, s: &Formula, budget: &Budget) -> bool {
    let rule = rename_temps(its, rule, "cl");
    let map: BTreeMap<Var, Term> = its.vars.iter().cloned().zip(rule.update.iter().cloned()).collect();
    let s_after = s.substitute(&|v| map.get(v).cloned());
    let temps: Vec<Var> = temps_of(its, &rule).into_iter().collect();
    let body = Formula::and([rule.guard.clone(), s_after]);
    let step = if temps.is_empty() { body } else { Formula::Exists(temps, Box::new(body)) };
    check_sat(&Formula::and([s.clone(), Formula::not(step)]), budget) == SatResult::Unsat
}

/// Paths (rule sequences) from the start to `l`, shortest first, bounded.
fn stem_paths(its: &Its, l: LocId) -> Vec<Vec<usize>> {
    let Some(start) = its.start else { return vec![vec![]] };
    let mut out = Vec::new();
    let mut queue: VecDeque<(LocId, Vec<usize>)> = VecDeque::from([(start, vec![])]);
    while let Some((at, path)) = queue.pop_front() {
        if out.len() >= MAX_STEMS {
            break;
        }
        if at == l {
            out.push(path.clone());
        }
        if path.len() >= MAX_STEM_LEN || queue.len() > 10 * MAX_STEMS {
            continue;
        }
        for (r, t) in its.transitions.iter().enumerate() {
            if t.from == at {
                let mut p = path.clone();
                p.push(r);
                queue.push_back((t.to, p));
            }
        }
    }
    out
}

fn step_var(v: &Var, k: usize) -> Var {
    Var::new(format!("{}@{k}", v.name()))
}

/// Finds concrete states along `stem` ending in a state satisfying `end` (whose extra
/// variables `end_temps` are existential). Returns the full valuations per step and the final state.
fn solve_stem(its: &Its, stem: &[usize], end: &Formula, end_temps: &[Var], budget: &Budget) -> Option<(Vec<Valuation>, Valuation)> {
    let mut parts = Vec::new();
    let mut model_vars: Vec<Var> = Vec::new();
    let mut step_temps: Vec<Vec<Var>> = Vec::new();
    for (k, &r) in stem.iter().enumerate() {
        let rule = rename_temps(its, &its.transitions[r], &format!("s{k}"));
        let temps: Vec<Var> = temps_of(its, &rule).into_iter().collect();
        let cur = |v: &Var| if its.vars.contains(v) { Some(Term::Var(step_var(v, k))) } else { None };
        parts.push(rule.guard.substitute(&cur));
        for (v, u) in its.vars.iter().zip(&rule.update) {
            parts.push(Formula::eq(Term::Var(step_var(v, k + 1)), u.substitute(&cur)));
        }
        model_vars.extend(temps.iter().cloned());
        step_temps.push(temps);
    }
    let n = stem.len();
    let fin = |v: &Var| if its.vars.contains(v) { Some(Term::Var(step_var(v, n))) } else { None };
    parts.push(end.substitute(&fin));
    for k in 0..=n {
        model_vars.extend(its.vars.iter().map(|v| step_var(v, k)));
    }
    model_vars.extend(end_temps.iter().cloned());
    let (res, m) = model(&Formula::and(parts), &model_vars, budget);
    if res != SatResult::Sat {
        return None;
    }
    let m = m?;
    let int = |v: &Var| -> Option<Int> {
        match m.get(v)? {
            Value::Int(i) => Some(*i),
            Value::Rat(..) => None,
        }
    };
    let mut states = Vec::new();
    for k in 0..=n {
        let mut val = Valuation::new();
        for v in &its.vars {
            val.insert(v.clone(), int(&step_var(v, k))?);
        }
        if k < n {
            for t in &step_temps[k] {
                // Temporaries keep their renamed names in the valuation (the replay renames the same way).
                val.insert(t.clone(), int(t)?);
            }
        }
        states.push(val);
    }
    let last = states.last()?.clone();
    Some((states, last))
}

/// Replays the stem concretely, checks the final state is in the recurrent set and re-checks closedness.
pub fn check_lasso(its: &Its, lasso: &Lasso, budget: &Budget) -> bool {
    if lasso.states.len() != lasso.stem.len() + 1 || lasso.loop_rule.from != lasso.loop_rule.to {
        return false;
    }
    let mut at = match its.start {
        Some(s) => s,
        None => lasso.stem.first().map_or(lasso.loop_rule.from, |&r| its.transitions[r].from),
    };
    for (k, &r) in lasso.stem.iter().enumerate() {
        let Some(rule) = its.transitions.get(r) else { return false };
        if rule.from != at {
            return false;
        }
        let rule = rename_temps(its, rule, &format!("s{k}"));
        let val = &lasso.states[k];
        if eval_formula(&rule.guard, val) != Some(true) {
            return false;
        }
        for (v, u) in its.vars.iter().zip(&rule.update) {
            if eval_term(u, val) != lasso.states[k + 1].get(v).copied() {
                return false;
            }
        }
        at = rule.to;
    }
    if at != lasso.loop_rule.from {
        return false;
    }
    let last: Valuation = its.vars.iter().filter_map(|v| Some((v.clone(), *lasso.states.last()?.get(v)?))).collect();
    if eval_formula(&lasso.recurrent, &last) != Some(true) {
        return false;
    }
    // The loop must really be the composition of the listed rules along a cycle.
    if !loop_matches(its, lasso) {
        return false;
    }
    is_closed(its, &lasso.loop_rule, &lasso.recurrent, budget)
}

fn loop_matches(its: &Its, lasso: &Lasso) -> bool {
    let Some(&first) = lasso.loop_rules.first() else { return false };
    let mut composed = its.transitions[first].clone();
    let mut fresh = 0;
    for &r in &lasso.loop_rules[1..] {
        let Some(t) = its.transitions.get(r) else { return false };
        if composed.to != t.from {
            return false;
        }
        composed = compose(its, &composed, t, &mut fresh);
    }
    composed == lasso.loop_rule
}

/// Human-readable description of a lasso.
pub fn describe(its: &Its, lasso: &Lasso) -> Vec<String> {
    let name = |r: usize| its.transitions[r].origin.clone().unwrap_or_else(|| format!("rule {r}"));
    let stem: Vec<String> = lasso.stem.iter().map(|&r| format!("{} -> {} ({})", its.location_name(its.transitions[r].from), its.location_name(its.transitions[r].to), name(r))).collect();
    let lp: Vec<String> = lasso.loop_rules.iter().map(|&r| name(r)).collect();
    let show = |val: &Valuation| its.vars.iter().filter_map(|v| Some(format!("{}={}", v.name(), val.get(v)?))).collect::<Vec<_>>().join(", ");
    vec![
        format!("stem: {}", if stem.is_empty() { "(empty)".into() } else { stem.join("; ") }),
        format!("reaches location {} with {}", its.location_name(lasso.loop_rule.from), lasso.states.last().map(show).unwrap_or_default()),
        format!("loop: {}", lp.join("; ")),
        format!("closed recurrent set: {}", lasso.recurrent),
    ]
}
