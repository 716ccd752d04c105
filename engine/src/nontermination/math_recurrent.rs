//! NO under `--int-semantics math` by recurrent sets over mathematical integers, for loops
//! whose infinite runs never repeat a state (a counter that grows forever, `x = 2*x`, …), so
//! that no concrete lasso exists.
//!
//! 1. Observe: run the program (interpreter, `math`) with a few input strategies until the
//!    step limit (or until a value leaves i128, which stops the interpreter) and record the
//!    tail of block entries; take the innermost loop the run is stuck in and the state
//!    (header phis, live-ins) at its last header visits.
//! 2. Guess: candidate atoms true at every observed visit — bounds from the observed values,
//!    constants, parities, orders, sums and differences of pairs, and the loop's branch
//!    conditions over the state (the loop guard among them).
//! 3. Houdini: `R` = their conjunction; while some state of `R`, for some nondeterministic
//!    values, can leave the loop, hit UB/poison or take a back edge to a state outside `R`
//!    (z3 over the exact integer encoding `math_step`): drop the conjuncts the successor
//!    violates (give up on exit/UB/unknown). Then drop conjuncts while `R` stays closed.
//! 4. Re-check independently (`recheck`): re-encode the loop from the IR, replay the stem
//!    with the interpreter to the header visit, evaluate `R` there, re-prove closure.
//!
//! Why that is a non-terminating run of `math`: the stem is a real run free of UB and poison
//! reaching a state in `R`; from any state in `R` every iteration, whatever the
//! nondeterministic values, is free of UB and poison, takes a back edge and lands in `R`.
//! The loop body calls nothing with effects and touches memory only through fixed cells that
//! are state variables of the encoding (the encoder refuses anything else), so the header
//! state and the cells are all an iteration depends on and the run stays in the loop
//! forever. The run's values may outgrow i128, where the interpreter stops: the infinite run
//! exists in the unbounded semantics, which is what `math` means.

use super::header_visits::HeaderVisits;
use super::math_step::{encode_math_loop_step, MathLoopStep};
use super::recheck::{observation, recheck};
use crate::config::{BitPreciseLimits, Config};
use crate::facts::ModuleFacts;
use crate::interp::{run_observed, BlockEntry, BlockObserver, CellSpec, InputSource, RunConfig, SequenceInputs, Strategy, StrategyInputs, TailRecorder};
use crate::ir::{BlockId, FuncId, Module, Op, Operand};
use crate::logic::{Formula, Int, Term, Var};
use crate::smt::{Budget, SatResult, Value};
use crate::termination::eval::{eval_formula, Valuation};
use crate::verdict::{IntSemantics, NonTerminationWitness, RecurrentSetWitness};
use std::time::Instant;

/// Header visits used as observations (per window).
const OBSERVED_VISITS: usize = 64;
/// Block entries kept from a run's tail.
const TAIL_ENTRIES: usize = 4096;
/// Houdini rounds at most.
const MAX_ROUNDS: usize = 64;
/// Program constants tried as constant inputs, at most.
const MAX_CONSTANT_STRATEGIES: usize = 12;

/// Candidate atoms over the loop variables that hold at every observed visit.
pub fn candidates(step: &MathLoopStep, observations: &[Valuation]) -> Vec<Formula> {
    candidate_atoms(&step.variable_names(), &step.conditions, &step.inputs, observations)
}

