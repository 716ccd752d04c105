//! NO for infinite recursions that repeat concretely: the interpreter enters one function
//! twice with equal registers and equal complete memory, the second time deeper while the
//! first entry's frame is still live (`interp::recursion_repeat`, `Outcome::RecursionLasso`):
//! a walk around a cyclic list (`length(xs)` calling `length(xs->next)`), an argument that
//! stops changing. Any integer semantics: the run is replayed under the configured one, free
//! of undefined behaviour and poison, and must show the same repeat again.

use super::math_recurrent::observation_strategies;
use crate::config::Config;
use crate::facts::ModuleFacts;
use crate::interp::{run, CyclicInputs, InputSource, Outcome, RecursionLasso, RunConfig, StrategyInputs};
use crate::ir::{FuncId, Module};
use crate::verdict::NonTerminationWitness;
use std::time::Instant;

/// One run under the configured semantics looking for a repeated recursive entry: the
/// repeat (if the run is free of poison) and the inputs the run consumed.
fn observe(module: &Module, facts: &ModuleFacts, entry: FuncId, config: &Config, src: &mut dyn InputSource, deadline: Instant) -> (Option<RecursionLasso>, Vec<(String, i128)>) {
    let cfg = RunConfig { detect_lasso: false, detect_recursion: true, deadline: Some(deadline), ..RunConfig::new(config.int_semantics(), config.witnesses().run, config.bitprecise().observation_steps) };
    let result = run(module, facts, entry, &[], &cfg, src);
    match result.outcome {
        Outcome::RecursionLasso(l) if result.poison_created.is_none() => (Some(l), result.trace_inputs),
        _ => (None, result.trace_inputs),
    }
}

/// Searches a concrete infinite recursion from `entry` (no parameters); every returned
/// witness was replayed from its inputs alone to the same repeat.
pub fn prove_nontermination(module: &Module, facts: &ModuleFacts, entry: FuncId, config: &Config, deadline: Instant) -> Option<NonTerminationWitness> {
    if !module.function(entry).params.is_empty() || super::math_recursion::self_recursive(module).is_empty() {
        return None;
    }
    for (k, s) in observation_strategies(module).into_iter().enumerate() {
        if crate::cancel::past(deadline) {
            return None;
        }
        let mut src = StrategyInputs::new(s, 0x5ea_0000 + k as u64);
        let (seen, trace) = observe(module, facts, entry, config, &mut src, deadline);
        let Some(found) = seen else {
            // A run that read no input is the program's only run: other strategies repeat it.
            if trace.is_empty() {
                return None;
            }
            continue;
        };
        // The re-check: the stem's inputs, then the cycle's over and over, give the same repeat.
        let stem: Vec<i128> = trace.iter().take(found.inputs_in_stem).map(|(_, v)| *v).collect();
        let cycle: Vec<i128> = found.inputs_in_cycle.iter().map(|(_, v)| *v).collect();
        let mut replay = CyclicInputs::new(stem, cycle);
        if observe(module, facts, entry, config, &mut replay, deadline).0.as_ref() != Some(&found) {
            tracing::debug!("recursion: the replay did not repeat the same entries");
            continue;
        }
        return Some(witness(module, &found, &trace));
    }
    None
}

fn witness(module: &Module, l: &RecursionLasso, trace: &[(String, i128)]) -> NonTerminationWitness {
    let line = module
        .function_by_name(&l.function)
        .and_then(|f| module.function(f).loc.as_ref())
        .filter(|loc| loc.line > 0)
        .map(|loc| format!(" (line {})", loc.line))
        .unwrap_or_default();
    let inputs = trace[..(l.inputs_in_stem + l.inputs_in_cycle.len()).min(trace.len())].to_vec();
    NonTerminationWitness {
        inputs,
        input_cycle: l.inputs_in_cycle.clone(),
        recursion: Some(l.function.clone()),
        description: vec![
            format!("after {} steps the run calls {}{line} at call depth {}", l.stem_steps, l.function, l.first_depth),
            format!("{} steps later it calls {} again at depth {} with the same arguments and the same memory, the first call still running", l.cycle_steps, l.function, l.depth),
            "so the recursion repeats forever and never returns (on an unbounded stack)".to_string(),
        ],
        ..Default::default()
    }
}
