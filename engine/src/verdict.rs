//! The results the engine hands to the CLI: termination and memory-safety verdicts with evidence.
//!
//! A `Yes` always carries a complete, re-checkable ranking argument; a `No` a witness that was
//! replayed; everything else is `Maybe` with a concrete reason (see ARCHITECTURE.md, soundness).

use crate::logic::{Formula, Int, LinExpr};
use serde::{Deserialize, Serialize};

/// Integer semantics of the analysed program (`--int-semantics`).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default, Serialize, Deserialize)]
pub enum IntSemantics {
    /// LLVM semantics of clang's IR: flag-less arithmetic wraps; nsw/nuw/exact violations,
    /// division by zero and over-wide shifts are undefined behaviour.
    #[default]
    C,
    /// Two's complement everywhere (-fwrapv); no overflow is undefined.
    Wrap,
    /// Signed integers are unbounded mathematical integers; unsigned results have no upper bound but wrap below zero.
    Math,
}

/// One phase of a lexicographic ranking argument: a linear function per location
/// (locations not listed are not constrained by this phase).
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct RankingPhase {
    /// (location name, ranking function) pairs.
    pub functions: Vec<(String, LinExpr)>,
    /// One of `linear`, `multiphase` (`depth` linear functions per location, lexicographic)
    /// or `bit-vector` (functions in `expressions`, compared unsigned); docs/output-format.md.
    pub kind: String,
    /// Number of functions per location (1 for `linear`).
    #[serde(default)]
    pub depth: usize,
    /// Internal: the ITS rules (graph paths) the phase removes, for tools.
    #[serde(default)]
    pub removes: Vec<String>,
    /// Ranking functions that are not linear integer expressions (`bit-vector` phases).
    #[serde(default)]
    pub expressions: Vec<SourceExpr>,
}

/// A term or formula of a proof as C-like source text over source variable names, with the
/// prover's internal form kept for tools.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct SourceExpr {
    /// The location (as in `ComponentProof::locations`) the expression belongs to.
    pub location: String,
    /// C-like text over source names (`~i`, `0 <= i && i <= n`).
    pub text: String,
    /// The prover's own form (`~i#1`, `0 <=s i#1`).
    pub internal: String,
}

/// A loop as the source names it: the statement's `FILE:LINE:COL` (from clang's `llvm.loop`
/// location; `line` 0 when the input has no debug info) in `function`.
#[derive(Clone, PartialEq, Eq, PartialOrd, Ord, Debug, Serialize, Deserialize)]
pub struct SourceLoop {
    pub file: String,
    pub line: u32,
    pub column: u32,
    pub function: String,
    /// Internal: the loop's header block (`while.cond`); a function's entry block for
    /// recursion.
    pub header: String,
}

impl SourceLoop {
    /// `FILE:LINE:COL in FUNCTION`, or `FUNCTION:HEADER` without debug info.
    pub fn text(&self) -> String {
        if self.line == 0 {
            format!("{}:{}", self.function, self.header)
        } else {
            format!("{}:{}:{} in {}", self.file, self.line, self.column, self.function)
        }
    }
}

/// Evidence for termination.
#[derive(Clone, PartialEq, Eq, Debug, Default, Serialize, Deserialize)]
pub struct TerminationProof {
    /// Per strongly connected component: the lexicographic ranking phases that remove its rules.
    pub components: Vec<ComponentProof>,
    /// Free-text notes (e.g. "no cycles").
    pub notes: Vec<String>,
}

/// The argument for one strongly connected component of the ITS.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct ComponentProof {
    /// Internal location names (ITS locations: `main:while.cond#12`).
    pub locations: Vec<String>,
    pub phases: Vec<RankingPhase>,
    /// Per location (same order as `locations`), the source loop it belongs to, where known.
    #[serde(default)]
    pub loops: Vec<Option<SourceLoop>>,
    /// Invariants the argument relies on (bit-vector proofs), per location.
    #[serde(default)]
    pub invariants: Vec<SourceExpr>,
}