/// Candidate atoms over the variables `names` (and the branch conditions `conditions` that
/// read no input of `inputs`) that hold at every observation.
pub fn candidate_atoms(names: &[String], conditions: &[Formula], inputs: &[(String, u32)], observations: &[Valuation]) -> Vec<Formula> {
    let mut out: Vec<Formula> = Vec::new();
    let mut push = |f: Formula| {
        if f != Formula::True && f != Formula::False && !out.contains(&f) {
            out.push(f);
        }
    };
    let vars: Vec<(Term, Vec<Int>)> = names
        .iter()
        .filter_map(|name| {
            let x = Var::new(name);
            let values: Option<Vec<Int>> = observations.iter().map(|o| o.get(&x).copied()).collect();
            Some((Term::Var(x), values?))
        })
        .collect();
    let bounds = |t: Term, values: &[Int], push: &mut dyn FnMut(Formula)| {
        let (Some(&lo), Some(&hi)) = (values.iter().min(), values.iter().max()) else { return };
        if lo == hi {
            push(Formula::eq(t.clone(), Term::Const(lo)));
        }
        push(Formula::ge(t.clone(), Term::Const(lo)));
        push(Formula::le(t.clone(), Term::Const(hi)));
        for m in [2, 3, 4] {
            let r = lo.rem_euclid(m);
            if values.iter().all(|v| v.rem_euclid(m) == r) {
                push(Formula::eq(Term::Mod(Box::new(t.clone()), Box::new(Term::Const(m))), Term::Const(r)));
            }
        }
    };
    for (t, values) in &vars {
        // Sign facts first: `minimize` then keeps them rather than the observed extremes.
        for k in [0, 1] {
            push(Formula::ge(t.clone(), Term::Const(k)));
            push(Formula::le(t.clone(), Term::Const(-k)));
        }
        bounds(t.clone(), values, &mut push);
        // Growing magnitude with alternating sign (a disjunction `x ≥ c ∨ x ≤ −c`).
        if let Some(m) = values.iter().map(|v| v.checked_abs()).collect::<Option<Vec<Int>>>() {
            if let Some(&lo) = m.iter().min() {
                push(Formula::ge(magnitude(t.clone()), Term::Const(lo)));
            }
        }
    }
    for (i, (a, va)) in vars.iter().enumerate() {
        for (b, vb) in vars.iter().skip(i + 1) {
            for rel in [Formula::le, Formula::lt, Formula::ge, Formula::gt, Formula::eq, Formula::ne] {
                push(rel(a.clone(), b.clone()));
            }
            let diff: Option<Vec<Int>> = va.iter().zip(vb).map(|(x, y)| x.checked_sub(*y)).collect();
            let sum: Option<Vec<Int>> = va.iter().zip(vb).map(|(x, y)| x.checked_add(*y)).collect();
            if let Some(d) = diff {
                bounds(Term::sub(a.clone(), b.clone()), &d, &mut push);
            }
            if let Some(s) = sum {
                bounds(Term::add(a.clone(), b.clone()), &s, &mut push);
            }
            for ((x, vx), (y, vy)) in [((a, va), (b, vb)), ((b, vb), (a, va))] {
                let gap: Option<Vec<Int>> = vx.iter().zip(vy.iter()).map(|(p, q)| p.checked_abs()?.checked_sub(*q)).collect();
                if let Some(&lo) = gap.as_ref().and_then(|g| g.iter().min()) {
                    push(Formula::ge(Term::sub(magnitude(x.clone()), y.clone()), Term::Const(lo)));
                }
            }
        }
    }
    let input_names: Vec<Var> = inputs.iter().map(|(n, _)| Var::new(n)).collect();
    for c in conditions {
        if c.vars().iter().any(|v| input_names.contains(v)) {
            continue;
        }
        push(c.clone());
        push(Formula::not(c.clone()));
    }
    out.retain(|f| observations.iter().all(|o| eval_formula(f, o) == Some(true)));
    out
}

/// `|t|`.
fn magnitude(t: Term) -> Term {
    Term::Ite(Box::new(Formula::ge(t.clone(), Term::Const(0))), Box::new(t.clone()), Box::new(Term::Neg(Box::new(t))))
}

/// The model's values as integers (`None` if one is rational).
pub(super) fn ints(model: &crate::smt::Model) -> Option<Valuation> {
    model
        .iter()
        .map(|(v, x)| match x {
            Value::Int(i) => Some((v.clone(), *i)),
            Value::Rat(..) => None,
        })
        .collect()
}

/// Houdini over `conjuncts`: the largest subset closed under every iteration, or `None`
/// when a state of the current set can leave the loop or hit UB, or z3 does not answer.
pub fn houdini(step: &MathLoopStep, fixed: Option<Int>, conjuncts: Vec<Formula>, limits: &BitPreciseLimits, deadline: Instant) -> Option<Formula> {
    use crate::houdini::{largest_closed_subset, Closure};
    let check = |cs: &[Formula]| {
        let query = step.closure_violation(&Formula::and(cs.to_vec()), fixed);
        let vars: Vec<Var> = query.vars().into_iter().collect();
        let budget = Budget::until(deadline, limits.recurrent_query_limit);
        let model = match crate::smt::model(&query, &vars, &budget) {
            (SatResult::Unsat, _) => return Closure::Closed,
            (SatResult::Sat, Some(model)) => model,
            _ => return Closure::Unknown,
        };
        let Some(env) = ints(&model) else { return Closure::Unknown };
        match (eval_formula(&step.exit, &env), eval_formula(&step.ub, &env)) {
            (Some(false), Some(false)) => Closure::Counterexample(env),
            (Some(_), Some(_)) => {
                tracing::debug!("math recurrent set: a state of R can leave the loop or hit UB");
                Closure::Escapes
            }
            _ => Closure::Unknown,
        }
    };
    let kept = largest_closed_subset(conjuncts, MAX_ROUNDS, check, |c, env| eval_formula(&step.after_iteration(c), env))?;
    Some(Formula::and(kept))
}

