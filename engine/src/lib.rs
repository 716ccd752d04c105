//! termcheck's analysis engine: LLVM front end, the engine's own IR, symbolic execution,
//! integer transition systems and their termination provers.
//!
//! Boundaries: only `frontend` touches inkwell and runs clang; only `smt` touches z3;
//! everything else is pure computation on owned, `Send + Sync` data and does no I/O.

pub mod logic;
pub mod smt;
pub mod ir;
pub mod its;
pub mod verdict;
