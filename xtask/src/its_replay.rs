//! The ITS interpreter of `cargo xtask replay`: replays an ITS input's NO witness (the JSON
//! `its_lasso`) on the ITS as the engine's parser reads the file, with its own evaluator and
//! its own choice of the rules' temporary values — nothing of the prover (its preprocessing,
//! its evaluator, z3) is used. The stem must be reproduced state by state (each recorded step
//! by a path of at most `MAX_PATH` rules of the input, the last one reaching exactly the
//! recorded values); the end state must lie in the recurrent set; then, `LAPS` times over,
//! the interpreter must find a path of input rules from the recurrent set's location back to
//! it, into the set. A bounded replay (a test of the set's closure, not a proof).
//!
//! A path is a sequence of rules, tried as one problem ([`Chain`]): its unknowns are the
//! rules' temporaries and the states between the rules, its constraints the guards, the
//! updates and the goal (the recorded state, or the set). Equations with one unknown are
//! solved; the rest is guessed one unknown at a time from candidates (the roots of the
//! constraints it alone is open in, the constants, the known values, each ±1), every
//! constraint checked as soon as its values are known. The sequences the witness names (the
//! stem step's `rule`, the set's `loops`) are tried first, then every path by length.

use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};
use termcheck_engine::its::{Its, Transition};
use num_bigint::BigInt;
use num_traits::{Euclid, Signed, Zero};
use termcheck_engine::logic::{Formula, Rel, Term, Var};

/// The interpreter's integers: unbounded (a run into a recurrent set may grow its values
/// beyond any fixed width, e.g. a factorial), up to `MAX_BITS`.
type Num = BigInt;

/// Values wider than this many bits are not evaluated (the search is then inexact): a
/// bound on the memory a run of repeated squaring may take.
const MAX_BITS: u64 = 4096;

/// Longest path of input rules for one recorded step or lap (the prover chains rules through
/// locations without self-loops, so one of its steps may be several input rules).
const MAX_PATH: usize = 5;
/// Times the run must return into the recurrent set.
const LAPS: usize = 50;
/// Candidate values tried for one guessed unknown.
const MAX_CANDIDATES: usize = 48;
/// Rule sequences of one length tried for one step.
const MAX_SEQUENCES: usize = 400;
/// Constraint evaluations one replay may make: the search is exponential in the guesses.
const BUDGET: usize = 2_000_000;

/// A state: the location and a value for every variable of the ITS (in `Its::vars` order).
type State = (u32, Vec<Num>);

/// Values of named unknowns (states' variables and temporaries of a chain).
pub(crate) type Env = BTreeMap<String, Num>;

fn term(t: &Term, env: &Env) -> Option<Num> {
    let v = match t {
        Term::Const(c) => Num::from(*c),
        Term::Var(v) => env.get(v.name())?.clone(),
        Term::Add(ts) => ts.iter().try_fold(Num::zero(), |a, t| Some(a + term(t, env)?))?,
        Term::Mul(ts) => ts.iter().try_fold(Num::from(1), |a, t| Some(a * term(t, env)?))?,
        Term::Neg(t) => -term(t, env)?,
        // SMT-LIB's Euclidean division and remainder
        Term::Div(a, b) => {
            let (a, b) = (term(a, env)?, term(b, env)?);
            if b.is_zero() {
                return None;
            }
            a.div_euclid(&b)
        }
        Term::Mod(a, b) => {
            let (a, b) = (term(a, env)?, term(b, env)?);
            if b.is_zero() {
                return None;
            }
            a.rem_euclid(&b)
        }
        Term::Ite(c, a, b) => {
            if formula(c, env)? {
                term(a, env)?
            } else {
                term(b, env)?
            }
        }
    };
    (v.bits() <= MAX_BITS).then_some(v)
}

/// Whether `a rel b`: the relation's own definition (`logic::Rel::holds`) applied to the
/// sign of `a − b`, so that it holds over unbounded integers.
fn holds(rel: Rel, a: &Num, b: &Num) -> bool {
    let sign = match a.cmp(b) {
        std::cmp::Ordering::Less => -1,
        std::cmp::Ordering::Equal => 0,
        std::cmp::Ordering::Greater => 1,
    };
    rel.holds(sign, 0)
}

