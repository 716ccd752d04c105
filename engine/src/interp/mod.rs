//! Concrete interpreter of the engine IR: the independent judge of witnesses. A `NO` needs a
//! run that reaches the same complete state twice (`Outcome::Lasso`) or enters a function
//! again, deeper, in an equal state (`Outcome::RecursionLasso`); `memory-safety:
//! violated` needs a run that reaches the faulting operation (`Outcome::Violation`). Where it
//! cannot be exact the interpreter stops with `Outcome::Unsupported` and never guesses.
//!
//! The semantics of every operation under each `IntSemantics` is written down in
//! `engine/src/interp/SEMANTICS.md` (the symbolic executor must match it).
//!
//! Entry points: [`run`] (one run with a given input source) and [`search_witness`]
//! (a portfolio of input strategies, every result replayed).

pub(crate) mod arith;
mod entry_memory;
mod externals;
mod fault;
mod frame;
mod inputs;
mod lasso;
pub(crate) mod libc;
mod machine;
mod memory;
mod observe;
mod outcome;
mod recursion_repeat;
mod rust_runtime;
mod search;
pub(crate) mod value;

#[cfg(test)]
pub(crate) mod tests;

pub use fault::kind;
pub use inputs::{CyclicInputs, InputRequest, InputSource, SequenceInputs, SplitMix64, Strategy, StrategyInputs};
pub use entry_memory::entry_arguments;
pub use machine::{run, run_observed, run_with_memory};
pub use observe::{BlockEntry, BlockObserver, CellBase, CellContents, CellSpec, TailRecorder};
pub use outcome::{Lasso, Outcome, RecursionLasso, RunConfig, RunResult};
pub use search::{replay_inputs, search, search_witness, search_witnesses, SearchBudget, Witness, WitnessKind, Witnesses};
pub use value::Value;
