//! The independent re-check of a recurrent-set NO over mathematical integers: from the
//! witness alone (function and header names, stem inputs and length, the set), re-encode the
//! loop from the IR, replay the stem with the interpreter (`math`, no UB, no poison, exactly
//! the recorded inputs) to the header entry, evaluate the set on the reached state, and prove
//! closure with a fresh z3 query that must be `Unsat`.

use super::math_step::{encode_math_loop_step, MathLoopStep};
use crate::config::Config;
use crate::facts::ModuleFacts;
use crate::interp::{run_observed, BlockEntry, Outcome, RunConfig, SequenceInputs, TailRecorder};
use crate::ir::{FuncId, Module};
use crate::logic::Var;
use crate::smt::{Budget, SatResult};
use crate::termination::eval::{eval_formula, Valuation};
use crate::verdict::{IntSemantics, RecurrentSetWitness};
use std::time::Instant;

/// The values of the loop variables at one header visit, if all are defined and not poison.
pub fn observation(step: &MathLoopStep, entry: &BlockEntry) -> Option<Valuation> {
    let mut env = Valuation::new();
    for x in step.variables() {
        let v = entry.regs.get(x.value.0 as usize).copied().flatten()?;
        if v.poison {
            return None;
        }
        env.insert(Var::new(&x.name), v.int);
    }
    Some(env)
}

/// Re-checks `w` for the runs of `entry` (no parameters) under `--int-semantics math`.
pub fn recheck(module: &Module, facts: &ModuleFacts, entry: FuncId, config: &Config, w: &RecurrentSetWitness, deadline: Instant) -> bool {
    if config.int_semantics() != IntSemantics::Math {
        return false;
    }
    let Some(func) = module.functions.iter().position(|f| f.name == w.function).map(|i| FuncId(i as u32)) else { return false };
    let f = module.function(func);
    let Some(header) = f.blocks.iter().position(|b| b.name == w.header) else { return false };
    let Some(lp) = facts.function(module, func).loops.loops.iter().find(|l| l.header.0 as usize == header).cloned() else { return false };
    let Ok(step) = encode_math_loop_step(module, f, &lp) else { return false };
    if w.fixed_input.is_some_and(|c| !step.fixed_input_fits(c)) {
        return false;
    }
    let known: Vec<Var> = step.variables().map(|x| Var::new(&x.name)).collect();
    if !w.set.vars().iter().all(|v| known.contains(v)) {
        return false;
    }
    // The stem: exactly the recorded inputs, stopping at the header entry.
    let values: Vec<i128> = w.stem_inputs.iter().map(|(_, v)| *v).collect();
    let cfg = RunConfig { detect_lasso: false, deadline: Some(deadline), ..RunConfig::new(IntSemantics::Math, config.witnesses().run, w.stem_steps) };
    let mut rec = TailRecorder::new(1);
    let replay = run_observed(module, facts, entry, &[], &cfg, &mut SequenceInputs::new(values, None), &mut rec);
    if replay.outcome != Outcome::StepLimit || replay.poison_created.is_some() || replay.trace_inputs != w.stem_inputs {
        return false;
    }
    let Some(at) = rec.entries.back() else { return false };
    if at.func != func || at.block != step.header || at.steps != w.stem_steps || at.depth != w.depth {
        return false;
    }
    let Some(env) = observation(&step, at) else { return false };
    if eval_formula(&w.set, &env) != Some(true) {
        return false;
    }
    let budget = Budget::until(deadline, config.bitprecise().recurrent_query_limit);
    crate::smt::check_sat(&step.closure_violation(&w.set, w.fixed_input), &budget) == SatResult::Unsat
}
