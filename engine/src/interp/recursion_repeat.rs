//! Detection of concrete infinite recursions: one function entered twice with equal
//! registers and unchanged memory (the same memory generation: no write, allocation, free or
//! settled uninitialised read in between, so contents, allocation status and the allocator's
//! next address are all equal), the second time deeper in the stack while the frame of the
//! first entry is still the same live frame (its serial at its depth unchanged: never popped
//! in between). Memory that changes and changes back is not recognised (no copies are kept:
//! a level that allocates can never repeat anyway, the allocator's address moves on).
//!
//! Why that run never ends (on the abstract machine's unbounded stack): a step depends only on
//! the top frame, the memory and the next input, and a `ret` also on the caller's frame.
//! Between the two entries the run never returned from the first entry's frame, so it only
//! read frames it created itself; from the second entry, whose frame and memory equal the
//! first's, the same inputs make the same steps with every depth shifted, reaching a third
//! equal entry with the second entry's frame still live, and so on forever. The frames in
//! between hold no allocation the first entry did not see (memory is equal), and the stack's
//! depth limit is the interpreter's resource limit, not part of the semantics.

use super::frame::Frame;
use super::memory::Memory;
use super::value::Value;
use crate::ir::{BlockId, FuncId};
use std::collections::HashMap;
use std::hash::{DefaultHasher, Hash, Hasher};

/// A function entry as stored: what must be equal at the repeat.
struct Entry {
    func: FuncId,
    regs: Vec<Option<Value>>,
    depth: usize,
    serial: u64,
    memory_generation: u64,
    step: u64,
    inputs: usize,
}

/// A repeat: the earlier entry's step, consumed inputs and depth.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct RecursionRepeat {
    pub first_step: u64,
    pub first_inputs: usize,
    pub first_depth: usize,
}

/// Stores function entries and reports the first repeat deeper in the same recursion.
pub struct RecursionDetector {
    seen: HashMap<u64, Vec<Entry>>,
    stored_states: usize,
    stored_bytes: usize,
    max_states: usize,
    max_bytes: usize,
}

impl RecursionDetector {
    pub fn new(max_states: usize, max_bytes: usize) -> RecursionDetector {
        RecursionDetector { seen: HashMap::new(), stored_states: 0, stored_bytes: 0, max_states, max_bytes }
    }

    /// Called at every block entry of the top frame; acts only on function entries (block 0,
    /// which no branch can target). Returns a repeat, or stores the entry (within the caps).
    pub fn at_block_entry(&mut self, frames: &[Frame], memory: &Memory, step: u64, inputs: usize) -> Option<RecursionRepeat> {
        let top = frames.last()?;
        if top.block != BlockId(0) || top.ip != 0 || !top.allocas.is_empty() || !top.aggregates.is_empty() {
            return None;
        }
        let depth = frames.len();
        let mut h = DefaultHasher::new();
        (top.func, &top.regs, memory.generation()).hash(&mut h);
        let key = h.finish();
        let live = |e: &Entry| frames.get(e.depth - 1).is_some_and(|f| f.serial == e.serial);
        if let Some(list) = self.seen.get_mut(&key) {
            // Entries whose frame was popped can never be matched again.
            list.retain(live);
            let same = |e: &&Entry| {
                e.func == top.func && e.depth < depth && e.regs == top.regs && e.memory_generation == memory.generation()
            };
            if let Some(e) = list.iter().find(same) {
                return Some(RecursionRepeat { first_step: e.step, first_inputs: e.inputs, first_depth: e.depth });
            }
        }
        if self.stored_states >= self.max_states {
            return None;
        }
        let bytes = top.regs.len() * 40 + 96;
        if self.stored_bytes + bytes > self.max_bytes {
            self.max_states = self.stored_states;
            return None;
        }
        self.stored_states += 1;
        self.stored_bytes += bytes;
        self.seen.entry(key).or_default().push(Entry {
            func: top.func,
            regs: top.regs.clone(),
            depth,
            serial: top.serial,
            memory_generation: memory.generation(),
            step,
            inputs,
        });
        None
    }
}
