//! Plain-data results of one interpreter run.

use crate::config::RunLimits;
use crate::ir::SrcLoc;
use crate::verdict::IntSemantics;
use serde::{Deserialize, Serialize};

/// Limits and semantics of one run.
#[derive(Clone, Debug)]
pub struct RunConfig {
    pub semantics: IntSemantics,
    /// Instructions plus terminators executed before `StepLimit`.
    pub max_steps: u64,
    /// Call depth, allocation size and stored-state caps (from `Config::witnesses`).
    pub limits: RunLimits,
    /// Whether to look for repeated states.
    pub detect_lasso: bool,
    /// Whether to look for repeated function entries deeper in one recursion
    /// (`Outcome::RecursionLasso`).
    pub detect_recursion: bool,
    /// Wall-clock deadline (checked every 1024 steps).
    pub deadline: Option<std::time::Instant>,
}

impl RunConfig {
    /// A run of at most `max_steps` steps that looks for lassos, without a deadline.
    pub fn new(semantics: IntSemantics, limits: RunLimits, max_steps: u64) -> RunConfig {
        RunConfig { semantics, max_steps, limits, detect_lasso: true, detect_recursion: false, deadline: None }
    }
}

/// A concrete lasso: after `stem_steps` steps the run reaches a state it reaches again
/// `cycle_steps` steps later, consuming `inputs_in_cycle` in between. Feeding those inputs
/// again and again repeats the cycle forever. For a `NO` the caller must also require
/// `RunResult::poison_created == None` (no C-level undefined behaviour on the way);
/// `search_witness` does.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct Lasso {
    pub stem_steps: u64,
    pub cycle_steps: u64,
    /// Number of inputs consumed before the cycle (the first entries of `trace_inputs`).
    pub inputs_in_stem: usize,
    pub inputs_in_cycle: Vec<(String, i128)>,
    /// Function and block (loop header) where the repeated state was seen.
    pub function: String,
    pub block: String,
}

/// A concrete infinite recursion: after `stem_steps` steps the run enters `function` at
/// depth `first_depth`, and `cycle_steps` steps later enters it again at `depth` with equal
/// registers and equal memory while the first entry's frame is still live, consuming
/// `inputs_in_cycle` in between (`interp::recursion_repeat`). Feeding those inputs again and
/// again makes the recursion deeper forever; it never returns. For a `NO` the caller must
/// also require `RunResult::poison_created == None`.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct RecursionLasso {
    pub stem_steps: u64,
    pub cycle_steps: u64,
    pub inputs_in_stem: usize,
    pub inputs_in_cycle: Vec<(String, i128)>,
    pub function: String,
    pub first_depth: usize,
    pub depth: usize,
}

/// How a run ended.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub enum Outcome {
    /// The entry function returned (with its value, if any).
    Returned(Option<i128>),
    /// `abort`, `exit`, `__VERIFIER_error`, ... (the callee's name).
    Exited(String),
    /// `__VERIFIER_assume(0)`: not a run of the program.
    Blocked,
    /// A real violation (memory safety, or undefined behaviour under `IntSemantics::C`).
    Violation { kind: String, message: String, function: String, loc: Option<SrcLoc> },
    Lasso(Lasso),
    RecursionLasso(RecursionLasso),
    StepLimit,
    DepthLimit,
    Timeout,
    /// The input source had no further value.
    InputsExhausted,
    /// The interpreter cannot be exact here: the run proves nothing.
    Unsupported(String),
}

/// The result of `run`.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct RunResult {
    pub outcome: Outcome,
    /// Every consumed nondeterministic value, in order: (origin, value reduced to its width).
    pub trace_inputs: Vec<(String, i128)>,
    pub steps: u64,
    /// Where the run first created poison from non-poison operands (a violated `nsw`/`nuw`/
    /// `exact`/`disjoint` flag, an over-wide shift, `llvm.abs` of MIN), if it did; `poison`
    /// constants are not counted (the front end uses `freeze poison` for uninitialised locals). Under
    /// `IntSemantics::C` an `nsw` violation is a signed overflow, undefined in C even if LLVM
    /// only reports UB once the poison is used; callers may refuse witnesses with this set.
    pub poison_created: Option<String>,
}