/// Drops conjuncts of a closed set while the rest stays closed (a larger, readable `R` that
/// still contains the observed states). Tries relations between variables and parities first.
pub fn minimize(step: &MathLoopStep, fixed: Option<Int>, set: &Formula, limits: &BitPreciseLimits, deadline: Instant) -> Formula {
    // A loop no iteration can leave needs no conjunct at all (conjuncts can depend on each
    // other, so dropping one at a time would not find it).
    let budget = Budget::until(deadline, limits.recurrent_minimize_query_limit);
    if crate::smt::check_sat(&step.closure_violation(&Formula::True, fixed), &budget) == SatResult::Unsat {
        return Formula::True;
    }
    let mut kept = set.conjuncts();
    let mut order = kept.clone();
    order.sort_by_key(|c| match c {
        Formula::Cmp(_, Term::Var(_), Term::Const(_)) => 1,
        _ => 0,
    });
    for c in order {
        if crate::cancel::past(deadline) {
            break;
        }
        let rest: Vec<Formula> = kept.iter().filter(|k| **k != c).cloned().collect();
        let budget = Budget::until(deadline, limits.recurrent_minimize_query_limit);
        if crate::smt::check_sat(&step.closure_violation(&Formula::and(rest.clone()), fixed), &budget) == SatResult::Unsat {
            kept = rest;
        }
    }
    Formula::and(kept)
}

/// The witness of a closed set found from one observation run, re-checked.
fn from_run(module: &Module, facts: &ModuleFacts, entry: FuncId, config: &Config, src: &mut dyn InputSource, constant_input: Option<Int>, deadline: Instant) -> Option<NonTerminationWitness> {
    let limits = config.bitprecise();
    let cfg = RunConfig { detect_lasso: false, deadline: Some(deadline), ..RunConfig::new(IntSemantics::Math, config.witnesses().run, limits.observation_steps) };
    let mut rec = TailRecorder::new(TAIL_ENTRIES);
    let result = run_observed(module, facts, entry, &[], &cfg, src, &mut rec);
    if result.poison_created.is_some() || matches!(result.outcome, crate::interp::Outcome::Returned(_) | crate::interp::Outcome::Exited(_)) {
        return None;
    }
    let tail: Vec<BlockEntry> = rec.entries.into_iter().collect();
    let (func, lp, visits) = crate::bitprecise::recurrent::stuck_loop(module, facts, &tail)?;
    let end = tail.last()?;
    innermost_from_run(module, facts, entry, config, &result.trace_inputs, func, &lp, visits, constant_input, deadline)
        .or_else(|| super::math_nested::from_run(module, facts, entry, config, &result.trace_inputs, end, constant_input, deadline))
}

/// The witness of a closed set of the innermost loop `lp` the run is stuck in (`visits`: its
/// last header visits), re-checked.
#[allow(clippy::too_many_arguments)]
fn innermost_from_run(module: &Module, facts: &ModuleFacts, entry: FuncId, config: &Config, trace_inputs: &[(String, Int)], func: FuncId, lp: &crate::facts::loops::Loop, visits: Vec<BlockEntry>, constant_input: Option<Int>, deadline: Instant) -> Option<NonTerminationWitness> {
    let limits = config.bitprecise();
    let f = module.function(func);
    let step = match encode_math_loop_step(module, f, lp, limits.max_array_cells) {
        Ok(s) => s,
        Err(e) => {
            tracing::debug!(reason = %e.0, "math recurrent set: loop not encodable");
            return None;
        }
    };
    let last = visits.first()?.clone();
    // Observations from the loop's first visits (general bounds, a short stem), then from
    // the run's tail (past a transient phase). The tail's entries carry no memory: with
    // cells, both windows come from one replay that reads them.
    let (early, visits) = if step.cells.is_empty() {
        (header_visits(module, facts, entry, config, &step, trace_inputs, &last, 0, deadline).first, visits)
    } else {
        let end = visits.last()?;
        let seen = header_visits(module, facts, entry, config, &step, trace_inputs, end, OBSERVED_VISITS, deadline);
        (seen.first, seen.last.into_iter().collect())
    };
    let windows = if early.is_empty() || early == visits { vec![visits] } else { vec![early, visits] };
    let (fixed, set) = closed_set(&step, &windows, constant_input, limits, deadline)?;
    let last = &last;
    let first = earliest_visit_in(module, facts, entry, config, &step, &set, trace_inputs, last, deadline).unwrap_or_else(|| last.clone());
    let inputs = trace_inputs.get(..first.inputs_consumed)?.to_vec();
    let w = RecurrentSetWitness {
        function: f.name.clone(),
        header: f.block(lp.header).name.clone(),
        depth: first.depth,
        stem_inputs: inputs,
        stem_steps: first.steps,
        fixed_input: fixed,
        set,
        inner_sets: vec![],
        recursion: false,
    };
    let origin = step.input_origins.first().cloned().unwrap_or_default();
    recheck(module, facts, entry, config, &w, deadline).then(|| witness(module, func, step.header, &origin, w))
}

