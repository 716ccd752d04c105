//! The independent re-check of a recurrent-set NO over mathematical integers: from the
//! witness alone (function and header names, stem inputs and length, the set), re-encode the
//! loop from the IR, replay the stem with the interpreter (`math`, no UB, no poison, exactly
//! the recorded inputs) to the header entry, evaluate the set on the reached state, and prove
//! closure with a fresh z3 query that must be `Unsat`. The loop's memory cells are read from
//! the interpreter's memory at that entry: inside live allocations (writable where the loop
//! stores), initialised, and pairwise disjoint.

use super::header_visits::HeaderVisits;
use super::math_step::{encode_math_loop_step, MathLoopStep, MemCell};
use crate::bitprecise::step::LoopVar;
use crate::config::Config;
use crate::facts::ModuleFacts;
use crate::interp::{run_observed, BlockEntry, Outcome, RunConfig, SequenceInputs};
use crate::ir::{FuncId, Module};
use crate::logic::Var;
use crate::smt::{Budget, SatResult};
use crate::termination::eval::{eval_formula, Valuation};
use crate::verdict::{IntSemantics, RecurrentSetWitness};
use std::time::Instant;

/// The values of the loop variables and cells at one header visit, if all are defined and
/// not poison, and the cells (read by the observer, see `CellContents`) lie in live
/// allocations and do not overlap each other.
pub fn observation(step: &MathLoopStep, entry: &BlockEntry) -> Option<Valuation> {
    observe(step.variables(), &step.cells, entry)
}

/// The values of `vars` and `cells` at one block entry (see `observation`).
pub fn observe<'a>(vars: impl Iterator<Item = &'a LoopVar>, cells: &[MemCell], entry: &BlockEntry) -> Option<Valuation> {
    let mut env = Valuation::new();
    for x in vars {
        let v = entry.regs.get(x.value.0 as usize).copied().flatten()?;
        if v.poison {
            return None;
        }
        env.insert(Var::new(&x.name), v.int);
    }
    if entry.cells.len() != cells.len() {
        return None;
    }
    let mut ranges = Vec::with_capacity(cells.len());
    for (c, v) in cells.iter().zip(&entry.cells) {
        let v = (*v)?;
        if v.value.poison {
            return None;
        }
        env.insert(Var::new(&c.name), v.value.int);
        ranges.push((v.addr, v.addr.checked_add(c.spec.size)?));
    }
    ranges.sort_unstable();
    if ranges.windows(2).any(|w| w[0].1 > w[1].0) {
        return None;
    }
    Some(env)
}

/// Re-checks `w` for the runs of `entry` (no parameters) under `--int-semantics math`.
pub fn recheck(module: &Module, facts: &ModuleFacts, entry: FuncId, config: &Config, w: &RecurrentSetWitness, deadline: Instant) -> bool {
    if config.int_semantics() != IntSemantics::Math {
        return false;
    }
    if w.recursion {
        return super::math_recursion::recheck_recursion(module, facts, entry, config, w, deadline);
    }
    if !w.inner_sets.is_empty() {
        return super::math_nested::recheck_nested(module, facts, entry, config, w, deadline);
    }
    let Some(func) = module.functions.iter().position(|f| f.name == w.function).map(|i| FuncId(i as u32)) else { return false };
    let f = module.function(func);
    let Some(header) = f.blocks.iter().position(|b| b.name == w.header) else { return false };
    let Some(lp) = facts.function(module, func).loops.loops.iter().find(|l| l.header.0 as usize == header).cloned() else { return false };
    let Ok(step) = encode_math_loop_step(module, f, &lp, config.bitprecise().max_array_cells) else { return false };
    if w.fixed_input.is_some_and(|c| !step.fixed_input_fits(c)) {
        return false;
    }
    let known: Vec<Var> = step.variable_names().iter().map(Var::new).collect();
    if !w.set.vars().iter().all(|v| known.contains(v)) {
        return false;
    }
    let Some(at) = replay_stem(module, facts, entry, config, w, func, step.header, step.cell_specs(), deadline) else { return false };
    let Some(env) = observation(&step, &at) else { return false };
    if eval_formula(&w.set, &env) != Some(true) {
        return false;
    }
    let budget = Budget::until(deadline, config.bitprecise().recurrent_query_limit);
    crate::smt::check_sat(&step.closure_violation(&w.set, w.fixed_input), &budget) == SatResult::Unsat
}

/// The header entry at the end of the witness's stem: the stem replayed with exactly its
/// inputs (`math`, no poison, stopping at `stem_steps`), whose last visit of `header` at the
/// witness's depth is that step, with `cells` read there. `None` if the replay differs.
#[allow(clippy::too_many_arguments)]
pub fn replay_stem(module: &Module, facts: &ModuleFacts, entry: FuncId, config: &Config, w: &RecurrentSetWitness, func: FuncId, header: crate::ir::BlockId, cells: Vec<crate::interp::CellSpec>, deadline: Instant) -> Option<BlockEntry> {
    let values: Vec<i128> = w.stem_inputs.iter().map(|(_, v)| *v).collect();
    let cfg = RunConfig { detect_lasso: false, deadline: Some(deadline), ..RunConfig::new(IntSemantics::Math, config.witnesses().run, w.stem_steps) };
    let mut rec = HeaderVisits::new(func, header, w.depth, cells, 0, 1);
    let replay = run_observed(module, facts, entry, &[], &cfg, &mut SequenceInputs::new(values, None), &mut rec);
    if replay.outcome != Outcome::StepLimit || replay.poison_created.is_some() || replay.trace_inputs != w.stem_inputs {
        return None;
    }
    // The replay stops right after the entry at `stem_steps`: the last header visit must be it.
    rec.last.pop_back().filter(|at| at.steps == w.stem_steps)
}
