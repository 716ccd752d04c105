//! NO under `--int-semantics c`/`wrap` for infinite recursions: a bit-precise recurrent set
//! (`bitprecise::recurrent`'s candidates, Houdini and minimisation) of the loop of a
//! self-recursive function's tail-call view (`recursion_as_loop`), whose iterations are free
//! of undefined behaviour and poison (signed overflow included under `c`), anchored in a
//! replay of the real program to a call of the function with its parameters in the set.
//!
//! The bit-vector step encodes registers only (no memory, no calls), so what the view keeps
//! is all a level computes until its recursive call; the argument is the one of
//! `math_recursion` with the bit-vector semantics (ARCHITECTURE.md "Infinite recursion as a
//! loop"). The re-check (`recheck`) runs in process from the found set, as for loops.

use super::math_recursion::{observe_run, self_recursive, Inputs, LevelEntries};
use super::math_recurrent::observation_strategies;
use super::recursion_as_loop::tail_call_view;
use crate::bitprecise::encode::RegionBudget;
use crate::bitprecise::recurrent::{candidates, closure_violation, houdini, minimize, observation};
use crate::bitprecise::step::{encode_loop_step, LoopStep};
use crate::config::Config;
use crate::facts::ModuleFacts;
use crate::interp::{run_observed, BlockEntry, Outcome, RunConfig, SequenceInputs, StrategyInputs};
use crate::ir::{BlockId, FuncId, Module};
use crate::logic::bv::{BvEnv, BvFormula};
use crate::logic::Int;
use crate::smt::{check_bv, SatResult};
use crate::verdict::{IntSemantics, NonTerminationWitness};
use std::time::Instant;

/// A closed set of a recursion's view, before the re-check.
struct RecursionSet {
    func: FuncId,
    set: BvFormula,
    stem_inputs: Vec<(String, Int)>,
    stem_steps: u64,
    depth: usize,
}

/// The bit-vector step of the view's loop of `func`, or `None`.
fn view_step(module: &Module, func: FuncId, config: &Config, deadline: Instant) -> Option<LoopStep> {
    let view = tail_call_view(module, func).map_err(|e| tracing::debug!(reason = %e.0, "recursion: no tail-call view")).ok()?;
    let budget = RegionBudget { deadline, max_nodes: config.bitprecise().max_region_nodes };
    encode_loop_step(module, &view.function, &view.lp, config.int_semantics(), &budget).map_err(|e| tracing::debug!(reason = %e.0, "recursion: view not bit-encodable")).ok()
}

/// Searches a NO from an infinite recursion for `entry` (no parameters) under `c`/`wrap`;
/// every returned witness passed `recheck`.
pub fn prove_nontermination(module: &Module, facts: &ModuleFacts, entry: FuncId, config: &Config, deadline: Instant) -> Option<NonTerminationWitness> {
    let sem = config.int_semantics();
    if sem == IntSemantics::Math || !module.function(entry).params.is_empty() {
        return None;
    }
    let recursive = self_recursive(module);
    if recursive.is_empty() {
        return None;
    }
    let mut tried: Vec<(FuncId, Inputs)> = Vec::new();
    for (k, s) in observation_strategies(module).into_iter().enumerate() {
        if crate::cancel::past(deadline) {
            return None;
        }
        let mut src = StrategyInputs::new(s, 0x5eb_0000 + k as u64);
        let (found, inputs) = observe_run(module, facts, entry, config, sem, &recursive, &mut src, deadline);
        if let Some((func, steps)) = found.filter(|(f, _)| !tried.iter().any(|(g, i)| g == f && *i == inputs)) {
            tried.push((func, inputs.clone()));
            if let Some(w) = from_run(module, facts, entry, config, func, &inputs, steps, deadline) {
                return Some(w);
            }
        }
        // A run that read no input is the program's only run: other strategies repeat it.
        if inputs.is_empty() {
            return None;
        }
    }
    None
}

