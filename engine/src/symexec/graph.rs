//! Construction of the symbolic execution graph with generalization (Sect. 2.3).
//!
//! Nodes are kept only where something happens: the initial state, the successors of a
//! refinement (case split), states at generalization points (loop headers), error states and
//! the ends of runs. An `Eval` edge stands for a straight-line sequence of steps; variable names
//! are global (fresh per definition), so the facts of the nodes along a path describe it.
//!
//! Strategy (digest §5): when a state reaches a generalization point whose whole call-stack
//! position an ancestor on its path already has, the closest such ancestor `a` is tried as a
//! generalization (`Back` edge, closing the path); otherwise `a`'s subtree is discarded and
//! replaced by the merge `c` of `a` and the new state (`Merge` edge a → c, or q → c when `a`
//! itself was a merge result reached from q). Generalization points are the headers of CFG
//! back edges, and positions include the previous block (as the paper's `b_prev`), so the
//! first merge at a loop header happens between the second and third arrival.

use super::ctx::Ctx;
use super::exec::{self, loc_text, Stop, Succ};
use super::generalize::{self, Mu};
use super::state::{Position, State};
use crate::config::SymexecLimits;
use crate::ir::{Op, SrcLoc};
use std::collections::HashMap;
use std::time::Instant;

#[derive(Clone, Debug)]
pub enum Edge {
    Eval(usize),
    /// To a merged state (a descendant that generalizes this node), μ: target ↦ source vars.
    Merge(usize, Mu),
    /// To an ancestor that generalizes this node, μ: ancestor vars ↦ this node's vars.
    Back(usize, Mu),
}

#[derive(Clone, Debug)]
pub enum End {
    /// Still to be expanded / expanded into children.
    Open,
    Leaf,
    Error { reason: String, loc: Option<SrcLoc> },
}

#[derive(Clone, Debug)]
pub struct Node {
    pub state: State,
    /// The KB when the node was reached, before the clean-up at a generalization point:
    /// it relates the variables of the parent to those of this node.
    pub arrival_kb: Vec<super::facts::Fact>,
    pub parent: Option<usize>,
    pub out: Vec<Edge>,
    pub end: End,
    pub alive: bool,
    pub gen_point: bool,
}

/// The finished (or abandoned) graph.
pub struct Graph {
    pub nodes: Vec<Node>,
    pub root: usize,
    /// Why the construction stopped early (MAYBE reason), if it did.
    pub incomplete: Option<String>,
    pub merges: usize,
}

impl Graph {
    pub fn errors(&self) -> Vec<usize> {
        (0..self.nodes.len()).filter(|i| self.nodes[*i].alive && matches!(self.nodes[*i].end, End::Error { .. })).collect()
    }
}

struct Builder<'c, 'm> {
    ctx: &'c mut Ctx<'m>,
    nodes: Vec<Node>,
    work: Vec<usize>,
    merges: HashMap<Position, usize>,
    total_merges: usize,
    limits: &'c SymexecLimits,
    deadline: Instant,
    steps: usize,
    errors_found: usize,
}

/// Builds the graph from `init` within the deadline and limits.
pub fn build(ctx: &mut Ctx<'_>, init: State, deadline: Instant, limits: &SymexecLimits) -> Graph {
    let mut b = Builder { ctx, nodes: vec![], work: vec![], merges: HashMap::new(), total_merges: 0, limits, deadline, steps: 0, errors_found: 0 };
    let root = b.add_node(init, None, false);
    b.work.push(root);
    let incomplete = b.run().err();
    let merges = b.total_merges;
    Graph { nodes: b.nodes, root, incomplete, merges }
}

impl Builder<'_, '_> {
    fn add_node(&mut self, state: State, parent: Option<usize>, gen_point: bool) -> usize {
        let kb = state.kb.clone();
        self.nodes.push(Node { state, arrival_kb: kb, parent, out: vec![], end: End::Open, alive: true, gen_point });
        self.nodes.len() - 1
    }


    fn run(&mut self) -> Result<(), String> {
        while let Some(n) = self.work.pop() {
            if !self.nodes[n].alive {
                continue;
            }
            if Instant::now() >= self.deadline || self.ctx.budget.expired() {
                return Err("timeout during symbolic execution".into());
            }
            if self.nodes.len() > self.limits.max_nodes {
                return Err(format!("symbolic execution graph exceeds {} nodes", self.limits.max_nodes));
            }
            self.expand(n)?;
            if self.errors_found >= self.limits.max_errors {
                return Ok(());
            }
        }
        Ok(())
    }

    fn at_gen_point(&mut self, s: &State) -> bool {
        let f = s.top();
        if f.prev.is_none() || !self.ctx.is_loop_header(f.func, f.block) {
            return false;
        }
        let func = self.ctx.module.function(f.func);
        let n_phi = func.block(f.block).instrs.iter().take_while(|i| matches!(i.op, Op::Phi { .. })).count();
        f.idx == n_phi
    }

