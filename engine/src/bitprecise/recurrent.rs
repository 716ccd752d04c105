//! NO by bit-precise recurrent sets: for loops whose concrete runs repeat a state only after
//! astronomically many steps (e.g. `for (unsigned j = 0; j <= n; j++)` with `n = UINT_MAX`).
//!
//! 1. Observe: run the program (interpreter, `c`/`wrap` semantics) until the step limit and
//!    record the tail of block entries; pick the innermost loop the run is stuck in and its
//!    header's states (phis, live-ins) at the last visits.
//! 2. Guess: candidate predicates over the state that hold at every observed visit.
//! 3. Houdini: `R` = their conjunction; while some state in `R` can, for some inputs of one
//!    iteration, exit, hit undefined behaviour/poison, or stay with a successor outside `R`:
//!    drop the conjuncts the successor violates (give up on exit/UB/unknown). An `R` without
//!    such a state is a recurrent set closed under every iteration for all inputs.
//! 4. Re-check independently: replay the stem inputs with the interpreter to the observed
//!    header visit (no UB, no poison), check the reached state satisfies `R` with the
//!    `BvFormula` evaluator, and re-prove closure with a fresh z3 query.
//!
//! Why that is a non-terminating run: the stem is a real run (replayed) reaching a state in
//! `R`; from any state in `R`, every iteration (whatever the nondeterministic values) is free
//! of UB and poison, takes a back edge and lands in `R` again. The loop body contains no
//! memory access and no call other than nondeterministic inputs and pure intrinsics (the
//! encoder refuses everything else), so the header state (phis and live-ins) is all the
//! iteration depends on, and the run stays in the loop forever.

use super::encode::Unsupported;
use crate::facts::loops::Loop;
use crate::facts::ModuleFacts;
use super::step::{encode_loop_step, LoopStep, LoopVar};
use crate::config::{BitPreciseLimits, Config};
use crate::interp::{run_observed, BlockEntry, InputSource, RunConfig, SequenceInputs, Strategy, StrategyInputs, TailRecorder};
use crate::ir::{FuncId, Module};
use crate::logic::bv::{from_signed, BvEnv, BvFormula, BvTerm};
use crate::smt::{check_bv, SatResult};
use crate::verdict::{IntSemantics, NonTerminationWitness};
use std::collections::BTreeSet;
use std::time::Instant;

/// Header visits used as observations.
const OBSERVED_VISITS: usize = 64;
/// Block entries kept from a run's tail.
const TAIL_ENTRIES: usize = 4096;
/// Houdini rounds at most.
const MAX_ROUNDS: usize = 64;

/// A recurrent set found for a loop, before the independent re-check.
#[derive(Clone, Debug)]
pub struct RecurrentSet {
    pub func: FuncId,
    pub step: LoopStep,
    /// The set, over the step's state and live-in variables.
    pub set: BvFormula,
    /// Inputs consumed before the observed header visit.
    pub stem_inputs: Vec<(String, i128)>,
    /// Steps executed until that visit (the header entry happens at exactly this step).
    pub stem_steps: u64,
    /// Frame depth of the loop at that visit.
    pub depth: usize,
}

/// The values of the loop variables at one header visit, if all are defined and not poison.
pub fn observation(step: &LoopStep, entry: &BlockEntry) -> Option<BvEnv> {
    let mut env = BvEnv::new();
    for x in step.state.iter().chain(&step.live_ins) {
        let v = entry.regs.get(x.value.0 as usize).copied().flatten()?;
        if v.poison {
            return None;
        }
        env.insert(x.name.clone(), from_signed(v.int, x.width));
    }
    Some(env)
}

fn constant_over(envs: &[BvEnv], t: &BvTerm) -> Option<u128> {
    let first = t.eval(envs.first()?).ok()?;
    envs.iter().all(|e| t.eval(e).ok() == Some(first)).then_some(first)
}