/// The witness of a closed set of `func`'s view observed on the run with `inputs`, re-checked.
#[allow(clippy::too_many_arguments)]
fn from_run(module: &Module, facts: &ModuleFacts, entry: FuncId, config: &Config, func: FuncId, inputs: &[(String, Int)], steps: u64, deadline: Instant) -> Option<NonTerminationWitness> {
    let sem = config.int_semantics();
    let step = view_step(module, func, config, deadline)?;
    let windows = LevelEntries::replayed(module, facts, entry, config, sem, func, vec![], inputs, steps, deadline);
    let limits = config.bitprecise();
    let found = windows.iter().find_map(|window| {
        let observations: Vec<BvEnv> = window.iter().map(|v| observation(&step, v)).collect::<Option<_>>()?;
        houdini(&step, candidates(&step, &observations), limits, deadline)
    });
    let set = found?;
    let set = minimize(&step, &set, limits, deadline);
    let at = windows.iter().flatten().find(|v| observation(&step, v).is_some_and(|env| set.eval(&env) == Ok(true)))?;
    let stem_inputs = inputs.get(..at.inputs_consumed)?;
    let rs = RecursionSet { func, set, stem_inputs: stem_inputs.to_vec(), stem_steps: at.steps, depth: at.depth };
    if recheck(module, facts, entry, config, &rs, deadline) {
        return Some(witness(module, &rs));
    }
    tracing::debug!("recursion: the bit-precise re-check rejected the set");
    None
}

/// The independent re-check: the stem replayed (exact inputs, no UB, no poison) to the
/// function's entry at the recorded depth and step, the set true there, and closure by a
/// fresh query on a view rebuilt from the IR.
fn recheck(module: &Module, facts: &ModuleFacts, entry: FuncId, config: &Config, rs: &RecursionSet, deadline: Instant) -> bool {
    let Some(step) = view_step(module, rs.func, config, deadline) else { return false };
    let values: Vec<i128> = rs.stem_inputs.iter().map(|(_, v)| *v).collect();
    let cfg = RunConfig { detect_lasso: false, deadline: Some(deadline), ..RunConfig::new(config.int_semantics(), config.witnesses().run, rs.stem_steps) };
    let mut rec = crate::interp::TailRecorder::new(1);
    let replay = run_observed(module, facts, entry, &[], &cfg, &mut SequenceInputs::new(values, None), &mut rec);
    if replay.outcome != Outcome::StepLimit || replay.poison_created.is_some() || replay.trace_inputs != rs.stem_inputs {
        return false;
    }
    let Some(at): Option<&BlockEntry> = rec.entries.back() else { return false };
    if at.func != rs.func || at.block != BlockId(0) || at.steps != rs.stem_steps || at.depth != rs.depth {
        return false;
    }
    if observation(&step, at).is_none_or(|env| rs.set.eval(&env) != Ok(true)) {
        return false;
    }
    let Ok(query) = closure_violation(&step, &rs.set) else { return false };
    let Some(timeout) = deadline.checked_duration_since(Instant::now()) else { return false };
    check_bv(&query, Some(timeout.min(config.bitprecise().recurrent_query_limit))).0 == SatResult::Unsat
}

fn witness(module: &Module, rs: &RecursionSet) -> NonTerminationWitness {
    let f = module.function(rs.func);
    let line = f.loc.as_ref().filter(|l| l.line > 0).map(|l| format!(" (line {})", l.line)).unwrap_or_default();
    let set: Vec<String> = rs.set.conjuncts().iter().map(|c| c.to_string()).collect();
    NonTerminationWitness {
        inputs: rs.stem_inputs.clone(),
        any_further_inputs: true,
        recursion: Some(f.name.clone()),
        description: vec![
            format!("after {} steps the run calls {}{line} (call depth {})", rs.stem_steps, f.name, rs.depth),
            format!("recurrent set R of its parameters: {}", if set.is_empty() { "true".to_string() } else { set.join(" && ") }),
            format!("R holds there; from every state of R each call of {}, for all inputs, reaches a recursive call whose arguments are in R without undefined behaviour (bit-vector check), so the recursion never returns", f.name),
        ],
        ..Default::default()
    }
}
