//! A call frame: position in a function, its registers and its stack allocations.

use super::value::Value;
use crate::ir::{BlockId, FuncId};
use std::collections::BTreeMap;

#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct Frame {
    pub func: FuncId,
    pub block: BlockId,
    /// Index of the next instruction in `block` (== number of instructions: the terminator).
    /// While a callee runs, it points at the call.
    pub ip: usize,
    /// Register file, indexed by `ValueId`.
    pub regs: Vec<Option<Value>>,
    /// Base addresses of this frame's `alloca`s (they die when the frame returns).
    pub allocas: Vec<u64>,
    /// Aggregate registers (e.g. the `{iN, i1}` of `llvm.sadd.with.overflow`), by `ValueId`:
    /// one entry per top-level field, `None` for a field never set.
    pub aggregates: BTreeMap<u32, Vec<Option<Value>>>,
    /// Order of the frame's push in the run (unique per run): a frame at a given depth with
    /// the same serial is the same frame, never popped in between (`recursion_repeat`).
    pub serial: u64,
}
