//! The termcheck.toml policy gate: which findings fail a run, which warn, which are allowed
//! and why (docs/policy.md).
//!
//! The workspace command hands over one [`FunctionResult`] per analysed function, the
//! [`NotAnalysed`] code and optionally a [`CallGraph`]; [`find_policy`] loads the policy and
//! [`evaluate`] applies it, giving an [`Evaluation`] with its exit code. Rendering lives in
//! `crate::report`.

pub mod annotations;
pub mod assumptions;
pub mod check;
pub mod classify;
pub mod codes;
pub mod discovery;
pub mod error;
pub mod evaluate;
pub mod exit_code;
pub mod function_result;
pub mod model;
pub mod parse;
pub mod pattern;
mod raw;

#[cfg(test)]
mod engine_results_tests;
#[cfg(test)]
mod policy_cases;

pub use assumptions::{AssumedProperty, Assumption, AssumptionBasis};
pub use check::{Check, Level};
pub use discovery::{explicit_policy_path, find_policy, locate_policy_file, CONFIG_ENV, POLICY_FILE_NAMES};
pub use error::PolicyError;
pub use evaluate::{evaluate, AllowUse, CheckFinding, Counts, Evaluation, FunctionFinding, NotAnalysedFinding, Status, UnusedAllowFinding};
pub use function_result::{CallGraph, FunctionResult, NotAnalysed, SourceLocation};
pub use model::{AllowEntry, LevelOrigin, Policy, PolicySource, Scope, TimeoutEntry};
pub use parse::parse_policy;