/// A closed set from the first observation window that gives one, minimized: closed for
/// every input; else, after a run that fed one constant to every input (`constant_input`),
/// closed when every later input is that constant (the returned `Some(c)`).
pub(super) fn closed_set(step: &MathLoopStep, windows: &[Vec<BlockEntry>], constant_input: Option<Int>, limits: &BitPreciseLimits, deadline: Instant) -> Option<(Option<Int>, Formula)> {
    let policies: Vec<Option<Int>> = std::iter::once(None).chain(constant_input.filter(|c| step.fixed_input_fits(*c)).map(Some)).collect();
    let (fixed, set) = windows.iter().find_map(|window| {
        let observations: Vec<Valuation> = window.iter().map(|v| observation(step, v)).collect::<Option<_>>()?;
        let atoms = candidates(step, &observations);
        policies.iter().find_map(|fixed| Some((*fixed, houdini(step, *fixed, atoms.clone(), limits, deadline)?)))
    })?;
    Some((fixed, minimize(step, fixed, &set, limits, deadline)))
}

/// The first header visits (at most `OBSERVED_VISITS`) and the last `last` ones of the
/// observed run, replayed with its inputs up to the visit `at`, with the loop's cells.
#[allow(clippy::too_many_arguments)]
fn header_visits(module: &Module, facts: &ModuleFacts, entry: FuncId, config: &Config, step: &MathLoopStep, inputs: &[(String, Int)], at: &BlockEntry, last: usize, deadline: Instant) -> HeaderVisits {
    let cfg = RunConfig { detect_lasso: false, deadline: Some(deadline), ..RunConfig::new(IntSemantics::Math, config.witnesses().run, at.steps) };
    let values: Vec<i128> = inputs.iter().map(|(_, v)| *v).collect();
    let mut observer = HeaderVisits::new(at.func, at.block, at.depth, step.cell_specs(), OBSERVED_VISITS, last);
    run_observed(module, facts, entry, &[], &cfg, &mut SequenceInputs::new(values, None), &mut observer);
    observer
}

/// Records the first entry of one loop header (function, block, frame depth) whose state
/// satisfies a set.
struct FirstVisitIn<'a> {
    step: &'a MathLoopStep,
    set: &'a Formula,
    at: &'a BlockEntry,
    cells: Vec<CellSpec>,
    found: Option<BlockEntry>,
}

impl BlockObserver for FirstVisitIn<'_> {
    fn block_entry(&mut self, entry: BlockEntry) {
        if self.found.is_none()
            && entry.func == self.at.func
            && entry.block == self.at.block
            && entry.depth == self.at.depth
            && observation(self.step, &entry).is_some_and(|o| eval_formula(self.set, &o) == Some(true))
        {
            self.found = Some(entry);
        }
    }

    fn cells(&self, func: FuncId, block: BlockId) -> &[CellSpec] {
        if self.found.is_none() && func == self.at.func && block == self.at.block {
            &self.cells
        } else {
            &[]
        }
    }
}

/// The earliest header visit of the observed run (replayed with its inputs up to the visit
/// `at`) in the closed set: a shorter stem. `None` if the replay does not get there.
#[allow(clippy::too_many_arguments)]
fn earliest_visit_in(module: &Module, facts: &ModuleFacts, entry: FuncId, config: &Config, step: &MathLoopStep, set: &Formula, inputs: &[(String, Int)], at: &BlockEntry, deadline: Instant) -> Option<BlockEntry> {
    let cfg = RunConfig { detect_lasso: false, deadline: Some(deadline), ..RunConfig::new(IntSemantics::Math, config.witnesses().run, at.steps) };
    let values: Vec<i128> = inputs.iter().map(|(_, v)| *v).collect();
    let mut observer = FirstVisitIn { step, set, at, cells: step.cell_specs(), found: None };
    run_observed(module, facts, entry, &[], &cfg, &mut SequenceInputs::new(values, None), &mut observer);
    observer.found
}

