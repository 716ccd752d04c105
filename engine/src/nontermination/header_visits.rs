//! An observer of one loop header (function, block, frame depth) during a replay: its first
//! and its last visits, each with the loop's memory cells read (`MathLoopStep::cell_specs`);
//! `CutVisits` observes several headers of one frame at once (a loop and its inner loops).

use crate::interp::{BlockEntry, BlockObserver, CellSpec};
use crate::ir::{BlockId, FuncId};
use std::collections::VecDeque;

/// Keeps the first `first_capacity` and the last `last_capacity` visits of one header.
pub struct HeaderVisits {
    func: FuncId,
    block: BlockId,
    depth: usize,
    cells: Vec<CellSpec>,
    first_capacity: usize,
    last_capacity: usize,
    pub first: Vec<BlockEntry>,
    pub last: VecDeque<BlockEntry>,
}

impl HeaderVisits {
    pub fn new(func: FuncId, block: BlockId, depth: usize, cells: Vec<CellSpec>, first_capacity: usize, last_capacity: usize) -> HeaderVisits {
        HeaderVisits { func, block, depth, cells, first_capacity, last_capacity, first: Vec::new(), last: VecDeque::new() }
    }
}

impl BlockObserver for HeaderVisits {
    fn block_entry(&mut self, entry: BlockEntry) {
        if entry.func != self.func || entry.block != self.block || entry.depth != self.depth {
            return;
        }
        if self.first.len() < self.first_capacity {
            self.first.push(entry.clone());
        }
        if self.last_capacity > 0 {
            if self.last.len() == self.last_capacity {
                self.last.pop_front();
            }
            self.last.push_back(entry);
        }
    }

    fn cells(&self, func: FuncId, block: BlockId) -> &[CellSpec] {
        if func == self.func && block == self.block {
            &self.cells
        } else {
            &[]
        }
    }
}

/// The visits of several blocks of one frame (each a `HeaderVisits`).
pub struct CutVisits {
    pub blocks: Vec<HeaderVisits>,
}

impl BlockObserver for CutVisits {
    fn block_entry(&mut self, entry: BlockEntry) {
        if let Some(h) = self.blocks.iter_mut().find(|h| h.func == entry.func && h.block == entry.block && h.depth == entry.depth) {
            h.block_entry(entry);
        }
    }

    fn cells(&self, func: FuncId, block: BlockId) -> &[CellSpec] {
        self.blocks.iter().find(|h| h.func == func && h.block == block).map_or(&[], |h| h.cells(func, block))
    }
}