    fn expand(&mut self, n: usize) -> Result<(), String> {
        let mut s = self.nodes[n].state.clone();
        loop {
            self.steps += 1;
            if self.steps > self.limits.max_steps {
                return Err(format!("more than {} symbolic execution steps", self.limits.max_steps));
            }
            if self.steps % 256 == 0 && Instant::now() >= self.deadline {
                return Err("timeout during symbolic execution".into());
            }
            let succs = match exec::step(self.ctx, s) {
                Ok(v) => v,
                Err(Stop::Leaf) => {
                    let c = self.add_node(State::default(), Some(n), false);
                    self.nodes[c].end = End::Leaf;
                    self.nodes[n].out.push(Edge::Eval(c));
                    return Ok(());
                }
                Err(Stop::Maybe(r)) => return Err(r),
            };
            if succs.len() == 1 {
                if let Some(Succ::State(_)) = succs.first() {
                    let Some(Succ::State(next)) = succs.into_iter().next() else { unreachable!() };
                    if self.at_gen_point(&next) {
                        self.child_at_gen_point(n, next)?;
                        return Ok(());
                    }
                    s = next;
                    continue;
                }
            }
            for succ in succs {
                match succ {
                    Succ::State(st) => {
                        if self.at_gen_point(&st) {
                            self.child_at_gen_point(n, st)?;
                        } else {
                            let c = self.add_node(st, Some(n), false);
                            self.nodes[n].out.push(Edge::Eval(c));
                            self.work.push(c);
                        }
                    }
                    Succ::Error { state, reason, loc } => {
                        tracing::debug!("error state: {reason}{}", loc_text(&loc));
                        let c = self.add_node(state, Some(n), false);
                        self.nodes[c].end = End::Error { reason, loc };
                        self.errors_found += 1;
                        self.nodes[n].out.push(Edge::Eval(c));
                    }
                }
            }
            return Ok(());
        }
    }

    fn child_at_gen_point(&mut self, parent: usize, st: State) -> Result<(), String> {
        let arrival = st.kb.clone();
        let mut st = st;
        generalize::cleanup(self.ctx, &mut st);
        let c = self.add_node(st, Some(parent), true);
        self.nodes[c].arrival_kb = arrival;
        self.nodes[parent].out.push(Edge::Eval(c));
        let pos = self.nodes[c].state.position();
        // closest ancestor at the same position
        let mut a = self.nodes[c].parent;
        while let Some(x) = a {
            if self.nodes[x].gen_point && self.nodes[x].state.position() == pos {
                break;
            }
            a = self.nodes[x].parent;
        }
        let Some(a) = a else {
            self.work.push(c);
            return Ok(());
        };
        let (general, inst) = (self.nodes[a].state.clone(), self.nodes[c].state.clone());
        if let Some(mu) = generalize::instance(self.ctx, &general, &inst) {
            self.nodes[c].out.push(Edge::Back(a, mu));
            return Ok(());
        }
        let count = self.merges.entry(pos).or_insert(0);
        *count += 1;
        self.total_merges += 1;
        if *count > self.limits.max_merges_per_position {
            let f = self.nodes[c].state.top();
            let func = self.ctx.module.function(f.func);
            return Err(format!(
                "generalization did not converge at the loop `{}` in `{}`{}",
                func.block(f.block).name,
                func.name,
                loc_text(&func.block(f.block).term_loc)
            ));
        }
        let merged = generalize::merge(self.ctx, &general, &inst);
        self.kill_subtree(a);
        self.nodes[a].out.clear();
        // If `a` is itself a merge result reached from q, replace it: q → c.
        let q = self.nodes[a].parent;
        let from_merge = q.and_then(|q| {
            self.nodes[q].out.iter().position(|e| matches!(e, Edge::Merge(t, _) if *t == a)).map(|i| (q, i))
        });
        match from_merge {
            Some((q, i)) => {
                let Edge::Merge(_, mu_qa) = self.nodes[q].out[i].clone() else { unreachable!() };
                // c ↦ a ↦ q: compose
                let mut mu: Mu = mu_qa.iter().filter(|(v, _)| !merged.mu_a.contains_key(*v)).map(|(v, w)| (v.clone(), w.clone())).collect();
                mu.extend(merged.mu_a.iter().map(|(v, va)| (v.clone(), generalize::apply(&mu_qa, va))));
                self.nodes[a].alive = false;
                let m = self.add_node(merged.state, Some(q), true);
                self.nodes[q].out[i] = Edge::Merge(m, mu);
                self.work.push(m);
            }
            None => {
                let m = self.add_node(merged.state, Some(a), true);
                self.nodes[a].out.push(Edge::Merge(m, merged.mu_a));
                self.work.push(m);
            }
        }
        Ok(())
    }

    fn kill_subtree(&mut self, a: usize) {
        let mut stack: Vec<usize> = self.nodes[a].out.iter().filter_map(|e| match e {
            Edge::Eval(t) | Edge::Merge(t, _) => Some(*t),
            Edge::Back(..) => None,
        }).collect();
        while let Some(x) = stack.pop() {
            if !self.nodes[x].alive {
                continue;
            }
            self.nodes[x].alive = false;
            for e in &self.nodes[x].out {
                if let Edge::Eval(t) | Edge::Merge(t, _) = e {
                    stack.push(*t);
                }
            }
        }
    }
}
