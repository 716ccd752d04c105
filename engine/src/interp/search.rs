//! A testing search for witnesses that is sound by construction: it runs the entry function
//! under a portfolio of input strategies, and reports a lasso or violation only after
//! replaying the recorded inputs through a fresh run that ends the same way.

use super::inputs::{SequenceInputs, Strategy, StrategyInputs};
use super::machine::{run, run_with_memory};
use super::outcome::{Lasso, Outcome, RunConfig, RunResult};
use crate::config::{RunLimits, WitnessLimits};
use crate::facts::ModuleFacts;
use crate::ir::{FuncId, Module, Op, Operand, SrcLoc, Terminator};
use crate::verdict::{EntryBlock, IntSemantics, NonTerminationWitness, Violation};
use serde::{Deserialize, Serialize};
use std::time::Instant;

/// Limits of one search.
#[derive(Clone, Debug)]
pub struct SearchBudget {
    pub deadline: Instant,
    pub max_runs: usize,
    pub max_steps_per_run: u64,
    pub run: RunLimits,
}

impl SearchBudget {
    /// The configured search (`Config::witnesses`) until `deadline`.
    pub fn until(deadline: Instant, limits: &WitnessLimits) -> SearchBudget {
        SearchBudget { deadline, max_runs: limits.search_runs, max_steps_per_run: limits.search_steps_per_run, run: limits.run }
    }
}

/// What a replayed run shows.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub enum WitnessKind {
    /// A concrete lasso: the program does not terminate on these inputs.
    Lasso(Lasso),
    /// A memory-safety violation or undefined behaviour.
    Violation { kind: String, message: String, function: String, loc: Option<SrcLoc> },
}

/// A replayed witness with the inputs that produce it.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct Witness {
    pub kind: WitnessKind,
    /// All inputs consumed (for a lasso: the stem's, then one pass of the cycle's).
    pub inputs: Vec<(String, i128)>,
    /// Arguments given to the entry function's integer parameters, in parameter order.
    pub entry_args: Vec<i128>,
    /// The names of those parameters (as `ir::Function::value_name` gives them).
    #[serde(default)]
    pub entry_arg_names: Vec<String>,
    /// The blocks the pointer parameters point to at the start of the run.
    #[serde(default)]
    pub entry_memory: Vec<EntryBlock>,
    /// The strategy that found it (for statistics).
    pub strategy: String,
    pub steps: u64,
    /// Copied from the run: where poison was first created (see `RunResult::poison_created`).
    pub poison_created: Option<String>,
}

impl Witness {
    /// The evidence for a `NO` verdict, if this is a lasso.
    pub fn to_nontermination(&self) -> Option<NonTerminationWitness> {
        let WitnessKind::Lasso(l) = &self.kind else { return None };
        let cycle: Vec<String> = l.inputs_in_cycle.iter().map(|(n, v)| format!("{n}={v}")).collect();
        Some(NonTerminationWitness {
            inputs: self.inputs.clone(),
            input_cycle: l.inputs_in_cycle.clone(),
            entry_args: self.named_entry_args(),
            entry_memory: self.entry_memory.clone(),
            any_further_inputs: false,
            recurrent_set: None,
            recursion: None,
            its_lasso: None,
            description: vec![
                format!("concrete run of {} steps reaches the same complete state (registers and memory) again after {} more steps", l.stem_steps, l.cycle_steps),
                format!("repeated state at the entry of block {} of function {}", l.block, l.function),
                if cycle.is_empty() {
                    "the cycle consumes no input".to_string()
                } else {
                    format!("the cycle consumes the inputs [{}] (repeat them forever)", cycle.join(", "))
                },
            ],
        })
    }

    /// The evidence for `memory-safety: violated`, if this is a violation.
    pub fn to_violation(&self) -> Option<Violation> {
        let WitnessKind::Violation { kind, message, function, loc } = &self.kind else { return None };
        Some(Violation {
            kind: kind.clone(),
            message: match &self.poison_created {
                // Poison is harmless until used: name the operation that created it too.
                Some(p) => format!("{message} (in {function}); the poison comes from {p}"),
                None => format!("{message} (in {function})"),
            },
            location: loc.as_ref().map(|l| format!("{}:{}:{}", l.file, l.line, l.col)),
            inputs: self.inputs.clone(),
            entry_args: self.named_entry_args(),
            entry_memory: self.entry_memory.clone(),
        })
    }

