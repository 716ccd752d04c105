//! The ITS interpreter of `cargo xtask replay`: replays an ITS input's NO witness (the JSON
//! `its_lasso`) on the ITS as the engine's parser reads the file, with its own evaluator and
//! its own choice of the rules' temporary values — nothing of the prover (its preprocessing,
//! its evaluator, z3) is used. The stem must be reproduced state by state (each recorded step
//! by a path of at most `MAX_PATH` rules of the input, the last one reaching exactly the
//! recorded values); the end state must lie in the recurrent set; then, `LAPS` times over,
//! the interpreter must find a path of input rules from the recurrent set's location back to
//! it, into the set. A bounded replay (a test of the set's closure, not a proof).

use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};
use termcheck_engine::its::{Its, Transition};
use termcheck_engine::logic::{Formula, Int, Rel, Term};

/// Longest path of input rules for one recorded step (the prover chains rules through
/// locations without self-loops, so one of its steps may be several input rules).
const MAX_PATH: usize = 5;
/// Times the run must return into the recurrent set.
const LAPS: usize = 50;
/// Successor states tried per rule application (temporaries chosen from candidates).
const MAX_SUCCESSORS: usize = 24;
/// Candidate valuations of a rule's undetermined temporaries tried per application.
const MAX_CHOICES: usize = 4096;

/// A state: the location and a value for every variable of the ITS (in `Its::vars` order).
type State = (u32, Vec<Int>);

/// Values of the variables of one rule application (program variables and temporaries).
type Env = BTreeMap<String, Int>;

fn term(t: &Term, env: &Env) -> Option<Int> {
    Some(match t {
        Term::Const(c) => *c,
        Term::Var(v) => *env.get(v.name())?,
        Term::Add(ts) => ts.iter().try_fold(0 as Int, |a, t| a.checked_add(term(t, env)?))?,
        Term::Mul(ts) => ts.iter().try_fold(1 as Int, |a, t| a.checked_mul(term(t, env)?))?,
        Term::Neg(t) => term(t, env)?.checked_neg()?,
        // SMT-LIB's Euclidean division and remainder
        Term::Div(a, b) => {
            let (a, b) = (term(a, env)?, term(b, env)?);
            let r = a.checked_rem_euclid(b)?;
            (a - r).checked_div(b)?
        }
        Term::Mod(a, b) => term(a, env)?.checked_rem_euclid(term(b, env)?)?,
        Term::Ite(c, a, b) => {
            if formula(c, env)? {
                term(a, env)?
            } else {
                term(b, env)?
            }
        }
    })
}

