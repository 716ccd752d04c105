//! Non-termination proofs: a lasso = a stem from the start location to a state in a closed
//! recurrent set.
//!
//! A recurrent set assigns a set `S_l` of states to some locations `l`; it is *closed* w.r.t. a
//! set of loops (rules, possibly composed from short cycles) if from every state in `S_l` some
//! loop leaving `l` can step into `S_l'` of its target: `∀x. S_l(x) ⇒ ∨ᵣ ∃t. Gᵣ(x,t) ∧ S_l'(Uᵣ(x,t))`
//! (temporaries are nondeterministic choices, so an infinite run may pick them: `∃t` is right).
//! Candidates: a fixed point of one loop (found by z3 together with the stem); per loop the
//! temporary-free guard, possibly strengthened with "no guard atom decreases"; and for a whole
//! SCC the greatest inductive subset (Houdini) of guard atoms and their hull, per location.
//! The stem is a concrete path found by z3 over bounded unrollings from the start; every
//! witness is replayed concretely and its closedness re-checked before it is reported.

use super::eval::{eval_formula, eval_term, Valuation};
use super::invariants::{atom_formula, pure_atoms};
use super::prepare::compose;
use super::rules::{rename_temps, temps_of};
use crate::its::{Its, LocId, Transition};
use crate::logic::{Formula, Int, LinExpr, Rel, Term, Var};
use crate::smt::{check_sat, entails, model, Budget, SatResult, Value};
use std::collections::{BTreeMap, BTreeSet, VecDeque};

/// A non-termination witness on an ITS.
#[derive(Clone, Debug)]
pub struct Lasso {
    /// Rules of the stem, in order (indices into `its.transitions`).
    pub stem: Vec<usize>,
    /// Full valuations (variables and the step's temporaries) before each stem step, plus the final state.
    pub states: Vec<Valuation>,
    /// The location where the stem ends (one of the recurrent set's locations).
    pub location: LocId,
    /// The loops (rules or composed cycles, with the rule indices they were composed from).
    pub loops: Vec<(Transition, Vec<usize>)>,
    /// Closed recurrent set per location, over `its.vars`.
    pub recurrent: BTreeMap<LocId, Formula>,
}

/// A loop: a rule or a composed cycle, with the rule indices it was composed from.
type Loop = (Transition, Vec<usize>);

const MAX_LOOPS: usize = 40;
const MAX_CYCLE_LEN: usize = 3;
const MAX_STEM_LEN: usize = 6;
const MAX_STEMS: usize = 40;

/// Searches a lasso whose loop lies in the SCC given by `scc` (rule indices).
pub fn find_lasso(its: &Its, scc: &[usize], budget: &Budget) -> Option<Lasso> {
    let mut by_location: BTreeMap<LocId, Vec<(Transition, Vec<usize>)>> = BTreeMap::new();
    for lp in candidate_loops(its, scc) {
        by_location.entry(lp.0.from).or_default().push(lp);
    }
    for (l, group) in by_location {
        let stems = stem_paths(its, l);
        let found = |stem: &Vec<usize>, states: Vec<Valuation>, loops: Vec<(Transition, Vec<usize>)>, recurrent: Formula| {
            let lasso = Lasso { stem: stem.clone(), states, location: l, loops, recurrent: BTreeMap::from([(l, recurrent)]) };
            check_lasso(its, &lasso, budget).then_some(lasso)
        };
        // (1) A fixed point of one loop, reachable by a stem.
        for lp in &group {
            let temps: Vec<Var> = temps_of(its, &lp.0).into_iter().collect();
            let fixed = Formula::and(
                std::iter::once(lp.0.guard.clone())
                    .chain(its.vars.iter().zip(&lp.0.update).map(|(v, u)| Formula::eq(Term::var(v), u.clone()))),
            );
            for stem in &stems {
                if budget.expired() {
                    return None;
                }
                if let Some((states, last)) = solve_stem(its, stem, &fixed, &temps, budget) {
                    let point = Formula::and(its.vars.iter().map(|v| Formula::eq(Term::var(v), Term::Const(last[v]))).collect::<Vec<_>>());
                    if let Some(lasso) = found(stem, states, vec![lp.clone()], point) {
                        return Some(lasso);
                    }
                }
            }
        }
        // (2) Closed recurrent sets from the guards: per loop, then for all loops together.
        let mut candidates: Vec<(Vec<Loop>, Formula)> = Vec::new();
        for lp in &group {
            for s in recurrent_candidates(its, &lp.0) {
                candidates.push((vec![lp.clone()], s));
            }
        }
        if group.len() > 1 {
            if let Some(s) = join_of_guards(its, &group, budget) {
                candidates.push((group.clone(), s));
            }
        }
        for (loops, s) in candidates {
            if budget.expired() {
                return None;
            }
            let rules: Vec<Transition> = loops.iter().map(|lp| lp.0.clone()).collect();
            if !is_closed(its, &rules, &BTreeMap::from([(l, s.clone())]), budget) {
                continue;
            }
            for stem in &stems {
                if let Some((states, _)) = solve_stem(its, stem, &s, &[], budget) {
                    if let Some(lasso) = found(stem, states, loops.clone(), s.clone()) {
                        return Some(lasso);
                    }
                }
            }
        }
    }
    // (3) A multi-location recurrent set for the whole SCC.
    if let Some(rec) = houdini_recurrent(its, scc, budget) {
        let loops: Vec<(Transition, Vec<usize>)> = scc.iter().map(|&r| (its.transitions[r].clone(), vec![r])).collect();
        for (&l, s) in &rec {
            for stem in stem_paths(its, l) {
                if budget.expired() {
                    return None;
                }
                if let Some((states, _)) = solve_stem(its, &stem, s, &[], budget) {
                    let lasso = Lasso { stem, states, location: l, loops: loops.clone(), recurrent: rec.clone() };
                    if check_lasso(its, &lasso, budget) {
                        return Some(lasso);
                    }
                }
            }
        }
    }
    None
}

