//! Bit-precise reasoning about loops (natural loops come from `facts::loops`): a bit-vector encoding of
//! acyclic regions and single loop iterations (`encode`, `step`), and non-termination proofs
//! by recurrent sets closed under every iteration (`recurrent`).
//!
//! Everything here works on `logic::bv` terms; z3 is reached only through `smt::check_bv`.
//! Only `IntSemantics::C` and `Wrap` are bit-precise; `Math` is `Unsupported`.

pub mod encode;
pub mod recurrent;
pub mod source_text;
pub mod step;
pub mod termination;

pub use encode::{encode_region, EdgeEncoding, Env, RegionBudget, RegionEncoding, RegionTarget, Unsupported};
pub use crate::facts::loops::{natural_loops, Loop, LoopForest};
pub use step::{encode_loop_step, var_name, LoopStep, LoopVar};

#[cfg(test)]
mod tests;