pub(crate) fn formula(f: &Formula, env: &Env) -> Option<bool> {
    Some(match f {
        Formula::True => true,
        Formula::False => false,
        // the relations' own definition, not the prover's evaluator
        Formula::Cmp(r, a, b) => holds(*r, &term(a, env)?, &term(b, env)?),
        Formula::And(fs) => {
            let mut all = true;
            for f in fs {
                all &= formula(f, env)?;
            }
            all
        }
        Formula::Or(fs) => {
            let mut any = false;
            for f in fs {
                any |= formula(f, env)?;
            }
            any
        }
        Formula::Not(f) => !formula(f, env)?,
        Formula::BoolVar(_) | Formula::Exists(..) => return None,
    })
}

/// Every integer constant of a formula.
fn constants(f: &Formula, out: &mut BTreeSet<Num>) {
    fn of_term(t: &Term, out: &mut BTreeSet<Num>) {
        match t {
            Term::Const(c) => {
                out.insert(Num::from(*c));
            }
            Term::Var(_) => {}
            Term::Add(ts) | Term::Mul(ts) => ts.iter().for_each(|t| of_term(t, out)),
            Term::Neg(t) => of_term(t, out),
            Term::Div(a, b) | Term::Mod(a, b) => {
                of_term(a, out);
                of_term(b, out);
            }
            Term::Ite(c, a, b) => {
                constants(c, out);
                of_term(a, out);
                of_term(b, out);
            }
        }
    }
    match f {
        Formula::True | Formula::False | Formula::BoolVar(_) => {}
        Formula::Cmp(_, a, b) => {
            of_term(a, out);
            of_term(b, out);
        }
        Formula::And(fs) | Formula::Or(fs) => fs.iter().for_each(|f| constants(f, out)),
        Formula::Not(f) | Formula::Exists(_, f) => constants(f, out),
    }
}

/// `f` with the variables of its positive existentials free (renamed `∃k.name` apart): an
/// existential of a guard is a temporary of the rule. Existentials under a negation stay
/// (the evaluator cannot decide them: such a rule is never applied, and the search is
/// inexact).
fn free_existentials(f: &Formula, fresh: &mut usize) -> Formula {
    match f {
        Formula::And(fs) => Formula::And(fs.iter().map(|f| free_existentials(f, fresh)).collect()),
        Formula::Or(fs) => Formula::Or(fs.iter().map(|f| free_existentials(f, fresh)).collect()),
        Formula::Exists(bound, body) => {
            *fresh += 1;
            let k = *fresh;
            let renamed = body.substitute(&|v| bound.contains(v).then(|| Term::Var(Var::new(format!("∃{k}.{}", v.name())))));
            free_existentials(&renamed, fresh)
        }
        other => other.clone(),
    }
}

/// The value of a linear unknown `x` making `a − b` zero, if `a − b` is linear in `x` (its
/// value at 0, 1, 2 differ by a constant `c ≠ 0`): `Ok(root)` when `c` divides, `Err(near)`
/// with the nearest integer below otherwise (an inequality's boundary).
fn root(a: &Term, b: &Term, x: &str, env: &mut Env) -> Option<Result<Num, Num>> {
    let mut at = |v: i64| {
        env.insert(x.to_string(), Num::from(v));
        let d = term(a, env).zip(term(b, env)).map(|(a, b)| a - b);
        env.remove(x);
        d
    };
    let (c0, c1, c2) = (at(0)?, at(1)?, at(2)?);
    let c = &c1 - &c0;
    if c.is_zero() || c2 - &c1 != c {
        return None;
    }
    // c0 + c·x = 0: x = −c0 / c, rounded down
    let (num, den) = if c.is_positive() { (-&c0, c) } else { (c0, -c) };
    let q = num.div_euclid(&den);
    Some(if num.rem_euclid(&den).is_zero() { Ok(q) } else { Err(q) })
}