pub(super) fn witness(module: &Module, func: FuncId, header: BlockId, input_origin: &str, w: RecurrentSetWitness) -> NonTerminationWitness {
    let f = module.function(func);
    let block = f.block(header);
    let line = block
        .instrs
        .iter()
        .filter_map(|i| i.loc.as_ref())
        .chain(block.term_loc.as_ref())
        .find(|l| l.line > 0)
        .map(|l| format!(" (line {})", l.line))
        .unwrap_or_default();
    let show = |s: &Formula| {
        let parts: Vec<String> = s.conjuncts().iter().map(|c| c.to_string()).collect();
        if parts.is_empty() { "true".to_string() } else { parts.join(" && ") }
    };
    let (input_cycle, for_inputs) = match w.fixed_input {
        Some(c) => (vec![(input_origin.to_string(), c)], format!("when every further input is {c}")),
        None => (vec![], "for all inputs".to_string()),
    };
    let mut description = vec![
        format!("after {} steps the run enters the loop at block {} of function {}{line}", w.stem_steps, w.header, w.function),
        format!("recurrent set R over mathematical integers: {}", show(&w.set)),
    ];
    description.extend(w.inner_sets.iter().map(|s| format!("at the header {} of an inner loop: {}", s.header, show(&s.set))));
    description.push(if w.inner_sets.is_empty() {
        format!("R holds there and is closed under every iteration {for_inputs} (integer check); the values need not repeat")
    } else {
        format!("R holds there; every path between these headers, {for_inputs}, stays in the loop and ends in the set of the header it reaches (integer check); the values need not repeat")
    });
    NonTerminationWitness {
        inputs: w.stem_inputs.clone(),
        any_further_inputs: w.fixed_input.is_none(),
        input_cycle,
        entry_args: vec![],
        entry_memory: vec![],
        its_lasso: None,
        description,
        recurrent_set: Some(w),
        recursion: None,
    }
}

/// Integer constants the loops compare with, and their neighbours (constant-input strategies).
fn compared_constants(module: &Module) -> Vec<Int> {
    let mut out: Vec<Int> = Vec::new();
    for f in &module.functions {
        for b in &f.blocks {
            for i in &b.instrs {
                if let Op::ICmp { lhs, rhs, .. } = &i.op {
                    for o in [lhs, rhs] {
                        if let Operand::Int { bits, value } = o {
                            for v in [*value, value.saturating_add(1), value.saturating_sub(1)] {
                                if *bits > 1 && !out.contains(&v) && ![0, 1, -1, 2].contains(&v) {
                                    out.push(v);
                                }
                            }
                        }
                    }
                }
            }
        }
    }
    out.truncate(MAX_CONSTANT_STRATEGIES);
    out
}

/// The input strategies of the observation runs, in order: small constants, the constants
/// the program compares with, then ranges and mixes.
pub(super) fn observation_strategies(module: &Module) -> Vec<Strategy> {
    let mut strategies: Vec<Strategy> = vec![Strategy::Constant(0), Strategy::Constant(1), Strategy::Constant(-1), Strategy::Constant(2)];
    strategies.extend(compared_constants(module).into_iter().map(Strategy::Constant));
    strategies.extend([Strategy::Range { lo: -20, hi: 20 }, Strategy::Mixed, Strategy::Boundary, Strategy::Range { lo: -3, hi: 3 }]);
    strategies
}

/// Searches a recurrent-set NO over mathematical integers for `entry` (no parameters) under
/// `--int-semantics math`; every returned witness passed `recheck`.
pub fn prove_nontermination(module: &Module, facts: &ModuleFacts, entry: FuncId, config: &Config, deadline: Instant) -> Option<NonTerminationWitness> {
    if config.int_semantics() != IntSemantics::Math || !module.function(entry).params.is_empty() {
        return None;
    }
    if (0..module.functions.len() as u32).all(|f| facts.function(module, FuncId(f)).loops.loops.is_empty()) {
        return None;
    }
    for (k, s) in observation_strategies(module).into_iter().enumerate() {
        if crate::cancel::past(deadline) {
            return None;
        }
        let constant_input = if let Strategy::Constant(c) = s { Some(c) } else { None };
        let mut src = StrategyInputs::new(s, 0x3a7_0000 + k as u64);
        if let Some(w) = from_run(module, facts, entry, config, &mut src, constant_input, deadline) {
            return Some(w);
        }
    }
    None
}