fn formula(f: &Formula, env: &Env) -> Option<bool> {
    Some(match f {
        Formula::True => true,
        Formula::False => false,
        // the relation's own definition (logic::Rel), not the prover's evaluator
        Formula::Cmp(r, a, b) => r.holds(term(a, env)?, term(b, env)?),
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

/// Every variable name and integer constant of a term / formula.
fn names_and_constants_of_term(t: &Term, names: &mut BTreeSet<String>, constants: &mut BTreeSet<Int>) {
    match t {
        Term::Const(c) => {
            constants.insert(*c);
        }
        Term::Var(v) => {
            names.insert(v.name().to_string());
        }
        Term::Add(ts) | Term::Mul(ts) => ts.iter().for_each(|t| names_and_constants_of_term(t, names, constants)),
        Term::Neg(t) => names_and_constants_of_term(t, names, constants),
        Term::Div(a, b) | Term::Mod(a, b) => {
            names_and_constants_of_term(a, names, constants);
            names_and_constants_of_term(b, names, constants);
        }
        Term::Ite(c, a, b) => {
            names_and_constants(c, names, constants);
            names_and_constants_of_term(a, names, constants);
            names_and_constants_of_term(b, names, constants);
        }
    }
}

fn names_and_constants(f: &Formula, names: &mut BTreeSet<String>, constants: &mut BTreeSet<Int>) {
    match f {
        Formula::True | Formula::False | Formula::BoolVar(_) => {}
        Formula::Cmp(_, a, b) => {
            names_and_constants_of_term(a, names, constants);
            names_and_constants_of_term(b, names, constants);
        }
        Formula::And(fs) | Formula::Or(fs) => fs.iter().for_each(|f| names_and_constants(f, names, constants)),
        Formula::Not(f) | Formula::Exists(_, f) => names_and_constants(f, names, constants),
    }
}

fn conjuncts(f: &Formula) -> Vec<&Formula> {
    match f {
        Formula::And(fs) => fs.iter().flat_map(conjuncts).collect(),
        f => vec![f],
    }
}

/// Gives temporaries fixed by the guard's equations their value: an equation `a = b` of the
/// guard's top-level conjunction in which exactly one temporary is still open and occurs
/// linearly (`a − b` evaluates to `c₀` at 0 and `c₀ + c` at 1, `c ≠ 0` divides `c₀`).
fn propagate_equations(rule: &Transition, open: &mut Vec<String>, env: &mut Env) {
    let equations: Vec<(&Term, &Term)> = conjuncts(&rule.guard)
        .into_iter()
        .filter_map(|f| match f {
            Formula::Cmp(Rel::Eq, a, b) => Some((a, b)),
            _ => None,
        })
        .collect();
    let mut changed = true;
    while changed {
        changed = false;
        for (a, b) in &equations {
            let mut names = BTreeSet::new();
            names_and_constants_of_term(a, &mut names, &mut BTreeSet::new());
            names_and_constants_of_term(b, &mut names, &mut BTreeSet::new());
            let unknown: Vec<&String> = open.iter().filter(|t| names.contains(*t)).collect();
            let [t] = unknown[..] else { continue };
            let t = t.clone();
            let at = |x: Int, env: &mut Env| {
                env.insert(t.clone(), x);
                let d = term(a, env).zip(term(b, env)).and_then(|(a, b)| a.checked_sub(b));
                env.remove(&t);
                d
            };
            let (Some(c0), Some(c1), Some(c2)) = (at(0, env), at(1, env), at(2, env)) else { continue };
            let c = c1 - c0;
            // linear in t: the differences agree
            if c == 0 || c2 - c1 != c || c0 % c != 0 {
                continue;
            }
            let x = -c0 / c;
            env.insert(t.clone(), x);
            open.retain(|o| *o != t);
            changed = true;
        }
    }
}

/// The states `rule` leads to from the variable values `values` (at most `MAX_SUCCESSORS`); with
/// `target`, only that state (temporaries that are a variable's whole update take its value).
fn successors(its: &Its, rule: &Transition, values: &[Int], target: Option<&[Int]>, budget: &mut usize) -> Result<Vec<Vec<Int>>, ()> {
    let mut env: Env = its.vars.iter().map(|v| v.name().to_string()).zip(values.iter().copied()).collect();
    let mut names = BTreeSet::new();
    let mut constants = BTreeSet::new();
    names_and_constants(&rule.guard, &mut names, &mut constants);
    rule.update.iter().for_each(|u| names_and_constants_of_term(u, &mut names, &mut constants));
    let mut open: Vec<String> = names.into_iter().filter(|n| !env.contains_key(n)).collect();
    if let Some(target) = target {
        for (u, x) in rule.update.iter().zip(target) {
            if let Term::Var(t) = u {
                if open.iter().any(|o| o == t.name()) {
                    env.insert(t.name().to_string(), *x);
                    open.retain(|o| o != t.name());
                }
            }
        }
    }
    propagate_equations(rule, &mut open, &mut env);
    // candidates for the rest: the rule's constants, the current and target values, their neighbours
    let mut pool: BTreeSet<Int> = [0, 1, -1].into();
    for c in constants.iter().chain(values).chain(target.unwrap_or(&[])) {
        for d in [-1, 0, 1] {
            if let Some(x) = c.checked_add(d) {
                pool.insert(x);
            }
        }
    }
    let pool: Vec<Int> = pool.into_iter().collect();
    let mut found = Vec::new();
    let choices = (pool.len() as u128).checked_pow(open.len() as u32).unwrap_or(u128::MAX).min(MAX_CHOICES as u128) as usize;
    for mut k in 0..choices.max(1) {
        *budget = budget.checked_sub(1).ok_or(())?;
        for t in &open {
            env.insert(t.clone(), pool[k % pool.len()]);
            k /= pool.len();
        }
        if formula(&rule.guard, &env) != Some(true) {
            continue;
        }
        let Some(next) = rule.update.iter().map(|u| term(u, &env)).collect::<Option<Vec<Int>>>() else { continue };
        if target.is_some_and(|t| t != next.as_slice()) || found.contains(&next) {
            continue;
        }
        found.push(next);
        if target.is_some() || found.len() >= MAX_SUCCESSORS {
            break;
        }
    }
    Ok(found)
}

/// Valuations (of a rule's guard and update) one replay may evaluate: the search for paths is
/// exponential in their length.
const BUDGET: usize = 2_000_000;

/// A path of at most `depth` rules from `from` to a state `goal` accepts (depth first; the
/// last rule of a path into location `to` with `target` must reach exactly `target`), within
/// `budget` rule applications (`Err` when it runs out).
fn path_within(its: &Its, from: &State, to: u32, target: Option<&[Int]>, goal: &dyn Fn(&[Int]) -> bool, depth: usize, budget: &mut usize) -> Result<Option<State>, ()> {
    if depth == 0 {
        return Ok(None);
    }
    for rule in its.transitions.iter().filter(|r| r.from.0 == from.0) {
        let exact = if rule.to.0 == to { target } else { None };
        for next in successors(its, rule, &from.1, exact, budget)? {
            if rule.to.0 == to && goal(&next) {
                return Ok(Some((to, next)));
            }
            if let Some(end) = path_within(its, &(rule.to.0, next), to, target, goal, depth - 1, budget)? {
                return Ok(Some(end));
            }
        }
    }
    Ok(None)
}

/// The shortest path of 1..=`MAX_PATH` rules (iterative deepening) `path_within` finds;
/// `Err` when the budget runs out first.
fn path(its: &Its, from: &State, to: u32, target: Option<&[Int]>, goal: &dyn Fn(&[Int]) -> bool, budget: &mut usize) -> Result<Option<State>, ()> {
    for depth in 1..=MAX_PATH {
        if let Some(end) = path_within(its, from, to, target, goal, depth, budget)? {
            return Ok(Some(end));
        }
    }
    Ok(None)
}

fn named_values(v: &Value) -> Option<BTreeMap<String, Int>> {
    v.as_array()?
        .iter()
        .map(|x| {
            let value = match &x["value"] {
                Value::String(s) => s.parse().ok()?,
                n => n.as_i64().map(Int::from).or_else(|| n.as_u64().map(Int::from))?,
            };
            Some((x["name"].as_str()?.to_string(), value))
        })
        .collect()
}

/// The start of the error of a replay that ran out of its budget (neither reproduced nor
/// refuted).
pub const OUT_OF_BUDGET: &str = "the interpreter's budget ran out";

/// Replays the NO witness `termination` (the JSON report's `termination` object) of the ITS
/// `its`; `Err` says what did not reproduce.
pub fn replay(its: &Its, termination: &Value) -> Result<(), String> {
    let lasso = &termination["its_lasso"];
    if lasso.is_null() {
        return Err("the witness has no `its_lasso`".into());
    }
    let location = |name: &str| its.locations.iter().position(|l| l == name).map(|i| i as u32).ok_or(format!("no location `{name}` in the ITS"));
    let ordered = |m: &BTreeMap<String, Int>| its.vars.iter().map(|v| m.get(v.name()).copied()).collect::<Option<Vec<Int>>>();
    let inputs = named_values(&termination["inputs"]).ok_or("bad `inputs`")?;
    let stem = lasso["stem"].as_array().ok_or("bad `stem`")?;
    let end = location(lasso["location"].as_str().ok_or("bad `location`")?)?;
    let start = match (its.start, stem.first()) {
        (Some(s), _) => s.0,
        (None, Some(step)) => location(step["from"].as_str().ok_or("bad `from`")?)?,
        (None, None) => end,
    };
    let mut state: State = (start, ordered(&inputs).ok_or("`inputs` does not give every variable")?);
    let mut budget = BUDGET;
    let out_of_budget = || format!("{OUT_OF_BUDGET} ({BUDGET} valuations)");
    for (k, step) in stem.iter().enumerate() {
        let to = location(step["to"].as_str().ok_or("bad `to`")?)?;
        let target = ordered(&named_values(&step["state"]).ok_or("bad `state`")?).ok_or("a stem state does not give every variable")?;
        let is_target = |v: &[Int]| v == target.as_slice();
        state = path(its, &state, to, Some(&target), &is_target, &mut budget).map_err(|()| out_of_budget())?.ok_or(format!("stem step {} ({} → {}) not reproduced", k + 1, step["from"], step["to"]))?;
    }
    if state.0 != end {
        return Err(format!("the stem ends at `{}`, not at the set's location", its.locations[state.0 as usize]));
    }
    let set: Formula = serde_json::from_value(lasso["set_formula"].clone()).map_err(|e| format!("bad `set_formula`: {e}"))?;
    let in_set = |v: &[Int]| {
        let env: Env = its.vars.iter().map(|x| x.name().to_string()).zip(v.iter().copied()).collect();
        formula(&set, &env) == Some(true)
    };
    if !in_set(&state.1) {
        return Err("the stem's end state is not in the recurrent set".into());
    }
    for lap in 0..LAPS {
        state = path(its, &state, end, None, &in_set, &mut budget).map_err(|()| out_of_budget())?.ok_or(format!("lap {}: no path of input rules back into the recurrent set from {:?}", lap + 1, state.1))?;
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
        Formula::Cmp(Rel::Ge, Term::Var(termcheck_engine::logic::Var::new(v)), Term::Const(0))
    }

    #[test]
    fn a_closed_set_replays_and_wrong_witnesses_do_not() {
        let its = its(COUNT_UP);
        assert_eq!(replay(&its, &witness(Formula::And(vec![ge0("x"), ge0("y")]), 1)), Ok(()));
        // the stem does not reach y = 2 (the first rule keeps y)
        assert!(replay(&its, &witness(Formula::And(vec![ge0("x"), ge0("y")]), 2)).is_err_and(|e| e.contains("stem step 1")));
        // x ≤ 3 is left after four laps: not closed
        let bounded = Formula::Cmp(Rel::Le, Term::Var(termcheck_engine::logic::Var::new("x")), Term::Const(3));
        assert!(replay(&its, &witness(Formula::And(vec![ge0("x"), ge0("y"), bounded]), 1)).is_err_and(|e| e.contains("lap")));
    }

    #[test]
    fn temporaries_fixed_by_equations_are_solved() {
        let its = its("(GOAL COMPLEXITY)\n(STARTTERM (FUNCTIONSYMBOLS l0))\n(VAR x)\n(RULES\n  l0(x) -> l1(z) :|: 2 * z = x + 10\n)\n");
        let rule = &its.transitions[0];
        assert_eq!(successors(&its, rule, &[4], None, &mut 100), Ok(vec![vec![7]]));
        assert_eq!(successors(&its, rule, &[5], None, &mut 100), Ok(Vec::<Vec<Int>>::new()));
        assert_eq!(successors(&its, rule, &[5], None, &mut 0), Err(()));
    }
}