/// What a path must reach: exactly a recorded state, or a state of the recurrent set.
enum Goal<'a> {
    State(&'a [Num]),
    Set(&'a Formula),
}

/// One constraint of a chain, with the unknowns it names.
struct Constraint {
    formula: Formula,
    names: BTreeSet<String>,
}

/// A sequence of rule applications as one problem: the state before application `i` is named
/// `s{i}.{var}`, application `i`'s temporaries `r{i}.{name}`; the constraints are the renamed
/// guards, the updates (`s{i+1}.v = update`) and the goal's.
struct Chain {
    constraints: Vec<Constraint>,
    candidates: BTreeSet<Num>,
    last: usize,
}

impl Chain {
    fn new(its: &Its, rules: &[&Transition], goal: &Goal) -> Chain {
        let mut formulas = Vec::new();
        let mut fresh = 0;
        let state_var = |i: usize, v: &Var| Term::Var(Var::new(format!("s{i}.{}", v.name())));
        for (i, rule) in rules.iter().enumerate() {
            let rename = |v: &Var| Some(if its.vars.contains(v) { state_var(i, v) } else { Term::Var(Var::new(format!("r{i}.{}", v.name()))) });
            formulas.extend(free_existentials(&rule.guard, &mut fresh).substitute(&rename).conjuncts());
            for (v, u) in its.vars.iter().zip(&rule.update) {
                formulas.push(Formula::Cmp(Rel::Eq, state_var(i + 1, v), u.substitute(&rename)));
            }
        }
        let last = rules.len();
        if let Goal::Set(set) = goal {
            formulas.extend(set.substitute(&|v| Some(state_var(last, v))).conjuncts());
        }
        let mut candidates = BTreeSet::new();
        formulas.iter().for_each(|f| constants(f, &mut candidates));
        let constraints = formulas.into_iter().map(|formula| Constraint { names: formula.vars().into_iter().map(|v| v.name().to_string()).collect(), formula }).collect();
        Chain { constraints, candidates, last }
    }

    /// The known values: the start state's and, for a recorded goal, the end state's.
    fn known(&self, its: &Its, from: &[Num], goal: &Goal) -> Env {
        let mut env: Env = its.vars.iter().zip(from).map(|(v, x)| (format!("s0.{}", v.name()), x.clone())).collect();
        if let Goal::State(to) = goal {
            env.extend(its.vars.iter().zip(*to).map(|(v, x)| (format!("s{}.{}", self.last, v.name()), x.clone())));
        }
        env
    }

    /// Solves equations with one linear unknown until none is left; `false` when a
    /// constraint whose values are all known fails.
    fn propagate(&self, env: &mut Env, search: &mut Search) -> Result<bool, ()> {
        let mut changed = true;
        while changed {
            changed = false;
            for c in &self.constraints {
                let mut open = c.names.iter().filter(|n| !env.contains_key(*n));
                match (open.next(), open.next()) {
                    (None, _) => {
                        search.budget = search.budget.checked_sub(1).ok_or(())?;
                        match formula(&c.formula, env) {
                            Some(true) => {}
                            Some(false) => return Ok(false),
                            None => {
                                // beyond the checked 128-bit arithmetic, or undecidable here
                                search.inexact = true;
                                return Ok(false);
                            }
                        }
                    }
                    (Some(x), None) => {
                        let Formula::Cmp(Rel::Eq, a, b) = &c.formula else { continue };
                        // only where the equation is linear (no div, mod, ite, product of
                        // unknowns): its one root is then its only solution; `x mod 3` looks
                        // linear at 0, 1, 2 but has many
                        if a.as_linear().is_none() || b.as_linear().is_none() {
                            continue;
                        }
                        let x = x.clone();
                        match root(a, b, &x, env) {
                            Some(Ok(v)) => {
                                env.insert(x, v);
                                changed = true;
                            }
                            // no integer solves it
                            Some(Err(_)) => return Ok(false),
                            None => {}
                        }
                    }
                    _ => {}
                }
            }
        }
        Ok(true)
    }

    /// Candidate values of the unknown `x`: the boundaries of the constraints it alone is
    /// open in first, then the constants and the known values, each ±1.
    fn candidates_of(&self, x: &str, env: &mut Env) -> Vec<Num> {
        let mut out: Vec<Num> = Vec::new();
        let add = |v: &Num, out: &mut Vec<Num>| {
            for d in [0, 1, -1] {
                let y = v + d;
                if !out.contains(&y) {
                    out.push(y);
                }
            }
        };
        for c in &self.constraints {
            if !c.names.contains(x) || c.names.iter().any(|n| n != x && !env.contains_key(n)) {
                continue;
            }
            if let Formula::Cmp(_, a, b) = &c.formula {
                if let Some(r) = root(a, b, x, env) {
                    add(&r.unwrap_or_else(|near| near), &mut out);
                }
            }
        }
        add(&Num::zero(), &mut out);
        let known: Vec<Num> = env.values().cloned().collect();
        for v in self.candidates.iter().chain(&known) {
            add(v, &mut out);
        }
        out.truncate(MAX_CANDIDATES);
        out
    }

    /// A solution extending `env`, if the search finds one (`Err`: out of budget).
    fn solve(&self, mut env: Env, search: &mut Search) -> Result<Option<Env>, ()> {
        if !self.propagate(&mut env, search)? {
            return Ok(None);
        }
        // the unknown in most constraints is guessed first
        let mut count: BTreeMap<&String, usize> = BTreeMap::new();
        for c in &self.constraints {
            for n in c.names.iter().filter(|n| !env.contains_key(*n)) {
                *count.entry(n).or_default() += 1;
            }
        }
        let Some(x) = count.iter().max_by_key(|(n, k)| (**k, std::cmp::Reverse(**n))).map(|(n, _)| (*n).clone()) else { return Ok(Some(env)) };
        // a guess: a miss proves nothing
        search.inexact = true;
        for v in self.candidates_of(&x, &mut env) {
            let mut next = env.clone();
            next.insert(x.clone(), v);
            if let Some(done) = self.solve(next, search)? {
                return Ok(Some(done));
            }
        }
        Ok(None)
    }
}

/// The state of one search: the evaluations it may still make, and whether it was inexact —
/// it guessed values, cut paths at `MAX_PATH` rules or sequences at `MAX_SEQUENCES`, or met
/// values beyond its arithmetic — so that finding nothing refutes nothing.
struct Search {
    budget: usize,
    inexact: bool,
}

/// The end state of the rule sequence `rules` from `from` that meets `goal`, if found.
fn follow(its: &Its, rules: &[usize], from: &[Num], goal: &Goal, search: &mut Search) -> Result<Option<Vec<Num>>, ()> {
    let rules: Vec<&Transition> = rules.iter().map(|&r| &its.transitions[r]).collect();
    let chain = Chain::new(its, &rules, goal);
    let env = chain.known(its, from, goal);
    let Some(env) = chain.solve(env, search)? else { return Ok(None) };
    Ok(its.vars.iter().map(|v| env.get(&format!("s{}.{}", chain.last, v.name())).cloned()).collect())
}

/// The rule sequences of exactly `len` rules from location `from` to `to` (at most
/// `MAX_SEQUENCES`; `search.inexact` when there are more).
fn sequences(its: &Its, from: u32, to: u32, len: usize, search: &mut Search) -> Vec<Vec<usize>> {
    let mut out = Vec::new();
    let mut stack: Vec<(u32, Vec<usize>)> = vec![(from, vec![])];
    while let Some((at, path)) = stack.pop() {
        if path.len() == len {
            if at == to {
                if out.len() == MAX_SEQUENCES {
                    search.inexact = true;
                    break;
                }
                out.push(path);
            }
            continue;
        }
        for (r, t) in its.transitions.iter().enumerate().rev().filter(|(_, t)| t.from.0 == at) {
            let mut p = path.clone();
            p.push(r);
            stack.push((t.to.0, p));
        }
    }
    out
}

/// The rule sequences a witness names by origins (`line 12`): every choice of input rules of
/// those origins that forms a path from `from` (a few at most: an origin is one input line).
fn named_sequences(its: &Its, from: u32, origins: &[String]) -> Vec<Vec<usize>> {
    let mut out: Vec<(u32, Vec<usize>)> = vec![(from, vec![])];
    for o in origins {
        out = out
            .into_iter()
            .flat_map(|(at, path)| {
                its.transitions.iter().enumerate().filter(move |(_, t)| t.from.0 == at && t.origin.as_deref() == Some(o.as_str())).map(move |(r, t)| {
                    let mut p = path.clone();
                    p.push(r);
                    (t.to.0, p)
                })
            })
            .take(MAX_SEQUENCES)
            .collect();
    }
    out.into_iter().map(|(_, p)| p).collect()
}

/// A path of at most `MAX_PATH` rules from `from` to a state of location `to` meeting `goal`:
/// the named sequences first, then every sequence by length. `Err` when the budget runs out;
/// `search.inexact` tells afterwards whether a miss was exhaustive.
fn path(its: &Its, from: &State, to: u32, goal: &Goal, named: &[Vec<String>], search: &mut Search) -> Result<Option<State>, ()> {
    search.inexact = false;
    let mut tried: BTreeSet<Vec<usize>> = BTreeSet::new();
    for origins in named {
        for seq in named_sequences(its, from.0, origins) {
            let ends_at = seq.last().map_or(from.0, |&r| its.transitions[r].to.0);
            if ends_at != to || !tried.insert(seq.clone()) {
                continue;
            }
            if let Some(end) = follow(its, &seq, &from.1, goal, search)? {
                return Ok(Some((to, end)));
            }
        }
    }
    for len in 1..=MAX_PATH {
        for seq in sequences(its, from.0, to, len, search) {
            if tried.contains(&seq) {
                continue;
            }
            if let Some(end) = follow(its, &seq, &from.1, goal, search)? {
                return Ok(Some((to, end)));
            }
        }
    }
    // a longer path is not looked at
    if !sequences_from(its, from.0, MAX_PATH) {
        return Ok(None);
    }
    search.inexact = true;
    Ok(None)
}

/// Whether some rule sequence of `len` rules starts at `from`.
fn sequences_from(its: &Its, from: u32, len: usize) -> bool {
    let mut at: BTreeSet<u32> = [from].into();
    for _ in 0..len {
        at = its.transitions.iter().filter(|t| at.contains(&t.from.0)).map(|t| t.to.0).collect();
    }
    !at.is_empty()
}

fn named_values(v: &Value) -> Option<BTreeMap<String, Num>> {
    v.as_array()?
        .iter()
        .map(|x| {
            let value = match &x["value"] {
                Value::String(s) => s.parse().ok()?,
                n => n.as_i64().map(Num::from).or_else(|| n.as_u64().map(Num::from))?,
            };
            Some((x["name"].as_str()?.to_string(), value))
        })
        .collect()
}

/// Why a witness was not replayed.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Miss {
    /// The interpreter's budget ran out before the witness was reproduced or refuted.
    OutOfBudget,
    /// Not reproduced, but the search was bounded or guessed (temporaries from candidates,
    /// paths cut at `MAX_PATH` rules, values beyond 128 bits), or the witness lacks a part the
    /// replay needs: nothing is refuted.
    NotFound,
    /// The witness contradicts the ITS: an exact check failed (a state outside the recurrent
    /// set, or an exhaustive search — every unknown solved, no path cut — found no path).
    /// A soundness alarm.
    Refuted,
}