/// The least value of `e` under `guard`, found by descending through models from `start`
/// (`None` if unbounded, undecided or slow to converge).
fn lower_bound(guard: &Formula, e: &LinExpr, start: Int, budget: &Budget) -> Option<Int> {
    let mut c = start;
    let vars: Vec<Var> = e.coeffs.keys().cloned().collect();
    for _ in 0..4 {
        let q = Formula::and([guard.clone(), Formula::lt(e.to_term(), Term::Const(c))]);
        match model(&q, &vars, budget) {
            (SatResult::Unsat, _) => return Some(c),
            (SatResult::Sat, Some(m)) => {
                c = e.eval(&|v| match m.get(v) {
                    Some(Value::Int(i)) => Some(*i),
                    _ => None,
                })?;
            }
            _ => return None,
        }
    }
    None
}

const MAX_HOUDINI_ATOMS: usize = 40;
const MAX_HOUDINI_RULES: usize = 30;

/// The greatest family of conjunctions of candidate atoms (per SCC location) preserved by every
/// rule of the SCC (Houdini). Closedness (some rule enabled) is checked by the caller.
fn houdini_recurrent(its: &Its, scc: &[usize], budget: &Budget) -> Option<BTreeMap<LocId, Formula>> {
    if scc.len() > MAX_HOUDINI_RULES {
        return None;
    }
    let locs: BTreeSet<LocId> = scc.iter().map(|&r| its.transitions[r].from).collect();
    let mut pool: Vec<LinExpr> = Vec::new();
    for &r in scc {
        for e in pure_atoms(its, &its.transitions[r].guard) {
            if !pool.contains(&e) {
                pool.push(e);
            }
        }
    }
    pool.truncate(MAX_HOUDINI_ATOMS);
    // Hull atoms: per location, the weakest bound of each candidate direction over the outgoing guards.
    let mut cands: BTreeMap<LocId, Vec<LinExpr>> = BTreeMap::new();
    for &l in &locs {
        let mut atoms: Vec<LinExpr> = Vec::new();
        let outs: Vec<&Transition> = scc.iter().map(|&r| &its.transitions[r]).filter(|t| t.from == l).collect();
        for e in &pool {
            let mut dir = e.clone();
            dir.constant = 0;
            let mut bound: Option<Int> = None;
            for t in &outs {
                if budget.expired() {
                    return None;
                }
                match lower_bound(&t.guard, &dir, -e.constant, budget) {
                    Some(b) => bound = Some(bound.map_or(b, |x: Int| x.min(b))),
                    None => {
                        bound = None;
                        break;
                    }
                }
            }
            if let Some(b) = bound {
                let atom = dir.add_scaled(1, &LinExpr::constant(-b));
                if let Some(atom) = atom {
                    if !atoms.contains(&atom) {
                        atoms.push(atom);
                    }
                }
            }
        }
        // The hull atoms are consistent (they over-approximate the union of the guards); add the
        // guard atoms greedily while the conjunction stays satisfiable, so Houdini does not
        // start from (and keep) an empty set.
        for e in &pool {
            if atoms.contains(e) {
                continue;
            }
            let trial = Formula::and(atoms.iter().chain([e]).map(atom_formula).collect::<Vec<_>>());
            if check_sat(&trial, budget) == SatResult::Sat {
                atoms.push(e.clone());
            }
        }
        cands.insert(l, atoms);
    }
    // Houdini: drop atoms not preserved by some rule (for all temporaries).
    loop {
        if budget.expired() {
            return None;
        }
        let mut changed = false;
        for &r in scc {
            let t = &its.transitions[r];
            let pre = Formula::and(std::iter::once(t.guard.clone()).chain(cands[&t.from].iter().map(atom_formula)));
            let map: BTreeMap<Var, Term> = its.vars.iter().cloned().zip(t.update.iter().cloned()).collect();
            let post = |e: &LinExpr| atom_formula(e).substitute(&|v| map.get(v).cloned());
            let all = Formula::and(cands[&t.to].iter().map(post).collect::<Vec<_>>());
            if entails(&pre, &all, budget) {
                continue;
            }
            let keep: Vec<LinExpr> = cands[&t.to].iter().filter(|e| entails(&pre, &post(e), budget)).cloned().collect();
            if keep.len() != cands[&t.to].len() {
                cands.insert(t.to, keep);
                changed = true;
            }
        }
        if !changed {
            break;
        }
    }
    Some(cands.into_iter().map(|(l, atoms)| (l, Formula::and(atoms.iter().map(atom_formula).collect::<Vec<_>>()))).collect())
}

