//! Detection of concrete lassos: the same complete state (all frames' positions and live
//! registers, all of memory with allocation metadata and the allocator's next address) at two
//! loop-header entries. Hashes only index the stored states; a repeat is claimed only after
//! comparing the full states.
//!
//! Cost per header visit is proportional to the frames, not to memory: memory contributes its
//! incrementally maintained digest, and stored states share one memory copy per memory
//! generation (loops that do not write memory store it once).

use super::frame::Frame;
use super::memory::Memory;
use super::value::Value;
use crate::facts::ModuleFacts;
use crate::ir::{BlockId, FuncId};
use std::collections::HashMap;
use std::hash::{DefaultHasher, Hash, Hasher};
use std::sync::Arc;

/// The part of a frame that determines the rest of the run (dead top-frame registers `None`).
#[derive(Clone, PartialEq, Eq, Debug)]
struct FrameSnapshot {
    func: FuncId,
    block: BlockId,
    ip: usize,
    regs: Vec<Option<Value>>,
    allocas: Vec<u64>,
    aggregates: Vec<(u32, Vec<Option<Value>>)>,
}

struct Stored {
    step: u64,
    inputs: usize,
    frames: Vec<FrameSnapshot>,
    memory: Arc<Memory>,
    memory_generation: u64,
}

/// A repeat: the earlier visit's step and number of consumed inputs.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Repeat {
    pub first_step: u64,
    pub first_inputs: usize,
}

/// Stores states at loop-header entries and reports the first exact repeat.
pub struct LassoDetector {
    seen: HashMap<u64, Vec<Stored>>,
    /// The memory copy of the last stored state and its generation.
    last_memory: Option<(u64, Arc<Memory>)>,
    stored_states: usize,
    stored_bytes: usize,
    max_states: usize,
    max_bytes: usize,
}

fn register_view(is_top: bool, live: &[bool], v: usize, r: &Option<Value>) -> Option<Value> {
    if is_top && !live.get(v).copied().unwrap_or(true) {
        None
    } else {
        *r
    }
}

fn aggregate_visible(is_top: bool, live: &[bool], v: u32) -> bool {
    !is_top || live.get(v as usize).copied().unwrap_or(true)
}

impl LassoDetector {
    pub fn new(max_states: usize, max_bytes: usize) -> LassoDetector {
        LassoDetector {
            seen: HashMap::new(),
            last_memory: None,
            stored_states: 0,
            stored_bytes: 0,
            max_states,
            max_bytes,
        }
    }

    /// Called right after the top frame entered `block` (phis done). Returns a repeat if the
    /// current state equals a stored one; otherwise stores it (within the caps).
    pub fn at_block_entry(
        &mut self,
        module: &crate::ir::Module,
        facts: &ModuleFacts,
        frames: &[Frame],
        memory: &Memory,
        step: u64,
        inputs: usize,
    ) -> Option<Repeat> {
        let top = frames.last()?;
        let facts = facts.function(module, top.func);
        let b = top.block.0 as usize;
        if !facts.loop_headers.get(b).copied().unwrap_or(false) {
            return None;
        }
        let empty = Vec::new();
        let live: &[bool] = facts.live_after_phis.get(b).unwrap_or(&empty);
        let last = frames.len() - 1;

        let mut h = DefaultHasher::new();
        (frames.len(), memory.digest()).hash(&mut h);
        for (i, f) in frames.iter().enumerate() {
            (f.func, f.block, f.ip, &f.allocas, f.regs.len()).hash(&mut h);
            for (v, r) in f.regs.iter().enumerate() {
                register_view(i == last, live, v, r).hash(&mut h);
            }
            for (v, fields) in &f.aggregates {
                if aggregate_visible(i == last, live, *v) {
                    (v, fields).hash(&mut h);
                }
            }
        }
        let key = h.finish();

        let same = |s: &Stored| {
            s.frames.len() == frames.len()
                && s.frames.iter().zip(frames).enumerate().all(|(i, (sf, f))| {
                    sf.func == f.func
                        && sf.block == f.block
                        && sf.ip == f.ip
                        && sf.allocas == f.allocas
                        && sf.regs.len() == f.regs.len()
                        && sf.regs.iter().zip(&f.regs).enumerate().all(|(v, (a, r))| *a == register_view(i == last, live, v, r))
                        && {
                            let mut current = f.aggregates.iter().filter(|(v, _)| aggregate_visible(i == last, live, **v));
                            sf.aggregates.iter().all(|(v, x)| current.next().is_some_and(|(cv, cx)| cv == v && cx == x))
                                && current.next().is_none()
                        }
                })
                && (s.memory_generation == memory.generation() || *s.memory == *memory)
        };
        if let Some(s) = self.seen.get(&key).and_then(|list| list.iter().find(|s| same(s))) {
            return Some(Repeat { first_step: s.step, first_inputs: s.inputs });
        }

        if self.stored_states >= self.max_states {
            return None;
        }
        let frames_snapshot: Vec<FrameSnapshot> = frames
            .iter()
            .enumerate()
            .map(|(i, f)| FrameSnapshot {
                func: f.func,
                block: f.block,
                ip: f.ip,
                regs: f.regs.iter().enumerate().map(|(v, r)| register_view(i == last, live, v, r)).collect(),
                allocas: f.allocas.clone(),
                aggregates: f
                    .aggregates
                    .iter()
                    .filter(|(v, _)| aggregate_visible(i == last, live, **v))
                    .map(|(v, x)| (*v, x.clone()))
                    .collect(),
            })
            .collect();
        let mut bytes = frames_snapshot.iter().map(|f| f.regs.len() * 40 + f.allocas.len() * 8 + 64).sum::<usize>();
        let shared = match &self.last_memory {
            Some((g, m)) if *g == memory.generation() => m.clone(),
            _ => {
                bytes += memory.blocks().values().map(|b| b.cells.len() * 2 + 64).sum::<usize>();
                Arc::new(memory.clone())
            }
        };
        if self.stored_bytes + bytes > self.max_bytes {
            // Full: stop storing (later repeats of stored states are still found).
            self.max_states = self.stored_states;
            return None;
        }
        self.stored_states += 1;
        self.stored_bytes += bytes;
        self.last_memory = Some((memory.generation(), shared.clone()));
        self.seen.entry(key).or_default().push(Stored {
            step,
            inputs,
            frames: frames_snapshot,
            memory: shared,
            memory_generation: memory.generation(),
        });
        None
    }
}