/// Candidate predicates over the loop state that hold on every observation.
pub fn candidates(step: &LoopStep, observations: &[BvEnv]) -> Vec<BvFormula> {
    let mut out: Vec<BvFormula> = Vec::new();
    let mut push = |f: Result<BvFormula, crate::logic::bv::BvWidthError>| {
        if let Ok(f) = f {
            if f != BvFormula::True && f != BvFormula::False && !out.contains(&f) {
                out.push(f);
            }
        }
    };
    let vars: Vec<&LoopVar> = step.state.iter().chain(&step.live_ins).collect();
    for x in &vars {
        let t = x.term();
        if let Some(c) = constant_over(observations, &t) {
            push(BvFormula::eq(t.clone(), BvTerm::Const { width: x.width, value: c }));
        }
        for j in 0..4.min(x.width) {
            if let Ok(low) = BvTerm::extract(j, 0, t.clone()) {
                if let Some(c) = constant_over(observations, &low) {
                    push(BvFormula::eq(low, BvTerm::Const { width: j + 1, value: c }));
                }
            }
        }
        let values: Vec<u128> = observations.iter().filter_map(|e| t.eval(e).ok()).collect();
        if let (Some(&umin), Some(&umax)) = (values.iter().min(), values.iter().max()) {
            let cst = |v| BvTerm::Const { width: x.width, value: v };
            push(BvFormula::ule(cst(umin), t.clone()));
            push(BvFormula::ule(t.clone(), cst(umax)));
            let signed: Vec<i128> = values.iter().map(|v| crate::logic::bv::to_signed(*v, x.width)).collect();
            if let (Some(&smin), Some(&smax)) = (signed.iter().min(), signed.iter().max()) {
                push(BvFormula::sle(cst(from_signed(smin, x.width)), t.clone()));
                push(BvFormula::sle(t.clone(), cst(from_signed(smax, x.width))));
            }
        }
    }
    for (i, a) in vars.iter().enumerate() {
        for b in vars.iter().skip(i + 1) {
            if a.width != b.width {
                continue;
            }
            let (ta, tb) = (a.term(), b.term());
            push(BvFormula::eq(ta.clone(), tb.clone()));
            push(BvFormula::ne(ta.clone(), tb.clone()));
            push(BvFormula::ule(ta.clone(), tb.clone()));
            push(BvFormula::ule(tb.clone(), ta.clone()));
            push(BvFormula::ult(ta.clone(), tb.clone()));
            push(BvFormula::ult(tb.clone(), ta.clone()));
            push(BvFormula::sle(ta.clone(), tb.clone()));
            push(BvFormula::sle(tb.clone(), ta.clone()));
            push(BvFormula::slt(ta.clone(), tb.clone()));
            push(BvFormula::slt(tb.clone(), ta.clone()));
        }
    }
    // Branch conditions of the loop that depend on the state only.
    let mut values = crate::bitprecise::Env::new();
    for e in &step.region.edges {
        values.extend(e.values.iter().map(|(k, v)| (*k, v.clone())));
    }
    let inputs: BTreeSet<&str> = step.inputs.iter().map(|(n, _)| n.as_str()).collect();
    let mut conds = Vec::new();
    for v in values.values() {
        if v.width() == 1 {
            conds.push(v.clone());
        }
    }
    for c in conds {
        let vars = {
            let mut m = std::collections::BTreeMap::new();
            c.collect_vars(&mut m);
            m
        };
        if vars.keys().any(|n| inputs.contains(n.as_str())) {
            continue;
        }
        if let Ok(f) = BvFormula::is_true(c.clone()) {
            push(Ok(f.clone()));
            push(Ok(BvFormula::not(f)));
        }
    }
    out.retain(|f| observations.iter().all(|e| f.eval(e) == Ok(true)));
    out
}

/// The formula whose unsatisfiability says `R` is closed: a state in `R` that can exit, hit
/// UB, or stay with a successor outside `R`.
pub fn closure_violation(step: &LoopStep, set: &BvFormula) -> Result<BvFormula, Unsupported> {
    let post_set = substitute_post(step, set)?;
    Ok(BvFormula::and([
        set.clone(),
        BvFormula::or([step.exit.clone(), step.ub.clone(), BvFormula::and([step.stay.clone(), BvFormula::not(post_set)])]),
    ]))
}

fn substitute_post(step: &LoopStep, f: &BvFormula) -> Result<BvFormula, Unsupported> {
    let by_name: std::collections::BTreeMap<&str, &BvTerm> =
        step.state.iter().filter_map(|x| step.post.get(&x.value).map(|t| (x.name.as_str(), t))).collect();
    Ok(f.substitute(&|n| by_name.get(n).map(|t| (*t).clone()))?)
}

