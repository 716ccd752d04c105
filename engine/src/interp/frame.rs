//! A call frame: position in a function, its registers and its stack allocations.

use super::value::Value;
use crate::ir::{BlockId, FuncId};

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
}
