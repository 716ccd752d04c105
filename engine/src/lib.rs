//! termcheck's analysis engine: LLVM front end, the engine's own IR, symbolic execution,
//! integer transition systems and their termination provers.
//!
//! Boundaries: only `frontend` touches inkwell and runs clang; only `smt` touches z3;
//! everything else is pure computation on owned, `Send + Sync` data and does no I/O
//! (`driver` reads the input file and hands owned data on; `cache::disk` reads and writes
//! the persistent report cache).

pub mod analysis;
pub mod bitprecise;
pub mod cache;
pub mod cancel;
pub mod call_contexts;
pub mod config;
pub mod driver;
pub mod error;
pub mod facts;
pub mod frontend;
pub mod houdini;
pub mod interp;
pub mod ir;
pub mod its;
pub mod logic;
pub mod nontermination;
pub mod pipeline;
pub mod schedule;
pub mod smt;
pub mod symexec;
pub mod termination;
pub mod verdict;