/// Houdini over `candidates`: the largest subset closed under every iteration, or `None`
/// when a state of the current set can exit or hit UB, or z3 does not answer.
pub fn houdini(step: &LoopStep, conjuncts: Vec<BvFormula>, limits: &BitPreciseLimits, deadline: Instant) -> Option<BvFormula> {
    use crate::houdini::{largest_closed_subset, Closure};
    let check = |cs: &[BvFormula]| {
        let Ok(query) = closure_violation(step, &BvFormula::and(cs.to_vec())) else { return Closure::Unknown };
        let Some(timeout) = deadline.checked_duration_since(Instant::now()) else { return Closure::Unknown };
        let mut env = match check_bv(&query, Some(timeout.min(limits.recurrent_query_limit))) {
            (SatResult::Unsat, _) => return Closure::Closed,
            (SatResult::Sat, Some(model)) => model,
            _ => return Closure::Unknown,
        };
        // Variables the model leaves out (not in the query) do not matter; 0 is fine.
        for (n, _) in &step.inputs {
            env.entry(n.clone()).or_insert(0);
        }
        match (step.exit.eval(&env), step.ub.eval(&env)) {
            (Ok(false), Ok(false)) => Closure::Counterexample(env),
            (Ok(_), Ok(_)) => {
                tracing::debug!("recurrent set: a state of R can exit or hit UB");
                Closure::Escapes
            }
            _ => Closure::Unknown,
        }
    };
    let kept = largest_closed_subset(conjuncts, MAX_ROUNDS, check, |c, env| substitute_post(step, c).ok()?.eval(env).ok())?;
    Some(BvFormula::and(kept))
}

/// Drops conjuncts of a closed set while the rest stays closed (a smaller, readable `R`;
/// fewer conjuncts can only make the set larger, and it still contains the observed states).
/// Tries bounds and low-bit facts first, equalities last.
pub fn minimize(step: &LoopStep, set: &BvFormula, limits: &BitPreciseLimits, deadline: Instant) -> BvFormula {
    let mut kept = set.conjuncts();
    let mut order: Vec<BvFormula> = kept.clone();
    order.sort_by_key(|c| match c {
        BvFormula::Cmp(crate::logic::bv::BvPred::Eq, a, b) if a.as_const().is_none() && matches!(**a, BvTerm::Var { .. }) || b.as_const().is_none() && matches!(**b, BvTerm::Var { .. }) && a.as_const().is_some() => 2,
        BvFormula::Cmp(crate::logic::bv::BvPred::Eq, _, _) => 1,
        _ => 0,
    });
    for c in order {
        let Some(timeout) = deadline.checked_duration_since(Instant::now()) else { break };
        let rest: Vec<BvFormula> = kept.iter().filter(|k| **k != c).cloned().collect();
        let Ok(query) = closure_violation(step, &BvFormula::and(rest.clone())) else { break };
        if check_bv(&query, Some(timeout.min(limits.recurrent_minimize_query_limit))).0 == SatResult::Unsat {
            kept = rest;
        }
    }
    BvFormula::and(kept)
}

/// The innermost loop the tail of a run is stuck in, with its header visits (same frame).
pub(crate) fn stuck_loop(module: &Module, facts: &ModuleFacts, tail: &[BlockEntry]) -> Option<(FuncId, Loop, Vec<BlockEntry>)> {
    let last = tail.last()?;
    let forest = &facts.function(module, last.func).loops;
    let idx = forest.innermost_containing(last.block)?;
    let lp = forest.loops[idx].clone();
    let visits: Vec<BlockEntry> = tail
        .iter()
        .filter(|e| e.func == last.func && e.depth == last.depth && e.block == lp.header)
        .cloned()
        .collect();
    let visits = visits[visits.len().saturating_sub(OBSERVED_VISITS)..].to_vec();
    (visits.len() >= 2).then_some((last.func, lp, visits))
}

/// Tries to find a re-checked recurrent set from one observation run.
fn from_run(module: &Module, facts: &ModuleFacts, entry: FuncId, config: &Config, src: &mut dyn InputSource, deadline: Instant) -> Option<NonTerminationWitness> {
    let sem = config.int_semantics();
    let limits = config.bitprecise();
    let cfg = RunConfig {
        detect_lasso: false,
        deadline: Some(deadline),
        ..RunConfig::new(sem, config.witnesses().run, limits.observation_steps)
    };
    let mut rec = TailRecorder::new(TAIL_ENTRIES);
    let result = run_observed(module, facts, entry, &[], &cfg, src, &mut rec);
    if result.outcome != crate::interp::Outcome::StepLimit {
        return None;
    }
    let tail: Vec<BlockEntry> = rec.entries.into_iter().collect();
    let (func, lp, visits) = stuck_loop(module, facts, &tail)?;
    let f = module.function(func);
    let budget = super::encode::RegionBudget { deadline, max_nodes: limits.max_region_nodes };
    let step = match encode_loop_step(module, f, &lp, sem, &budget) {
        Ok(s) => s,
        Err(e) => {
            tracing::debug!(reason = %e.0, "recurrent set: loop not encodable");
            return None;
        }
    };
    let observations: Vec<BvEnv> = visits.iter().map(|v| observation(&step, v)).collect::<Option<_>>()?;
    let set = houdini(&step, candidates(&step, &observations), limits, deadline)?;
    let set = minimize(&step, &set, limits, deadline);
    let first = visits.first()?;
    let rs = RecurrentSet {
        func,
        step,
        set,
        stem_inputs: result.trace_inputs[..first.inputs_consumed.min(result.trace_inputs.len())].to_vec(),
        stem_steps: first.steps,
        depth: first.depth,
    };
    recheck(module, facts, entry, config, &rs, deadline).then(|| witness(module, &rs))
}

