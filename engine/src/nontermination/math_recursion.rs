//! NO under `--int-semantics math` for infinite recursions: a recurrent set of the loop of a
//! self-recursive function's tail-call view (`recursion_as_loop`), found and re-checked as
//! for loops (`math_recurrent`), anchored in a replay of the real program.
//!
//! 1. Observe: run the program (interpreter, `math`) with the loop prover's input strategies;
//!    a run that ends at the call-depth limit (or the step limit) inside a function that calls
//!    itself is a candidate.
//! 2. Encode the view's loop (`math_step`), replay the run with its inputs and read the
//!    function's entries at every depth — the first and the last `OBSERVED_LEVELS` — with the
//!    parameters and the view's memory cells: each is a visit of the view's header.
//! 3. Candidate atoms, Houdini and minimisation as for loops; the stem ends at the earliest
//!    observed entry in the set.
//! 4. Re-check from the witness alone (`recheck_recursion`): rebuild the view, replay the stem
//!    to that entry (exact inputs, no UB, no poison), evaluate the set there, re-prove closure.

use super::math_recurrent::{closed_set, observation_strategies};
use super::math_step::{encode_math_loop_step, MathLoopStep};
use super::recheck::{observation, replay_stem};
use super::recursion_as_loop::{is_recursive, tail_call_view};
use crate::config::Config;
use crate::facts::ModuleFacts;
use crate::interp::{run_observed, BlockEntry, BlockObserver, CellSpec, InputSource, Outcome, RunConfig, SequenceInputs, Strategy, StrategyInputs, TailRecorder};
use crate::ir::{BlockId, FuncId, Module};
use crate::logic::{Int, Var};
use crate::smt::{Budget, SatResult};
use crate::termination::eval::eval_formula;
use crate::verdict::{IntSemantics, NonTerminationWitness, RecurrentSetWitness};
use std::collections::VecDeque;
use std::time::Instant;

/// The nondeterministic values a run consumed, in order.
pub(super) type Inputs = Vec<(String, Int)>;

/// Entries of the recursive function used as observations (per window).
const OBSERVED_LEVELS: usize = 64;
/// Block entries kept from an observation run's tail (to find the recursive function).
const TAIL_ENTRIES: usize = 64;

/// Records the entries of one function (its block 0) at every depth: the first and the last
/// `OBSERVED_LEVELS`, with the given memory cells read there.
pub(super) struct LevelEntries {
    pub func: FuncId,
    pub cells: Vec<CellSpec>,
    pub first: Vec<BlockEntry>,
    pub last: VecDeque<BlockEntry>,
}

impl LevelEntries {
    /// The entries of `func` in a replay of the run with `inputs` (under `sem`, `steps`
    /// long), with `cells` read there: the first and the last window (one if they agree).
    #[allow(clippy::too_many_arguments)]
    pub(super) fn replayed(module: &Module, facts: &ModuleFacts, entry: FuncId, config: &Config, sem: IntSemantics, func: FuncId, cells: Vec<CellSpec>, inputs: &[(String, Int)], steps: u64, deadline: Instant) -> Vec<Vec<BlockEntry>> {
        let cfg = RunConfig { detect_lasso: false, deadline: Some(deadline), ..RunConfig::new(sem, config.witnesses().run, steps) };
        let values: Vec<i128> = inputs.iter().map(|(_, v)| *v).collect();
        let mut seen = LevelEntries { func, cells, first: Vec::new(), last: VecDeque::new() };
        run_observed(module, facts, entry, &[], &cfg, &mut SequenceInputs::new(values, None), &mut seen);
        let last: Vec<BlockEntry> = seen.last.into_iter().collect();
        if seen.first == last { vec![last] } else { vec![seen.first, last] }
    }
}

impl BlockObserver for LevelEntries {
    fn block_entry(&mut self, entry: BlockEntry) {
        if entry.func != self.func || entry.block != BlockId(0) {
            return;
        }
        if self.first.len() < OBSERVED_LEVELS {
            self.first.push(entry.clone());
        }
        if self.last.len() == OBSERVED_LEVELS {
            self.last.pop_front();
        }
        self.last.push_back(entry);
    }

