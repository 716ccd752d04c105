//! Observation of a run at block entries, for analyses that learn from concrete runs (e.g.
//! the candidate predicates of `bitprecise::recurrent`). Observing never changes the run.

use super::value::Value;
use crate::ir::{BlockId, FuncId, GlobalId, ValueId};

/// One entry of a block by the top frame, after its phis ran.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct BlockEntry {
    pub func: FuncId,
    pub block: BlockId,
    /// Number of frames on the stack (1 = the entry function).
    pub depth: usize,
    /// Steps executed so far (a replay with `max_steps = steps` stops right after this entry).
    pub steps: u64,
    /// Inputs consumed so far.
    pub inputs_consumed: usize,
    /// The frame's registers, indexed by `ValueId`.
    pub regs: Vec<Option<Value>>,
    /// The memory cells the observer asked for (`BlockObserver::cells`), in its order.
    pub cells: Vec<Option<CellContents>>,
}

/// What holds the base address of an observed memory cell: a register of the top frame, or
/// a global.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub enum CellBase {
    Reg(ValueId),
    Global(GlobalId),
}

/// A memory cell read at block entries: a `bits`-bit integer stored in `size` bytes at
/// `base + offset`; `written` asks that the cell be writable too.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct CellSpec {
    pub base: CellBase,
    pub offset: i128,
    pub size: u64,
    pub bits: u32,
    pub written: bool,
}

/// An observed cell: its address and the value a load of its type reads there now. `None`
/// in `BlockEntry::cells` when the cell is not inside one live allocation (writable if asked),
/// or holds uninitialised, poison or unknown bytes: nothing is drawn, nothing changes.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct CellContents {
    pub addr: u64,
    pub value: Value,
}

/// Receives block entries during `run_observed`.
pub trait BlockObserver {
    fn block_entry(&mut self, entry: BlockEntry);

    /// The memory cells to read into `BlockEntry::cells` at an entry of `block` of `func`.
    fn cells(&self, _func: FuncId, _block: BlockId) -> &[CellSpec] {
        &[]
    }
}

/// Keeps the last `capacity` block entries.
#[derive(Clone, Debug)]
pub struct TailRecorder {
    pub capacity: usize,
    pub entries: std::collections::VecDeque<BlockEntry>,
}

impl TailRecorder {
    pub fn new(capacity: usize) -> TailRecorder {
        TailRecorder { capacity: capacity.max(1), entries: std::collections::VecDeque::new() }
    }
}

impl BlockObserver for TailRecorder {
    fn block_entry(&mut self, entry: BlockEntry) {
        if self.entries.len() == self.capacity {
            self.entries.pop_front();
        }
        self.entries.push_back(entry);
    }
}