    /// The entry's arguments with their parameter names (`argN` where a name is missing).
    fn named_entry_args(&self) -> Vec<(String, i128)> {
        let name = |i: usize| self.entry_arg_names.get(i).cloned().unwrap_or_else(|| format!("arg{i}"));
        self.entry_args.iter().enumerate().map(|(i, v)| (name(i), *v)).collect()
    }
}

/// Integer constants the program compares with or computes with, and their neighbours: the
/// values most likely to steer a run into a rare branch (e.g. `n == 8` in `if (n > 8)`).
fn program_constants(module: &Module) -> Vec<i128> {
    let mut pool: Vec<i128> = Vec::new();
    let mut add = |c: i128| {
        for v in [c, c - 1, c + 1] {
            if pool.len() < 48 && !pool.contains(&v) {
                pool.push(v);
            }
        }
    };
    for f in &module.functions {
        for b in &f.blocks {
            for i in &b.instrs {
                let operands: Vec<&Operand> = match &i.op {
                    Op::ICmp { lhs, rhs, .. } | Op::Bin { lhs, rhs, .. } => vec![lhs, rhs],
                    _ => vec![],
                };
                for o in operands {
                    if let Operand::Int { bits, value } = o {
                        if *bits > 1 {
                            add(*value);
                        }
                    }
                }
            }
            if let Terminator::Switch { cases, .. } = &b.terminator {
                cases.iter().for_each(|(c, _)| add(*c));
            }
        }
    }
    pool
}

/// The runs to try: first deterministic constant inputs (small values, then the program's
/// constants), then seeded random strategies in rotation.
struct Schedule {
    constants: Vec<i128>,
    randomized: Vec<(String, Strategy)>,
}

impl Schedule {
    fn new(module: &Module) -> Schedule {
        let pool = program_constants(module);
        let mut constants = vec![0, 1, -1, 2, -2];
        for c in &pool {
            if !constants.contains(c) {
                constants.push(*c);
            }
        }
        let randomized = vec![
            ("pool".to_string(), Strategy::Pool(pool)),
            ("small -2..2".to_string(), Strategy::Range { lo: -2, hi: 2 }),
            ("boundary".to_string(), Strategy::Boundary),
            ("range -20..20".to_string(), Strategy::Range { lo: -20, hi: 20 }),
            ("mixed".to_string(), Strategy::Mixed),
        ];
        Schedule { constants, randomized }
    }

