//! Natural loops of a function: dominators (petgraph), back edges `latch → header` where the
//! header dominates the latch, loop bodies, exit edges and nesting. Loops sharing a header are
//! merged (LLVM's convention). A cycle without a dominating header (irreducible control flow)
//! forms no natural loop; `LoopForest::irreducible` says so, so callers never assume that the
//! loops cover every cycle when it is set.

use crate::ir::{BlockId, Function};
use crate::verdict::SourceLoop;
use petgraph::algo::dominators::simple_fast;
use petgraph::graph::{DiGraph, NodeIndex};
use std::collections::{BTreeMap, BTreeSet};

/// One natural loop.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Loop {
    pub header: BlockId,
    /// Header, latches and every block that reaches a latch without passing the header.
    pub blocks: BTreeSet<BlockId>,
    /// Sources of the back edges.
    pub latches: Vec<BlockId>,
    /// Edges `(inside, outside)` leaving the loop.
    pub exits: Vec<(BlockId, BlockId)>,
    /// Index (in `LoopForest::loops`) of the innermost loop strictly containing this one.
    pub parent: Option<usize>,
    /// Loops directly nested in this one.
    pub children: Vec<usize>,
    /// No loop nested inside.
    pub innermost: bool,
    /// 1 for outermost loops.
    pub depth: u32,
}

/// All natural loops of a function.
#[derive(Clone, PartialEq, Eq, Debug, Default)]
pub struct LoopForest {
    pub loops: Vec<Loop>,
    /// Some cycle of reachable blocks is not inside a natural loop's back edge (irreducible).
    pub irreducible: bool,
}

impl LoopForest {
    /// The innermost loop containing `b`, if any.
    pub fn innermost_containing(&self, b: BlockId) -> Option<usize> {
        self.loops.iter().enumerate().filter(|(_, l)| l.blocks.contains(&b)).max_by_key(|(_, l)| l.depth).map(|(i, _)| i)
    }
    /// The loop with header `h`.
    pub fn with_header(&self, h: BlockId) -> Option<&Loop> {
        self.loops.iter().find(|l| l.header == h)
    }
    /// The source loop a program point at block `b` of `f` (a function of this forest) belongs
    /// to: the loop headed by `b`, else the innermost loop containing `b`, named by its
    /// statement (`Function::loop_statement`); `None` outside every loop (e.g. a function's
    /// entry, where recursion cycles).
    pub fn source_loop(&self, f: &Function, b: BlockId) -> Option<SourceLoop> {
        let l = self.with_header(b).or_else(|| self.innermost_containing(b).map(|i| &self.loops[i]))?;
        let at = f.loop_statement(l.header, l.blocks.iter().copied());
        Some(SourceLoop {
            file: at.map(|a| a.file.clone()).unwrap_or_default(),
            line: at.map_or(0, |a| a.line),
            column: at.map_or(0, |a| a.col),
            function: f.name.clone(),
            header: f.block(l.header).name.clone(),
        })
    }
}

/// Computes the natural loops of `f` (empty for declarations).
pub fn natural_loops(f: &Function) -> LoopForest {
    if f.blocks.is_empty() {
        return LoopForest::default();
    }
    let mut g: DiGraph<(), ()> = DiGraph::new();
    let nodes: Vec<NodeIndex> = (0..f.blocks.len()).map(|_| g.add_node(())).collect();
    let mut preds: Vec<Vec<BlockId>> = vec![Vec::new(); f.blocks.len()];
    for (i, b) in f.blocks.iter().enumerate() {
        for s in b.terminator.successors() {
            if (s.0 as usize) < f.blocks.len() {
                g.add_edge(nodes[i], nodes[s.0 as usize], ());
                preds[s.0 as usize].push(BlockId(i as u32));
            }
        }
    }
    let doms = simple_fast(&g, nodes[0]);
    let reachable = |b: BlockId| b.0 == 0 || doms.immediate_dominator(nodes[b.0 as usize]).is_some();
    let dominates = |a: BlockId, b: BlockId| {
        doms.dominators(nodes[b.0 as usize]).is_some_and(|mut it| it.any(|d| d == nodes[a.0 as usize]))
    };
    // Back edges grouped by header.
    let mut latches: BTreeMap<BlockId, Vec<BlockId>> = BTreeMap::new();
    let mut irreducible = false;
    for (i, b) in f.blocks.iter().enumerate() {
        let from = BlockId(i as u32);
        if !reachable(from) {
            continue;
        }
        for s in b.terminator.successors() {
            if dominates(s, from) {
                latches.entry(s).or_default().push(from);
            }
        }
    }
    let mut loops: Vec<Loop> = Vec::new();
    for (header, ls) in latches {
        let mut blocks = BTreeSet::from([header]);
        let mut work: Vec<BlockId> = ls.clone();
        while let Some(b) = work.pop() {
            if !reachable(b) || !blocks.insert(b) {
                continue;
            }
            work.extend(preds[b.0 as usize].iter().copied());
        }
        let mut exits = Vec::new();
        for &b in &blocks {
            for s in f.block(b).terminator.successors() {
                if !blocks.contains(&s) {
                    exits.push((b, s));
                }
            }
        }
        loops.push(Loop { header, blocks, latches: ls, exits, parent: None, children: Vec::new(), innermost: true, depth: 1 });
    }
    // Nesting: the parent is the smallest other loop whose blocks contain this loop's header.
    for i in 0..loops.len() {
        let parent = (0..loops.len())
            .filter(|&j| j != i && loops[j].blocks.contains(&loops[i].header) && loops[j].blocks.len() > loops[i].blocks.len())
            .min_by_key(|&j| loops[j].blocks.len());
        loops[i].parent = parent;
    }
    for i in 0..loops.len() {
        if let Some(p) = loops[i].parent {
            loops[p].children.push(i);
            loops[p].innermost = false;
        }
        let mut d = 1;
        let mut cur = loops[i].parent;
        while let Some(p) = cur {
            d += 1;
            cur = loops[p].parent;
        }
        loops[i].depth = d;
    }
    // Irreducibility: a cycle among reachable blocks after removing all back edges.
    let back: BTreeSet<(BlockId, BlockId)> = loops.iter().flat_map(|l| l.latches.iter().map(move |&la| (la, l.header))).collect();
    let mut acyclic: DiGraph<(), ()> = DiGraph::new();
    let an: Vec<NodeIndex> = (0..f.blocks.len()).map(|_| acyclic.add_node(())).collect();
    for (i, b) in f.blocks.iter().enumerate() {
        let from = BlockId(i as u32);
        if !reachable(from) {
            continue;
        }
        for s in b.terminator.successors() {
            if (s.0 as usize) < f.blocks.len() && !back.contains(&(from, s)) {
                acyclic.add_edge(an[i], an[s.0 as usize], ());
            }
        }
    }
    if petgraph::algo::is_cyclic_directed(&acyclic) {
        irreducible = true;
    }
    LoopForest { loops, irreducible }
}
