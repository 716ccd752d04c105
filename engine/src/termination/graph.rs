//! Strongly connected components of (a subset of) the rules of an ITS.

use crate::its::{Its, LocId};
use petgraph::graph::{DiGraph, NodeIndex};
use std::collections::BTreeSet;

/// The non-trivial SCCs (a cycle exists) of the graph formed by `rules` (indices into
/// `its.transitions`), each given as the sorted indices of its internal rules.
pub fn cyclic_components(its: &Its, rules: &[usize]) -> Vec<Vec<usize>> {
    let mut g: DiGraph<LocId, usize> = DiGraph::new();
    let nodes: Vec<NodeIndex> = (0..its.locations.len() as u32).map(|i| g.add_node(LocId(i))).collect();
    for &r in rules {
        let t = &its.transitions[r];
        g.add_edge(nodes[t.from.0 as usize], nodes[t.to.0 as usize], r);
    }
    let mut out = Vec::new();
    for comp in petgraph::algo::tarjan_scc(&g) {
        let locs: BTreeSet<u32> = comp.iter().map(|n| n.index() as u32).collect();
        let mut inner: Vec<usize> = rules
            .iter()
            .copied()
            .filter(|&r| {
                let t = &its.transitions[r];
                locs.contains(&t.from.0) && locs.contains(&t.to.0)
            })
            .collect();
        if !inner.is_empty() {
            inner.sort_unstable();
            out.push(inner);
        }
    }
    out
}