    /// The `n`-th run's label and input source.
    fn run(&self, n: usize) -> (String, StrategyInputs) {
        if let Some(c) = self.constants.get(n) {
            return (format!("constant {c}"), StrategyInputs::new(Strategy::Constant(*c), 0));
        }
        let k = n - self.constants.len();
        let (label, strategy) = &self.randomized[k % self.randomized.len()];
        let seed = (k as u64 + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        (format!("{label} (seed {seed:#x})"), StrategyInputs::new(strategy.clone(), seed))
    }
}

/// Runs `entry` under a portfolio of input strategies (constant inputs 0, ±1, ±2 and each of
/// the program's constants ±1, then seeded random strategies); returns the first lasso or
/// violation that a replay with exactly the recorded inputs confirms. Lassos whose run created
/// poison (see `RunResult::poison_created`) are not reported. `None`: nothing found (which
/// proves nothing).
pub fn search_witness(module: &Module, facts: &ModuleFacts, entry: FuncId, semantics: IntSemantics, budget: &SearchBudget) -> Option<Witness> {
    let found = search(module, facts, entry, semantics, budget, true);
    found.lasso.or(found.violation)
}

/// Witnesses of both kinds (each the first confirmed one), from one search.
#[derive(Clone, PartialEq, Eq, Debug, Default)]
pub struct Witnesses {
    pub lasso: Option<Witness>,
    pub violation: Option<Witness>,
}

/// Like `search_witness`, but keeps searching after the first witness until it has one of
/// each kind or the budget is used up: a program may have both a non-terminating run and a
/// faulting run, and a caller may want to report both.
pub fn search_witnesses(module: &Module, facts: &ModuleFacts, entry: FuncId, semantics: IntSemantics, budget: &SearchBudget) -> Witnesses {
    search(module, facts, entry, semantics, budget, false)
}

/// The search behind `search_witness` (`stop_at_first`) and `search_witnesses` (not).
pub fn search(module: &Module, facts: &ModuleFacts, entry: FuncId, semantics: IntSemantics, budget: &SearchBudget, stop_at_first: bool) -> Witnesses {
    let cfg = RunConfig { deadline: Some(budget.deadline), ..RunConfig::new(semantics, budget.run, budget.max_steps_per_run) };
    let schedule = Schedule::new(module);
    let mut found = Witnesses::default();
    let mut runs = 0;
    while runs < budget.max_runs && Instant::now() < budget.deadline {
        let (label, mut src) = schedule.run(runs);
        runs += 1;
        let Some((args, blocks)) = super::entry_memory::entry_arguments(module.function(entry), runs - 1, &mut src) else { break };
        let result = run_with_memory(module, facts, entry, &args, &blocks, &cfg, &mut src);
        let wanted = match result.outcome {
            Outcome::Lasso(_) => found.lasso.is_none(),
            Outcome::Violation { .. } => found.violation.is_none(),
            _ => false,
        };
        if !wanted {
            continue;
        }
        if let Some(w) = confirm(module, facts, entry, (&args, &blocks), &cfg, result, &label) {
            match w.kind {
                WitnessKind::Lasso(_) => found.lasso = Some(w),
                WitnessKind::Violation { .. } => found.violation = Some(w),
            }
            if stop_at_first || (found.lasso.is_some() && found.violation.is_some()) {
                break;
            }
        }
    }
    found
}

/// Runs `entry` on the given input values (then 0 for any further input) under `cfg` and
/// returns the witness if the run ends in a lasso or violation that a replay confirms — for
/// candidates computed elsewhere, e.g. from a symbolic error path.
pub fn replay_inputs(module: &Module, facts: &ModuleFacts, entry: FuncId, args: &[i128], cfg: &RunConfig, values: Vec<i128>, label: &str) -> Option<Witness> {
    let result = run(module, facts, entry, args, cfg, &mut SequenceInputs::new(values, Some(0)));
    confirm(module, facts, entry, (args, &[]), cfg, result, label)
}

/// Replays a candidate with exactly its recorded inputs (the entry's arguments and initial
/// memory `start`, then the values it read); keeps it only if it ends the same way.
fn confirm(module: &Module, facts: &ModuleFacts, entry: FuncId, start: (&[i128], &[EntryBlock]), cfg: &RunConfig, found: RunResult, label: &str) -> Option<Witness> {
    let (args, blocks) = start;
    let kind = match &found.outcome {
        // A NO needs a run without undefined behaviour on the way: created poison is a C-level
        // signed overflow / over-wide shift / inexact exact division (clang -O0 emits these
        // flags exactly where C says the operation is undefined), even if LLVM never uses it.
        Outcome::Lasso(_) if found.poison_created.is_some() => return None,
        Outcome::Lasso(l) => WitnessKind::Lasso(l.clone()),
        Outcome::Violation { kind, message, function, loc } => {
            WitnessKind::Violation { kind: kind.clone(), message: message.clone(), function: function.clone(), loc: loc.clone() }
        }
        _ => return None,
    };
    let values: Vec<i128> = found.trace_inputs.iter().map(|(_, v)| *v).collect();
    let mut replay_src = SequenceInputs::new(values, None);
    let replay_cfg = RunConfig { deadline: None, max_steps: found.steps + 1, ..cfg.clone() };
    let replay = run_with_memory(module, facts, entry, args, blocks, &replay_cfg, &mut replay_src);
    if replay.outcome != found.outcome || replay.trace_inputs != found.trace_inputs {
        tracing::warn!(?found.outcome, ?replay.outcome, "interpreter replay differs; witness dropped");
        return None;
    }
    let f = module.function(entry);
    // the integer parameters' values in the run (the interpreter wraps them to their width);
    // pointer parameters are given by their blocks
    let integers = || args.iter().zip(&f.params).filter_map(|(a, (v, ty))| Some((v, super::value::wrap_signed(*a, ty.int_bits()?))));
    let entry_arg_names = integers().map(|(v, _)| f.value_name(*v)).collect();
    let entry_args = integers().map(|(_, a)| a).collect();
    Some(Witness {
        kind,
        inputs: found.trace_inputs,
        entry_args,
        entry_arg_names,
        entry_memory: blocks.to_vec(),
        strategy: label.to_string(),
        steps: found.steps,
        poison_created: found.poison_created,
    })
}
