//! Observation of a run at block entries, for analyses that learn from concrete runs (e.g.
//! the candidate predicates of `bitprecise::recurrent`). Observing never changes the run.

use super::value::Value;
use crate::ir::{BlockId, FuncId};

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
}

/// Receives block entries during `run_observed`.
pub trait BlockObserver {
    fn block_entry(&mut self, entry: BlockEntry);
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