/// A witness not replayed: why, and what was not reproduced.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Failure {
    pub miss: Miss,
    pub detail: String,
}

impl Failure {
    fn not_found(detail: impl Into<String>) -> Failure {
        Failure { miss: Miss::NotFound, detail: detail.into() }
    }
}

/// The failure of a search for a path that found none: refuted when the search was exact.
fn missed(search: &Search, detail: String) -> Failure {
    let miss = if search.inexact { Miss::NotFound } else { Miss::Refuted };
    Failure { miss, detail }
}

/// Replays the NO witness `termination` (the JSON report's `termination` object) of the ITS
/// `its`; `Err` says why it was not reproduced.
pub fn replay(its: &Its, termination: &Value) -> Result<(), Failure> {
    let lasso = &termination["its_lasso"];
    if lasso.is_null() {
        return Err(Failure::not_found("the witness has no `its_lasso`"));
    }
    let location = |name: &str| its.locations.iter().position(|l| l == name).map(|i| i as u32).ok_or_else(|| Failure::not_found(format!("no location `{name}` in the ITS")));
    let ordered = |m: &BTreeMap<String, Num>| its.vars.iter().map(|v| m.get(v.name()).cloned()).collect::<Option<Vec<Num>>>();
    let inputs = named_values(&termination["inputs"]).ok_or_else(|| Failure::not_found("bad `inputs`"))?;
    let stem = lasso["stem"].as_array().ok_or_else(|| Failure::not_found("bad `stem`"))?;
    let end = location(lasso["location"].as_str().ok_or_else(|| Failure::not_found("bad `location`"))?)?;
    let start = match (its.start, stem.first()) {
        (Some(s), _) => s.0,
        (None, Some(step)) => location(step["from"].as_str().ok_or_else(|| Failure::not_found("bad `from`"))?)?,
        (None, None) => end,
    };
    let origins = |v: &Value| v.as_str().map(|o| o.split("; ").map(String::from).collect::<Vec<_>>());
    let mut state: State = (start, ordered(&inputs).ok_or_else(|| Failure::not_found("`inputs` does not give every variable"))?);
    let mut search = Search { budget: BUDGET, inexact: false };
    let out_of_budget = || Failure { miss: Miss::OutOfBudget, detail: format!("the interpreter's budget ran out ({BUDGET} evaluations)") };
    for (k, step) in stem.iter().enumerate() {
        let to = location(step["to"].as_str().ok_or_else(|| Failure::not_found("bad `to`"))?)?;
        let target = ordered(&named_values(&step["state"]).ok_or_else(|| Failure::not_found("bad `state`"))?).ok_or_else(|| Failure::not_found("a stem state does not give every variable"))?;
        let named: Vec<Vec<String>> = origins(&step["rule"]).into_iter().collect();
        let found = path(its, &state, to, &Goal::State(&target), &named, &mut search).map_err(|()| out_of_budget())?;
        state = found.ok_or_else(|| missed(&search, format!("stem step {} ({} → {}) not reproduced from {:?}", k + 1, step["from"], step["to"], state.1)))?;
    }
    if state.0 != end {
        return Err(Failure { miss: Miss::Refuted, detail: format!("the stem ends at `{}`, not at the set's location", its.locations[state.0 as usize]) });
    }
    let set: Formula = serde_json::from_value(lasso["set_formula"].clone()).map_err(|e| Failure::not_found(format!("bad `set_formula`: {e}")))?;
    let env: Env = its.vars.iter().map(|x| x.name().to_string()).zip(state.1.iter().cloned()).collect();
    match formula(&set, &env) {
        Some(true) => {}
        holds => {
            let miss = if holds.is_none() { Miss::NotFound } else { Miss::Refuted };
            return Err(Failure { miss, detail: format!("the stem's end state {:?} is not in the recurrent set", state.1) });
        }
    }
    let loops: Vec<Vec<String>> = lasso["loops"].as_array().map(|ls| ls.iter().filter_map(|l| l.as_array()?.iter().map(|o| o.as_str().map(String::from)).collect()).collect()).unwrap_or_default();
    for lap in 0..LAPS {
        let found = path(its, &state, end, &Goal::Set(&set), &loops, &mut search).map_err(|()| out_of_budget())?;
        state = found.ok_or_else(|| missed(&search, format!("lap {}: no path of input rules back into the recurrent set from {:?}", lap + 1, state.1)))?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn its(text: &str) -> Its {
        termcheck_engine::its::parse_file("t.koat", text, true).expect("parses")
    }

    const COUNT_UP: &str = "(GOAL COMPLEXITY)\n(STARTTERM (FUNCTIONSYMBOLS l0))\n(VAR x y)\n(RULES\n  l0(x, y) -> l1(x, y)\n  l1(x, y) -> l1(x + y, y) :|: x >= 0 && y >= 0\n)\n";

    fn witness(set: Formula, after: i64) -> Value {
        json!({
            "inputs": [{"name": "x", "value": 0}, {"name": "y", "value": 1}],
            "its_lasso": {
                "stem": [{"from": "l0", "to": "l1", "rule": null, "state": [{"name": "x", "value": 0}, {"name": "y", "value": after}]}],
                "location": "l1",
                "set": "",
                "set_formula": serde_json::to_value(set).expect("serializes"),
            }
        })
    }

    fn ge0(v: &str) -> Formula {
        Formula::Cmp(Rel::Ge, Term::Var(Var::new(v)), Term::Const(0))
    }

    fn miss(r: Result<(), Failure>, part: &str) -> Miss {
        let f = r.expect_err("not replayed");
        assert!(f.detail.contains(part), "{f:?}");
        f.miss
    }

    #[test]
    fn a_closed_set_replays_and_wrong_witnesses_do_not() {
        let its = its(COUNT_UP);
        assert_eq!(replay(&its, &witness(Formula::And(vec![ge0("x"), ge0("y")]), 1)), Ok(()));
        // the stem does not reach y = 2 within the bound, but a longer path through l1's
        // self-loop is not looked at: not found, not refuted
        assert_eq!(miss(replay(&its, &witness(Formula::And(vec![ge0("x"), ge0("y")]), 2)), "stem step 1"), Miss::NotFound);
        // x ≤ 3 is left after four laps: not closed, but a path longer than the search's
        // bound could come back, so the bounded search refutes nothing
        let bounded = Formula::Cmp(Rel::Le, Term::Var(Var::new("x")), Term::Const(3));
        assert_eq!(miss(replay(&its, &witness(Formula::And(vec![ge0("x"), ge0("y"), bounded]), 1)), "lap"), Miss::NotFound);
        // a set whose end state lies outside it: refuted
        let negative = Formula::Cmp(Rel::Lt, Term::Var(Var::new("x")), Term::Const(0));
        assert_eq!(miss(replay(&its, &witness(negative, 1)), "not in the recurrent set"), Miss::Refuted);
        assert_eq!(miss(replay(&its, &json!({"inputs": []})), "no `its_lasso`"), Miss::NotFound);
    }

    #[test]
    fn an_exhaustive_search_refutes() {
        // from l1 the only rule leads to l2, which has none: no lap exists, and the stem
        // cannot reach y = 2 (every value is determined)
        let dead_end = its("(GOAL COMPLEXITY)\n(STARTTERM (FUNCTIONSYMBOLS l0))\n(VAR x y)\n(RULES\n  l0(x, y) -> l1(x, y)\n  l1(x, y) -> l2(x + 1, y) :|: x >= 0\n)\n");
        assert_eq!(miss(replay(&dead_end, &witness(ge0("x"), 1)), "lap 1"), Miss::Refuted);
        assert_eq!(miss(replay(&dead_end, &witness(ge0("x"), 2)), "stem step 1"), Miss::Refuted);
    }

    #[test]
    fn temporaries_are_guessed_one_at_a_time_from_the_constraints_boundaries() {
        // the lap needs a + b = 17 with a, b ≥ 5 (two open temporaries): a from the
        // boundary of a ≥ 5, then b from the equation
        let sum = its("(GOAL COMPLEXITY)\n(STARTTERM (FUNCTIONSYMBOLS l0))\n(VAR x y)\n(RULES\n  l0(x, y) -> l1(x, y)\n  l1(x, y) -> l1(x, y) :|: a + b = 17 && a >= 5 && b >= 5\n)\n");
        assert_eq!(replay(&sum, &witness(ge0("x"), 1)), Ok(()));
        // a temporary bounded far from every constant and value: x' > x + 1000 · y
        let far = its("(GOAL COMPLEXITY)\n(STARTTERM (FUNCTIONSYMBOLS l0))\n(VAR x y)\n(RULES\n  l0(x, y) -> l1(x, y)\n  l1(x, y) -> l1(z, y) :|: z > x + 1000 * y && y >= 1\n)\n");
        assert_eq!(replay(&far, &witness(Formula::And(vec![ge0("x"), ge0("y")]), 1)), Ok(()));
        // a * a = 49: no candidate is 7; guessed, so not found rather than refuted
        let square = its("(GOAL COMPLEXITY)\n(STARTTERM (FUNCTIONSYMBOLS l0))\n(VAR x y)\n(RULES\n  l0(x, y) -> l1(x, y)\n  l1(x, y) -> l1(x, y) :|: a * a = 49\n)\n");
        assert_eq!(miss(replay(&square, &witness(ge0("x"), 1)), "lap 1"), Miss::NotFound);
    }

    #[test]
    fn a_chained_step_with_existentials_and_free_variables_is_reproduced() {
        // MultiLasso (tpdb-its): the prover's one stem step is two input rules, the first
        // with `exists x2 x3` and the primed arg2, arg3 unconstrained
        let text = "(declare-sort Loc 0)\n(declare-const a Loc)\n(declare-const b Loc)\n(declare-const c Loc)\n(declare-const __init Loc)\n(assert (distinct a b c __init))\n(define-fun cfg_init ((pc Loc) (src Loc) (rel Bool)) Bool (and (= pc src) rel))\n(define-fun cfg_trans2 ((pc Loc) (src Loc) (pc1 Loc) (dst Loc) (rel Bool)) Bool (and (= pc src) (= pc1 dst) rel))\n(define-fun init_main ((pc Loc) (arg1 Int) (arg2 Int)) Bool (cfg_init pc __init true))\n(define-fun next_main ((pc Loc) (arg1 Int) (arg2 Int) (pc1 Loc) (arg1P Int) (arg2P Int)) Bool (or\n(cfg_trans2 pc a pc1 b (exists ((x2 Int) (x3 Int)) (and (> x2 (- 1)) (> x3 (- 1)) (> arg1 0) (= (- x2 x3) arg1P))))\n(cfg_trans2 pc b pc1 c (and (> arg1 0) (= (+ arg1 1) arg1P) (= (+ arg1 1) arg2P)))\n(cfg_trans2 pc c pc1 c (and (> arg2 0) (= arg1 arg1P) (= arg2 arg2P)))\n(cfg_trans2 pc __init pc1 a true)))\n";
        let its = termcheck_engine::its::parse_file("t.smt2", text, false).expect("parses");
        let w = json!({
            "inputs": [{"name": "arg1", "value": 0}, {"name": "arg2", "value": 0}],
            "its_lasso": {
                "stem": [
                    {"from": "__init", "to": "a", "rule": null, "state": [{"name": "arg1", "value": 1}, {"name": "arg2", "value": 2}]},
                    {"from": "a", "to": "c", "rule": null, "state": [{"name": "arg1", "value": 6}, {"name": "arg2", "value": 6}]},
                ],
                "location": "c",
                "set": "",
                "set_formula": serde_json::to_value(Formula::Cmp(Rel::Gt, Term::Var(Var::new("arg2")), Term::Const(0))).expect("serializes"),
                "loops": [],
            }
        });
        assert_eq!(replay(&its, &w), Ok(()));
    }

    #[test]
    fn values_beyond_128_bits_are_followed() {
        // x · y with y counting up: x is 50! after 50 laps (beyond i128)
        let factorial = its("(GOAL COMPLEXITY)\n(STARTTERM (FUNCTIONSYMBOLS l0))\n(VAR x y)\n(RULES\n  l0(x, y) -> l1(x + 1, y)\n  l1(x, y) -> l1(x * y, y + 1) :|: x >= 1 && y >= 1\n)\n");
        let w = json!({
            "inputs": [{"name": "x", "value": 0}, {"name": "y", "value": 1}],
            "its_lasso": {
                "stem": [{"from": "l0", "to": "l1", "rule": "line 5", "state": [{"name": "x", "value": 1}, {"name": "y", "value": 1}]}],
                "location": "l1",
                "set": "",
                "set_formula": serde_json::to_value(Formula::And(vec![Formula::Cmp(Rel::Ge, Term::Var(Var::new("x")), Term::Const(1)), Formula::Cmp(Rel::Ge, Term::Var(Var::new("y")), Term::Const(1))])).expect("serializes"),
                "loops": [["line 6"]],
            }
        });
        // the witness's origins name the input rules
        assert_eq!(named_sequences(&factorial, 1, &["line 6".to_string()]), vec![vec![1]]);
        assert_eq!(named_sequences(&factorial, 0, &["line 5".to_string(), "line 6".to_string()]), vec![vec![0, 1]]);
        assert_eq!(replay(&factorial, &w), Ok(()));
    }

    #[test]
    fn an_equation_with_many_solutions_is_guessed_not_solved() {
        // z mod 3 = 1 and z ≥ 5: propagating the root z = 1 alone would refute the lap;
        // guessed, z = 7 is found
        let text = "(declare-sort Loc 0)\n(declare-const l0 Loc)\n(declare-const l1 Loc)\n(assert (distinct l0 l1))\n(define-fun cfg_init ((pc Loc) (src Loc) (rel Bool)) Bool (and (= pc src) rel))\n(define-fun cfg_trans2 ((pc Loc) (src Loc) (pc1 Loc) (dst Loc) (rel Bool)) Bool (and (= pc src) (= pc1 dst) rel))\n(define-fun init_main ((pc Loc) (x Int) (y Int)) Bool (cfg_init pc l0 true))\n(define-fun next_main ((pc Loc) (x Int) (y Int) (pc1 Loc) (xP Int) (yP Int)) Bool (or\n(cfg_trans2 pc l0 pc1 l1 (and (= xP x) (= yP y)))\n(cfg_trans2 pc l1 pc1 l1 (and (= xP x) (= yP y) (exists ((z Int)) (and (= (mod z 3) 1) (>= z 5) (<= z 7)))))))\n";
        let m = termcheck_engine::its::parse_file("t.smt2", text, false).expect("parses");
        assert_eq!(replay(&m, &witness(ge0("x"), 1)), Ok(()));
    }

    #[test]
    fn temporaries_fixed_by_equations_are_solved() {
        let its = its("(GOAL COMPLEXITY)\n(STARTTERM (FUNCTIONSYMBOLS l0))\n(VAR x)\n(RULES\n  l0(x) -> l1(z) :|: 2 * z = x + 10\n)\n");
        let any = Goal::Set(&Formula::True);
        let mut search = Search { budget: 100, inexact: false };
        assert_eq!(follow(&its, &[0], &[Num::from(4)], &any, &mut search), Ok(Some(vec![Num::from(7)])));
        assert_eq!(follow(&its, &[0], &[Num::from(5)], &any, &mut search), Ok(None));
        assert!(!search.inexact, "2z = 15 has no integer solution: nothing guessed");
        assert_eq!(follow(&its, &[0], &[Num::from(4)], &any, &mut Search { budget: 0, inexact: false }), Err(()));
    }
}