/// Evidence for non-termination.
#[derive(Clone, PartialEq, Eq, Debug, Default, Serialize, Deserialize)]
pub struct NonTerminationWitness {
    /// Nondeterministic values consumed along the run, in order (program level) or the
    /// initial values of the variables (ITS level), as (name, value).
    pub inputs: Vec<(String, Int)>,
    /// Program level: the inputs the non-terminating part of the run reads again and again,
    /// in order (a concrete lasso's cycle; `inputs` already ends with one pass of it). Empty
    /// when the cycle reads no input or when `any_further_inputs` holds.
    #[serde(default)]
    pub input_cycle: Vec<(String, Int)>,
    /// Program level: after `inputs`, every value of every further input keeps the run
    /// non-terminating (a recurrent set closed under all inputs).
    #[serde(default)]
    pub any_further_inputs: bool,
    /// Program level: the entry function's arguments of the run (parameter name, value), in
    /// parameter order; empty for an entry without parameters and at the ITS level.
    #[serde(default)]
    pub entry_args: Vec<(String, Int)>,
    /// Program level: the memory the entry's pointer arguments designate at the start of the
    /// run (one block per pointer parameter); empty when the entry takes no pointer, and
    /// for witnesses that do not know it (then a pointer argument has no block here).
    #[serde(default)]
    pub entry_memory: Vec<EntryBlock>,
    /// Human-readable description of the stem and the cycle / recurrent set.
    pub description: Vec<String>,
    /// Program level, `--int-semantics math`: the recurrent set over mathematical integers
    /// and the stem into it (re-checkable by `nontermination::recheck`). `None` for lassos,
    /// ITS-level witnesses and bit-vector recurrent sets.
    #[serde(default)]
    pub recurrent_set: Option<RecurrentSetWitness>,
    /// Program level: the run never returns from this function's recursion (an infinite
    /// recursion, `nontermination::recursion_as_loop`); `None` for loops. Such a run needs an
    /// unbounded stack, so a native replay ends in a stack overflow and no harness is written.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub recursion: Option<String>,
    /// ITS level: the stem as concrete states and the closed recurrent set it ends in (what an
    /// ITS interpreter replays, `cargo xtask replay`). `None` for programs.
    #[serde(default)]
    pub its_lasso: Option<ItsLassoWitness>,
}

/// A NO of an ITS input: from the start location with the witness's `inputs`, the run passes
/// the states of `stem` in order (each reached by one or more rules of the input) and ends at
/// `location` in a state satisfying `set`, which is closed: every state of `set` at
/// `location` has a run of rules back to `location` into `set`, by one of `loops`.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct ItsLassoWitness {
    pub stem: Vec<ItsStep>,
    pub location: String,
    pub set: Formula,
    /// The cycles the set is closed under, each as the origins of its input rules in order
    /// (`line 12`; a replay follows them); a cycle with a rule of no origin is left out.
    #[serde(default)]
    pub loops: Vec<Vec<String>>,
}

/// One step of an ITS stem: from location `from` to `to` (by the rule `rule` of the prepared
/// ITS, named by its origin in the input), reaching the values `state` of every variable.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct ItsStep {
    pub from: String,
    pub to: String,
    pub rule: Option<String>,
    pub state: Vec<(String, Int)>,
}

/// A NO over mathematical integers: a run whose stem (the recorded inputs, `stem_steps`
/// interpreter steps) enters the loop at `header` of `function`, in a state that satisfies
/// `set`; `set` is closed under every iteration of the loop for every nondeterministic value,
/// so the run never leaves the loop.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct RecurrentSetWitness {
    /// The function that contains the loop.
    pub function: String,
    /// The name of the loop's header block.
    pub header: String,
    /// Frame depth of the loop when the stem ends (1 = the entry function).
    pub depth: usize,
    /// Nondeterministic values consumed by the stem, in order.
    pub stem_inputs: Vec<(String, Int)>,
    /// Interpreter steps of the stem; the stem ends with the entry of `header`.
    pub stem_steps: u64,
    /// `None`: `set` is closed for every nondeterministic value, so any inputs may follow the
    /// stem. `Some(c)`: closed when every later input is `c` (the witness then feeds `c`
    /// forever: `NonTerminationWitness::input_cycle`).
    #[serde(default)]
    pub fixed_input: Option<Int>,
    /// The recurrent set over the loop's variables (header phis and live-ins, named
    /// `source#value` or `%value` as in `bitprecise::var_name`).
    pub set: Formula,
    /// For a loop with inner loops: one set at the header of each loop nested in it (over
    /// that header's phis, the values of the loop computed before it, the live-ins and the
    /// cells). Every segment between two headers ends in the set of the header it reaches.
    /// Empty for an innermost loop.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub inner_sets: Vec<InnerRecurrentSet>,
    /// The loop is the tail-call view of `function`'s recursion
    /// (`nontermination::recursion_as_loop`): `header` is the function's entry block, a
    /// header visit is a call of the function (`depth` its frame), `set` is over its
    /// parameters, and each iteration ends in a recursive call that never returns.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub recursion: bool,
}

