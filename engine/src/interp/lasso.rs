//! Detection of concrete lassos: the same complete state (all frames' positions and live
//! registers, all of memory with allocation metadata and the allocator's next address) at two
//! loop-header entries. Hashes only index the stored states; a repeat is claimed only after
//! comparing the full states.

use super::cfg_facts::FunctionFacts;
use super::frame::Frame;
use super::memory::Memory;
use super::value::Value;
use crate::ir::{BlockId, FuncId};
use std::collections::HashMap;
use std::hash::{DefaultHasher, Hash, Hasher};

/// The part of a frame that determines the rest of the run.
#[derive(Clone, PartialEq, Eq, Debug)]
struct FrameSnapshot {
    func: FuncId,
    block: BlockId,
    ip: usize,
    regs: Vec<Option<Value>>,
    allocas: Vec<u64>,
}

/// A complete machine state (dead registers of the top frame as `None`).
#[derive(Clone, PartialEq, Eq, Debug)]
struct Snapshot {
    frames: Vec<FrameSnapshot>,
    memory: Memory,
}

impl Snapshot {
    fn approx_bytes(&self) -> usize {
        let regs: usize = self.frames.iter().map(|f| f.regs.len() * 40 + 64).sum();
        let mem: usize = self.memory.blocks.values().map(|b| b.cells.len() * 2 + 64).sum();
        regs + mem
    }
}

struct Stored {
    step: u64,
    inputs: usize,
    snapshot: Snapshot,
}

/// A repeat: the earlier visit's step and number of consumed inputs.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Repeat {
    pub first_step: u64,
    pub first_inputs: usize,
}

/// Stores states at loop-header entries and reports the first exact repeat.
pub struct LassoDetector {
    facts: HashMap<FuncId, FunctionFacts>,
    seen: HashMap<u64, Vec<Stored>>,
    stored_states: usize,
    stored_bytes: usize,
    max_states: usize,
    max_bytes: usize,
}

impl LassoDetector {
    pub fn new(max_states: usize, max_bytes: usize) -> LassoDetector {
        LassoDetector { facts: HashMap::new(), seen: HashMap::new(), stored_states: 0, stored_bytes: 0, max_states, max_bytes }
    }

    /// Facts of a function (computed once).
    pub fn facts(&mut self, module: &crate::ir::Module, f: FuncId) -> &FunctionFacts {
        self.facts.entry(f).or_insert_with(|| FunctionFacts::compute(module.function(f)))
    }

    /// Called right after the top frame entered `block` (phis done). Returns a repeat if the
    /// current state equals a stored one; otherwise stores it (within the memory cap).
    /// The state is hashed and compared in place; it is cloned only when stored.
    pub fn at_block_entry(
        &mut self,
        module: &crate::ir::Module,
        frames: &[Frame],
        memory: &Memory,
        step: u64,
        inputs: usize,
    ) -> Option<Repeat> {
        let top = frames.last()?;
        let facts = self.facts(module, top.func);
        if !facts.headers.get(top.block.0 as usize).copied().unwrap_or(false) {
            return None;
        }
        let live = facts.live_after_phis.get(top.block.0 as usize).cloned().unwrap_or_default();
        let last = frames.len() - 1;
        // The register file of frame `i` as compared: dead registers of the top frame hidden.
        let visible = |i: usize, v: usize, r: &Option<Value>| -> Option<Value> {
            if i == last && !live.get(v).copied().unwrap_or(true) { None } else { *r }
        };
        let mut h = DefaultHasher::new();
        frames.len().hash(&mut h);
        for (i, f) in frames.iter().enumerate() {
            (f.func, f.block, f.ip, &f.allocas, f.regs.len()).hash(&mut h);
            for (v, r) in f.regs.iter().enumerate() {
                visible(i, v, r).hash(&mut h);
            }
        }
        memory.hash(&mut h);
        let key = h.finish();
        let same = |snap: &Snapshot| {
            snap.memory == *memory
                && snap.frames.len() == frames.len()
                && snap.frames.iter().zip(frames).enumerate().all(|(i, (s, f))| {
                    s.func == f.func
                        && s.block == f.block
                        && s.ip == f.ip
                        && s.allocas == f.allocas
                        && s.regs.len() == f.regs.len()
                        && s.regs.iter().zip(&f.regs).enumerate().all(|(v, (a, b))| *a == visible(i, v, b))
                })
        };
        if let Some(s) = self.seen.get(&key).and_then(|list| list.iter().find(|s| same(&s.snapshot))) {
            return Some(Repeat { first_step: s.step, first_inputs: s.inputs });
        }
        if self.stored_states >= self.max_states {
            return None;
        }
        let snapshot = Snapshot {
            frames: frames
                .iter()
                .enumerate()
                .map(|(i, f)| FrameSnapshot {
                    func: f.func,
                    block: f.block,
                    ip: f.ip,
                    regs: f.regs.iter().enumerate().map(|(v, r)| visible(i, v, r)).collect(),
                    allocas: f.allocas.clone(),
                })
                .collect(),
            memory: memory.clone(),
        };
        let bytes = snapshot.approx_bytes();
        if self.stored_bytes + bytes <= self.max_bytes {
            self.stored_states += 1;
            self.stored_bytes += bytes;
            self.seen.entry(key).or_default().push(Stored { step, inputs, snapshot });
        } else {
            // Full: stop storing (later repeats of stored states are still found).
            self.max_states = self.stored_states;
        }
        None
    }
}