/// The conjunction of the temporary-free guard atoms (of any loop) implied by every loop's guard:
/// a convex over-approximation of the union of the guards.
fn join_of_guards(its: &Its, group: &[(Transition, Vec<usize>)], budget: &Budget) -> Option<Formula> {
    let vars: BTreeSet<Var> = its.vars.iter().cloned().collect();
    let mut pool: Vec<Formula> = Vec::new();
    for (t, _) in group {
        for c in t.guard.conjuncts() {
            if !c.vars().is_subset(&vars) {
                continue;
            }
            let atoms = match &c {
                Formula::Cmp(Rel::Eq, a, b) => vec![Formula::le(a.clone(), b.clone()), Formula::ge(a.clone(), b.clone())],
                other => vec![other.clone()],
            };
            for a in atoms {
                if !pool.contains(&a) {
                    pool.push(a);
                }
            }
        }
    }
    let kept: Vec<Formula> = pool.into_iter().filter(|a| group.iter().all(|(t, _)| entails(&t.guard, a, budget))).collect();
    (!kept.is_empty()).then(|| Formula::and(kept))
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

/// `∀l. ∀x. S_l(x) ⇒ ∨_{r from l} ∃t. Gᵣ(x,t) ∧ S_{to(r)}(Uᵣ(x,t))`, decided by z3 (unknown = not closed).
pub fn is_closed(its: &Its, rules: &[Transition], recurrent: &BTreeMap<LocId, Formula>, budget: &Budget) -> bool {
    for (l, s) in recurrent {
        let mut steps = Vec::new();
        for (k, rule) in rules.iter().enumerate() {
            if rule.from != *l {
                continue;
            }
            let Some(target) = recurrent.get(&rule.to) else { continue };
            let rule = rename_temps(its, rule, &format!("cl{k}"));
            let map: BTreeMap<Var, Term> = its.vars.iter().cloned().zip(rule.update.iter().cloned()).collect();
            let s_after = target.substitute(&|v| map.get(v).cloned());
            let temps: Vec<Var> = temps_of(its, &rule).into_iter().collect();
            let body = Formula::and([rule.guard.clone(), s_after]);
            steps.push(if temps.is_empty() { body } else { Formula::Exists(temps, Box::new(body)) });
        }
        if check_sat(&Formula::and([s.clone(), Formula::not(Formula::or(steps))]), budget) != SatResult::Unsat {
            return false;
        }
    }
    true
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
    // z3 returns no model when no variable was asked for.
    let m = m.unwrap_or_default();
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
        if let Some(temps) = step_temps.get(k) {
            for t in temps {
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
    if lasso.states.len() != lasso.stem.len() + 1 || lasso.loops.is_empty() {
        return false;
    }
    let mut at = match its.start {
        Some(s) => s,
        None => lasso.stem.first().map_or(lasso.location, |&r| its.transitions[r].from),
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
    if at != lasso.location {
        return false;
    }
    let last: Valuation = its.vars.iter().filter_map(|v| Some((v.clone(), *lasso.states.last()?.get(v)?))).collect();
    let Some(s) = lasso.recurrent.get(&lasso.location) else { return false };
    if last.len() != its.vars.len() || eval_formula(s, &last) != Some(true) {
        return false;
    }
    // Every loop must really be the composition of the listed rules.
    if !lasso.loops.iter().all(|(t, rules)| loop_matches(its, t, rules)) {
        return false;
    }
    let rules: Vec<Transition> = lasso.loops.iter().map(|lp| lp.0.clone()).collect();
    is_closed(its, &rules, &lasso.recurrent, budget)
}

fn loop_matches(its: &Its, loop_rule: &Transition, rules: &[usize]) -> bool {
    let Some(&first) = rules.first() else { return false };
    let Some(mut composed) = its.transitions.get(first).cloned() else { return false };
    let mut fresh = 0;
    for &r in &rules[1..] {
        let Some(t) = its.transitions.get(r) else { return false };
        if composed.to != t.from {
            return false;
        }
        composed = compose(its, &composed, t, &mut fresh);
    }
    composed == *loop_rule
}

/// Human-readable description of a lasso.
/// The lasso as the plain data of a witness (`verdict::ItsLassoWitness`): the stem's states
/// over `its.vars` and the recurrent set at the stem's end. `None` when the lasso has no set
/// there (never for a checked lasso).
pub fn witness(its: &Its, lasso: &Lasso) -> Option<crate::verdict::ItsLassoWitness> {
    let values = |val: &Valuation| its.vars.iter().filter_map(|v| Some((v.name().to_string(), *val.get(v)?))).collect();
    let stem = lasso
        .stem
        .iter()
        .zip(lasso.states.iter().skip(1))
        .map(|(&r, after)| crate::verdict::ItsStep {
            from: its.location_name(its.transitions[r].from).to_string(),
            to: its.location_name(its.transitions[r].to).to_string(),
            rule: its.transitions[r].origin.clone(),
            state: values(after),
        })
        .collect();
    let set = lasso.recurrent.get(&lasso.location)?.clone();
    // a prepared rule chains input rules: its origin is theirs, joined by "; " (prepare::compose)
    let loops = lasso
        .loops
        .iter()
        .filter_map(|(_, rules)| rules.iter().map(|&r| its.transitions[r].origin.as_deref().map(|o| o.split("; ").map(String::from).collect::<Vec<_>>())).collect::<Option<Vec<_>>>())
        .map(|parts| parts.concat())
        .collect();
    Some(crate::verdict::ItsLassoWitness { stem, location: its.location_name(lasso.location).to_string(), set, loops })
}

pub fn describe(its: &Its, lasso: &Lasso) -> Vec<String> {
    let name = |r: usize| its.transitions[r].origin.clone().unwrap_or_else(|| format!("rule {r}"));
    let stem: Vec<String> = lasso.stem.iter().map(|&r| format!("{} -> {} ({})", its.location_name(its.transitions[r].from), its.location_name(its.transitions[r].to), name(r))).collect();
    let lp: Vec<String> = lasso.loops.iter().map(|(_, rs)| rs.iter().map(|&r| name(r)).collect::<Vec<_>>().join("; ")).collect();
    let show = |val: &Valuation| its.vars.iter().filter_map(|v| Some(format!("{}={}", v.name(), val.get(v)?))).collect::<Vec<_>>().join(", ");
    vec![
        format!("stem: {}", if stem.is_empty() { "(empty)".into() } else { stem.join("; ") }),
        format!("reaches location {} with {}", its.location_name(lasso.location), lasso.states.last().map(show).unwrap_or_default()),
        format!("loops: {}", lp.join(" | ")),
        format!(
            "closed recurrent set: {}",
            lasso.recurrent.iter().map(|(l, s)| format!("at {}: {s}", its.location_name(*l))).collect::<Vec<_>>().join("; ")
        ),
    ]
}