/// The recurrent set at the header of a loop nested in the loop of a `RecurrentSetWitness`.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct InnerRecurrentSet {
    /// The name of the inner loop's header block.
    pub header: String,
    pub set: Formula,
}

/// Termination verdict.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub enum Termination {
    Yes(TerminationProof),
    No(NonTerminationWitness),
    Maybe { reason: String },
}

/// A replayed memory-safety violation (or undefined behaviour under `--int-semantics c`).
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct Violation {
    pub kind: String,
    pub message: String,
    pub location: Option<String>,
    pub inputs: Vec<(String, Int)>,
    /// The entry function's arguments of the faulting run (parameter name, value).
    #[serde(default)]
    pub entry_args: Vec<(String, Int)>,
    /// The memory the entry's pointer arguments designate at the start of the run.
    #[serde(default)]
    pub entry_memory: Vec<EntryBlock>,
}

/// A block of the initial memory of a witness run: the pointer parameter `param` (index
/// `index` among the entry's parameters) points `offset` bytes into a block of `size` bytes,
/// separate from every other block, whose contents are `bytes` (`size` of them). The block is
/// the caller's (a replay allocates it with `malloc`); its address is not part of the witness.
/// `element_size` is the size of the elements the entry accesses through the pointer (for
/// rendering the contents as integers; the bytes are what counts).
#[derive(Clone, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
pub struct EntryBlock {
    pub param: String,
    pub index: usize,
    pub size: u64,
    pub offset: u64,
    pub bytes: Vec<u8>,
    #[serde(default = "one")]
    pub element_size: u64,
}

fn one() -> u64 {
    1
}

impl EntryBlock {
    /// The contents as little-endian signed integers of `element_size` bytes (1, 2, 4 or 8,
    /// dividing `size`), else `None`.
    pub fn elements(&self) -> Option<Vec<Int>> {
        let e = self.element_size as usize;
        if ![1, 2, 4, 8].contains(&e) || !self.bytes.len().is_multiple_of(e) {
            return None;
        }
        let value = |chunk: &[u8]| {
            let raw = chunk.iter().rev().fold(0u64, |acc, b| (acc << 8) | u64::from(*b));
            let shift = 64 - 8 * e as u32;
            Int::from(((raw << shift) as i64) >> shift)
        };
        Some(self.bytes.chunks(e).map(value).collect())
    }
}

/// Memory-safety verdict.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub enum MemorySafety {
    Proved,
    Violated(Violation),
    Unknown { reason: String },
}

/// The complete result for a program (C/LLVM input) or an ITS (memory safety `None`).
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct Report {
    pub termination: Termination,
    pub memory_safety: Option<MemorySafety>,
    /// Statistics for benchmarking (nodes, z3 calls, time per phase), free-form.
    pub stats: Vec<(String, String)>,
}

impl Report {
    /// Enforces the contract that YES requires proved memory safety (for programs):
    /// a termination proof on a graph with an unproved access is downgraded to MAYBE.
    pub fn normalized(mut self) -> Report {
        if let (Termination::Yes(_), Some(ms)) = (&self.termination, &self.memory_safety) {
            if *ms != MemorySafety::Proved {
                self.termination = Termination::Maybe {
                    reason: "termination argument found, but memory safety is not proved".into(),
                };
            }
        }
        self
    }
}