    fn cells(&self, func: FuncId, block: BlockId) -> &[CellSpec] {
        if func == self.func && block == BlockId(0) {
            &self.cells
        } else {
            &[]
        }
    }
}

/// The step of the view's loop of `func`, or `None` (with a trace line) if there is none.
fn view_step(module: &Module, func: FuncId, config: &Config) -> Option<MathLoopStep> {
    let view = tail_call_view(module, func).map_err(|e| tracing::debug!(reason = %e.0, "recursion: no tail-call view")).ok()?;
    encode_math_loop_step(module, &view.function, &view.lp, config.bitprecise().max_array_cells).map_err(|e| tracing::debug!(reason = %e.0, "recursion: view not encodable")).ok()
}

/// Searches a NO from an infinite recursion for `entry` (no parameters) under
/// `--int-semantics math`; every returned witness passed `recheck_recursion`.
pub fn prove_nontermination(module: &Module, facts: &ModuleFacts, entry: FuncId, config: &Config, deadline: Instant) -> Option<NonTerminationWitness> {
    if config.int_semantics() != IntSemantics::Math || !module.function(entry).params.is_empty() {
        return None;
    }
    let recursive = self_recursive(module);
    if recursive.is_empty() {
        return None;
    }
    let mut tried: Vec<(FuncId, Option<Int>, Inputs)> = Vec::new();
    for (k, s) in observation_strategies(module).into_iter().enumerate() {
        if crate::cancel::past(deadline) {
            return None;
        }
        let constant_input = if let Strategy::Constant(c) = s { Some(c) } else { None };
        let mut src = StrategyInputs::new(s, 0x5ec_0000 + k as u64);
        let (found, inputs) = observe_run(module, facts, entry, config, IntSemantics::Math, &recursive, &mut src, deadline);
        // The same function with the same inputs gives the same observations.
        if let Some((func, steps)) = found.filter(|(f, _)| !tried.iter().any(|(g, c, i)| g == f && *c == constant_input && *i == inputs)) {
            tried.push((func, constant_input, inputs.clone()));
            if let Some(w) = from_run(module, facts, entry, config, func, &inputs, steps, constant_input, deadline) {
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

/// The functions of `module` whose recursion the tail-call view covers (`is_recursive`).
pub(super) fn self_recursive(module: &Module) -> Vec<FuncId> {
    (0..module.functions.len() as u32).map(FuncId).filter(|f| !module.function(*f).is_declaration() && is_recursive(module, *f)).collect()
}

/// One observation run under `sem`: the recursive function it is deep inside when it stops
/// at the depth or step limit and the run's length, if so; the inputs it consumed.
#[allow(clippy::too_many_arguments)]
pub(super) fn observe_run(module: &Module, facts: &ModuleFacts, entry: FuncId, config: &Config, sem: IntSemantics, recursive: &[FuncId], src: &mut dyn InputSource, deadline: Instant) -> (Option<(FuncId, u64)>, Inputs) {
    let cfg = RunConfig { detect_lasso: false, deadline: Some(deadline), ..RunConfig::new(sem, config.witnesses().run, config.bitprecise().observation_steps) };
    let mut rec = TailRecorder::new(TAIL_ENTRIES);
    let result = run_observed(module, facts, entry, &[], &cfg, src, &mut rec);
    let deep = || {
        if result.poison_created.is_some() || !matches!(result.outcome, Outcome::DepthLimit | Outcome::StepLimit) {
            return None;
        }
        let func = rec.entries.iter().rev().map(|e| e.func).find(|f| recursive.contains(f))?;
        // Deep inside it: its entries must span many frames.
        let depths: Vec<usize> = rec.entries.iter().filter(|e| e.func == func && e.block == BlockId(0)).map(|e| e.depth).collect();
        (depths.len() >= 2 && depths.windows(2).all(|w| w[1] > w[0])).then_some((func, result.steps))
    };
    (deep(), result.trace_inputs.clone())
}

/// The witness of a closed set of `func`'s view observed on the run with `inputs`, re-checked.
#[allow(clippy::too_many_arguments)]
fn from_run(module: &Module, facts: &ModuleFacts, entry: FuncId, config: &Config, func: FuncId, inputs: &[(String, Int)], steps: u64, constant_input: Option<Int>, deadline: Instant) -> Option<NonTerminationWitness> {
    let limits = config.bitprecise();
    let step = view_step(module, func, config)?;
    let windows = LevelEntries::replayed(module, facts, entry, config, IntSemantics::Math, func, step.cell_specs(), inputs, steps, deadline);
    let (fixed, set) = closed_set(&step, &windows, constant_input, limits, deadline)?;
    let at = windows.iter().flatten().find(|v| observation(&step, v).is_some_and(|env| eval_formula(&set, &env) == Some(true)))?;
    let f = module.function(func);
    let w = RecurrentSetWitness {
        function: f.name.clone(),
        header: f.blocks.first()?.name.clone(),
        depth: at.depth,
        stem_inputs: inputs.get(..at.inputs_consumed)?.to_vec(),
        stem_steps: at.steps,
        fixed_input: fixed,
        set,
        inner_sets: vec![],
        recursion: true,
    };
    if !recheck_recursion(module, facts, entry, config, &w, deadline) {
        tracing::debug!("recursion: the re-check rejected the witness");
        return None;
    }
    let origin = step.input_origins.first().cloned().unwrap_or_default();
    Some(witness(module, func, &origin, w))
}

/// Re-checks a recursion witness `w` for the runs of `entry` under `--int-semantics math`:
/// the view rebuilt from the IR, the stem replayed to the function's entry at `w.depth`, the
/// set true there, and closed under every iteration of the view (a fresh `Unsat`).
pub fn recheck_recursion(module: &Module, facts: &ModuleFacts, entry: FuncId, config: &Config, w: &RecurrentSetWitness, deadline: Instant) -> bool {
    if config.int_semantics() != IntSemantics::Math || !w.recursion || !w.inner_sets.is_empty() {
        return false;
    }
    let Some(func) = module.functions.iter().position(|f| f.name == w.function).map(|i| FuncId(i as u32)) else { return false };
    if module.function(func).blocks.first().is_none_or(|b| b.name != w.header) {
        return false;
    }
    let Some(step) = view_step(module, func, config) else { return false };
    if w.fixed_input.is_some_and(|c| !step.fixed_input_fits(c)) {
        return false;
    }
    let known: Vec<Var> = step.variable_names().iter().map(Var::new).collect();
    if !w.set.vars().iter().all(|v| known.contains(v)) {
        return false;
    }
    // The view's header state lives in the parameters' registers of the real frame.
    let Some(at) = replay_stem(module, facts, entry, config, w, func, BlockId(0), step.cell_specs(), deadline) else { return false };
    let Some(env) = observation(&step, &at) else { return false };
    if eval_formula(&w.set, &env) != Some(true) {
        return false;
    }
    let budget = Budget::until(deadline, config.bitprecise().recurrent_query_limit);
    crate::smt::check_sat(&step.closure_violation(&w.set, w.fixed_input), &budget) == SatResult::Unsat
}

/// The NO's witness with a description of the recursion.
fn witness(module: &Module, func: FuncId, input_origin: &str, w: RecurrentSetWitness) -> NonTerminationWitness {
    let f = module.function(func);
    let line = f.loc.as_ref().filter(|l| l.line > 0).map(|l| format!(" (line {})", l.line)).unwrap_or_default();
    let parts: Vec<String> = w.set.conjuncts().iter().map(|c| c.to_string()).collect();
    let set = if parts.is_empty() { "true".to_string() } else { parts.join(" && ") };
    let (input_cycle, for_inputs) = match w.fixed_input {
        Some(c) => (vec![(input_origin.to_string(), c)], format!("when every further input is {c}")),
        None => (vec![], "for all inputs".to_string()),
    };
    let description = vec![
        format!("after {} steps the run calls {}{line} (call depth {})", w.stem_steps, w.function, w.depth),
        format!("recurrent set R over mathematical integers of its parameters: {set}"),
        format!("R holds there; from every state of R each call of {}, {for_inputs}, reaches a recursive call whose arguments are in R (integer check), so the recursion never returns", w.function),
    ];
    NonTerminationWitness {
        inputs: w.stem_inputs.clone(),
        any_further_inputs: w.fixed_input.is_none(),
        input_cycle,
        description,
        recursion: Some(w.function.clone()),
        recurrent_set: Some(w),
        ..Default::default()
    }
}