/// The independent re-check: stem replay to a state in `R`, and closure by a fresh query.
pub fn recheck(module: &Module, facts: &ModuleFacts, entry: FuncId, config: &Config, rs: &RecurrentSet, deadline: Instant) -> bool {
    let values: Vec<i128> = rs.stem_inputs.iter().map(|(_, v)| *v).collect();
    let cfg = RunConfig {
        detect_lasso: false,
        deadline: Some(deadline),
        ..RunConfig::new(config.int_semantics(), config.witnesses().run, rs.stem_steps)
    };
    let mut rec = TailRecorder::new(1);
    let replay = run_observed(module, facts, entry, &[], &cfg, &mut SequenceInputs::new(values, None), &mut rec);
    if replay.outcome != crate::interp::Outcome::StepLimit || replay.poison_created.is_some() || replay.trace_inputs != rs.stem_inputs {
        return false;
    }
    let Some(at) = rec.entries.back() else { return false };
    if at.func != rs.func || at.block != rs.step.header || at.steps != rs.stem_steps || at.depth != rs.depth {
        return false;
    }
    let Some(env) = observation(&rs.step, at) else { return false };
    if rs.set.eval(&env) != Ok(true) {
        return false;
    }
    let Ok(query) = closure_violation(&rs.step, &rs.set) else { return false };
    let Some(timeout) = deadline.checked_duration_since(Instant::now()) else { return false };
    check_bv(&query, Some(timeout.min(config.bitprecise().recurrent_query_limit))).0 == SatResult::Unsat
}

fn witness(module: &Module, rs: &RecurrentSet) -> NonTerminationWitness {
    let f = module.function(rs.func);
    let block = f.block(rs.step.header);
    let line = block
        .instrs
        .iter()
        .filter_map(|i| i.loc.as_ref())
        .chain(block.term_loc.as_ref())
        .find(|l| l.line > 0)
        .map(|l| format!(" (line {})", l.line))
        .unwrap_or_default();
    let set: Vec<String> = rs.set.conjuncts().iter().map(|c| c.to_string()).collect();
    NonTerminationWitness {
        inputs: rs.stem_inputs.clone(),
        input_cycle: vec![],
        entry_args: vec![],
        entry_memory: vec![],
        its_lasso: None,
        any_further_inputs: true,
        recurrent_set: None,
        recursion: None,
        description: vec![
            format!("after {} steps the run enters the loop at block {} of function {}{line}", rs.stem_steps, block.name, f.name),
            format!("recurrent set R: {}", if set.is_empty() { "true".to_string() } else { set.join(" && ") }),
            "R holds there and is closed under every iteration for all inputs (bit-vector check)".to_string(),
        ],
    }
}

/// Whether the program has loops the bit-precise encoder might handle at all (a cheap filter).
fn has_loop(module: &Module, facts: &ModuleFacts) -> bool {
    (0..module.functions.len() as u32).any(|f| !facts.function(module, FuncId(f)).loops.loops.is_empty())
}

/// Searches a recurrent-set NO for `entry` (no parameters) under `c`/`wrap` semantics.
pub fn prove_nontermination(module: &Module, facts: &ModuleFacts, entry: FuncId, config: &Config, deadline: Instant) -> Option<NonTerminationWitness> {
    let sem = config.int_semantics();
    if sem == IntSemantics::Math || !module.function(entry).params.is_empty() || !has_loop(module, facts) {
        return None;
    }
    let strategies: Vec<Strategy> = vec![
        Strategy::Constant(0),
        Strategy::Constant(1),
        Strategy::Constant(-1),
        Strategy::Boundary,
        Strategy::Mixed,
        Strategy::Range { lo: -20, hi: 20 },
        Strategy::Constant(2),
    ];
    for (k, s) in strategies.into_iter().enumerate() {
        if crate::cancel::past(deadline) {
            return None;
        }
        let mut src = StrategyInputs::new(s, 0x5eed_0000 + k as u64);
        if let Some(w) = from_run(module, facts, entry, config, &mut src, deadline) {
            return Some(w);
        }
    }
    None
}
