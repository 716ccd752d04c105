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
use super::facts::{Atom, Fact};
use super::generalize::{self, apply, Mu};
use super::returns::ReturnSummary;
use super::state::{Alloc, AllocKind, Position, PtEntry, State};
use crate::facts::recursion::Summarized;
use crate::config::SymexecLimits;
use crate::facts::views::View;
use crate::ir::{Op, SrcLoc, Type};
use crate::verdict::IntSemantics;
use crate::logic::{LinExpr, Rel, Var};
use std::collections::{HashMap, HashSet};
use std::time::Instant;

/// Return states kept per return of an entry before new ones are widened into the newest.
const RETURN_STATES_BEFORE_WIDENING: usize = 3;

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
    /// An entry state of a summarized function (a call abstraction, or the merge replacing
    /// one): the returns below it are its return states.
    pub entry: bool,
    /// An entry imported from the module-wide summary store: never expanded (its stored
    /// return states stand for its runs, whose termination and memory safety are proved).
    pub imported: bool,
}

/// The finished (or abandoned) graph.
pub struct Graph {
    pub nodes: Vec<Node>,
    pub root: usize,
    /// Why the construction stopped early (MAYBE reason), if it did.
    pub incomplete: Option<String>,
    pub merges: usize,
    /// Calls of summarized functions (call node, call-abstraction node).
    pub calls: usize,
    /// Return states recorded for entries (after covering and widening).
    pub return_states: usize,
    /// Where the runs that end by unwinding out of the analysed function started their panic
    /// (`file:line`, sorted, each once).
    pub panics: Vec<String>,
    /// The return states of the entries (after covering and widening), by entry node.
    pub summaries: Vec<ReturnSummary>,
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
    /// Nodes that left a loop, expanded once `work` is empty (`schedule`).
    deferred: Vec<usize>,
    /// Merges per loop position, counted apart below each entry of a non-recursive
    /// summarized callee (its entries are independent graphs whose positions coincide) and
    /// per chain of merged states (by the chain's first node, `loop_origin`): sibling paths
    /// that reach a loop without passing it (a `&mut Vec` push that grows the buffer or not
    /// in the first iteration) each generalize on their own, like entries' chains.
    merges: HashMap<(Option<usize>, Position, usize), usize>,
    /// The shapes of the families earlier merges at the same key as `merges` refuted
    /// (`generalize::merge_widening`'s `drifting`).
    drifting: HashMap<(Option<usize>, Position, usize), std::collections::BTreeSet<generalize::Shape>>,
    /// The first node of the chain of loop-header states a merged one belongs to.
    loop_origin: HashMap<usize, usize>,
    /// Merges per chain of entries (by the chain's first entry).
    entry_merges: HashMap<usize, usize>,
    /// The first entry of the chain a merged entry belongs to.
    entry_origin: HashMap<usize, usize>,
    total_merges: usize,
    limits: &'c SymexecLimits,
    deadline: Instant,
    steps: usize,
    errors_found: usize,
    /// Calls of summarized functions: (call node, its call-abstraction node).
    calls: Vec<(usize, usize)>,
    /// Return states of entries.
    summaries: Vec<ReturnSummary>,
    /// (call node, summary) pairs already intersected.
    intersected: HashSet<(usize, usize)>,
    panics: std::collections::BTreeSet<String>,
}

/// Builds the graph from `init` within the deadline and limits.
pub fn build(ctx: &mut Ctx<'_>, init: State, deadline: Instant, limits: &SymexecLimits) -> Graph {
    let mut b = Builder {
        ctx,
        nodes: vec![],
        work: vec![],
        deferred: vec![],
        merges: HashMap::new(),
        drifting: HashMap::new(),
        loop_origin: HashMap::new(),
        entry_merges: HashMap::new(),
        entry_origin: HashMap::new(),
        total_merges: 0,
        limits,
        deadline,
        steps: 0,
        errors_found: 0,
        calls: vec![],
        summaries: vec![],
        intersected: HashSet::new(),
        panics: Default::default(),
    };
    let root = b.add_node(init, None, false);
    b.work.push(root);
    let incomplete = b.run().err();
    let merges = b.total_merges;
    let (calls, return_states) = (b.calls.len(), b.summaries.len());
    let panics = b.panics.into_iter().collect();
    Graph { nodes: b.nodes, root, incomplete, merges, calls, return_states, panics, summaries: b.summaries }
}

impl Builder<'_, '_> {
    fn add_node(&mut self, state: State, parent: Option<usize>, gen_point: bool) -> usize {
        let kb = state.kb.clone();
        self.nodes.push(Node { state, arrival_kb: kb, parent, out: vec![], end: End::Open, alive: true, gen_point, entry: false, imported: false });
        self.nodes.len() - 1
    }


    /// Expands open nodes until none is left, then intersects every waiting call with the
    /// return states of its entry found so far; repeats until that adds nothing (the return
    /// states have reached their fixpoint and every call is intersected with all of them).
    fn run(&mut self) -> Result<(), String> {
        loop {
            while let Some(n) = self.work.pop() {
                if !self.nodes[n].alive {
                    continue;
                }
                self.check_limits()?;
                self.expand(n)?;
                if self.errors_found >= self.limits.max_errors {
                    return Ok(());
                }
            }
            if !self.deferred.is_empty() {
                self.work.append(&mut self.deferred);
                continue;
            }
            let reopened = self.reopen_orphans();
            if !self.intersect_waiting_calls()? && !reopened {
                return Ok(());
            }
        }
    }

    /// Queues the new node `c` for expansion. A node that has just left the loop of its
    /// closest loop-header ancestor (its parent inside that loop, itself outside it) waits
    /// until no other work is left: the loop's own paths go first, so its header converges
    /// (each merge discards the header's subtree, exits included) before what follows the
    /// loop is explored, and that is explored once from the converged header instead of
    /// again from every intermediate one (BENCHMARKS.md "Session 11: product": a `Vec` fill
    /// loop followed by a read loop). Only the order changes: every live node is expanded.
    fn schedule(&mut self, c: usize) {
        if self.leaves_loop(c) {
            self.deferred.push(c);
        } else {
            self.work.push(c);
        }
    }

    /// Whether `c`'s parent is inside the natural loop of its closest loop-header ancestor
    /// `h` (the parent itself included) and `c` is outside it, judged in the frame at `h`'s
    /// depth (the parent or `c` may be inside a callee executed in place, as `Range::next`).
    fn leaves_loop(&self, c: usize) -> bool {
        let Some(p) = self.nodes[c].parent else { return false };
        let mut h = Some(p);
        while let Some(x) = h {
            if self.nodes[x].gen_point && !self.nodes[x].entry {
                break;
            }
            h = self.nodes[x].parent;
        }
        let Some(h) = h else { return false };
        let header = self.nodes[h].state.top();
        let depth = self.nodes[h].state.frames.len();
        let at_depth = |n: usize| self.nodes[n].state.frames.get(depth - 1).filter(|f| f.func == header.func).map(|f| f.block);
        let (Some(bp), Some(bc)) = (at_depth(p), at_depth(c)) else { return false };
        let facts = self.ctx.facts.function(self.ctx.module, header.func);
        facts.loops.with_header(header.block).is_some_and(|l| l.blocks.contains(&bp) && !l.blocks.contains(&bc))
    }

    fn check_limits(&self) -> Result<(), String> {
        if crate::cancel::past(self.deadline) || self.ctx.budget.expired() {
            return Err("timeout during symbolic execution".into());
        }
        if self.nodes.len() > self.limits.max_nodes {
            return Err(format!("symbolic execution graph exceeds {} nodes", self.limits.max_nodes));
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
            if self.steps % 256 == 0 && crate::cancel::past(self.deadline) {
                return Err("timeout during symbolic execution".into());
            }
            let succs = match exec::step(self.ctx, s) {
                Ok(v) => v,
                Err(Stop::Leaf) => {
                    self.add_leaf(n);
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
                            self.schedule(c);
                        }
                    }
                    Succ::Call { caller, entry } => self.call(n, caller, entry)?,
                    Succ::Return { state, value } => self.ret(n, state, value),
                    Succ::Unwind { state, loc } => self.unwound(n, &state, &loc)?,
                    Succ::Error { state, reason, loc } => {
                        tracing::debug!("error state: {reason}{}", loc_text(&loc));
                        tracing::trace!("error state:\n{}", state.brief());
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
        self.gen_point_child(parent, st, false).map(|_| ())
    }

    /// Adds `st` as a child of `parent` at a generalization point (a loop header, or the entry
    /// of a summarized function if `entry`) and generalizes it against the closest ancestor
    /// at the same position. Returns the new node.
    fn gen_point_child(&mut self, parent: usize, st: State, entry: bool) -> Result<usize, String> {
        let mut st = st;
        if !entry {
            // seed 001: chains of heap cells become list invariants before generalizing (after
            // dead locals are gone: a live reference into a chain keeps it concrete); the
            // stale bytes of dead stack slots go first (`dead_slots`)
            super::dead_slots::forget(self.ctx, &mut st);
            for fr in &mut st.frames {
                let live = self.ctx.live_at(fr.func, fr.block, fr.idx);
                fr.lv.retain(|v, _| live.contains(v));
            }
            super::lists::fold(self.ctx, &mut st);
        }
        super::rust_owned_vec::pointers_at_buffer_starts(&mut st);
        let arrival = st.kb.clone();
        tracing::trace!("arrival KB {:?} (roots {:?})", st.kb, st.root_vars());
        generalize::cleanup(self.ctx, &mut st);
        let c = self.add_node(st, Some(parent), true);
        self.nodes[c].arrival_kb = arrival;
        self.nodes[c].entry = entry;
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
            if entry && (self.reuse_entry(c) || self.import_entry(c) || self.widen_against_store(c)) {
                return Ok(c);
            }
            if entry && self.ctx.summarizes_non_recursive(self.nodes[c].state.top().func) {
                self.ctx.entries_built += 1;
                self.work.push(c);
            } else {
                self.schedule(c);
            }
            return Ok(c);
        };
        let (mut general, mut inst) = (self.nodes[a].state.clone(), self.nodes[c].state.clone());
        // seed 001: an empty list on one side is an invariant of length 0 (meaning-preserving)
        if super::lists::pad(self.ctx, &mut inst, &general) {
            self.nodes[c].state = inst.clone();
        }
        if super::lists::pad(self.ctx, &mut general, &inst) {
            self.nodes[a].state = general.clone();
        }
        // issue 10: a variable at two positions of an invariant gets one per position
        if super::lists_positions::separate(self.ctx, &mut inst) {
            self.nodes[c].state = inst.clone();
        }
        if super::lists_positions::separate(self.ctx, &mut general) {
            self.nodes[a].state = general.clone();
        }
        tracing::debug!("gen point n{c} vs ancestor n{a}: general {:?} / {:?} / lists {:?}; inst {:?} / {:?} / lists {:?}", general.frames.last().map(|f| &f.lv), general.allocs.len(), general.lists, inst.frames.last().map(|f| &f.lv), inst.allocs.len(), inst.lists);
        tracing::trace!("gen point n{c} vs ancestor n{a}: general KB {:?}; inst KB {:?}", general.kb, inst.kb);
        if let Some(mu) = generalize::instance(self.ctx, &general, &inst) {
            self.nodes[c].out.push(Edge::Back(a, mu));
            return Ok(c);
        }
        // Loop headers count merges per position; an entry counts them per chain of entries
        // that replace one another (the first entry of a call site and its merges): entries
        // of one function from different call sites are independent graphs.
        let drift_key = (!entry).then(|| (self.callee_scope(c), pos, self.loop_origin.get(&a).copied().unwrap_or(a)));
        let count = match &drift_key {
            None => {
                let origin = self.entry_origin.get(&a).copied().unwrap_or(a);
                self.entry_merges.entry(origin).or_insert(0)
            }
            Some(key) => self.merges.entry(key.clone()).or_insert(0),
        };
        *count += 1;
        self.total_merges += 1;
        if *count > self.limits.max_merges_per_position {
            let f = self.nodes[c].state.top();
            let func = self.ctx.module.function(f.func);
            if entry {
                return Err(format!("the call contexts of the recursive function `{}` did not converge", func.name));
            }
            return Err(format!(
                "generalization did not converge at the loop `{}` in `{}`{}",
                func.block(f.block).name,
                func.name,
                loc_text(&func.block(f.block).term_loc)
            ));
        }
        if !entry && super::rust_owned_vec::defer_merge(self.ctx, &general, &inst) {
            // a `Vec`'s first buffer: this state is the next ancestor instead (`rust_owned_vec`)
            self.work.push(c);
            return Ok(c);
        }
        let widen = *count > self.limits.widen_families_after_merges;
        let restricted = super::lists_rust::common_fields(&general, &inst);
        let (general, inst) = restricted.as_ref().map_or((&general, &inst), |(g, i)| (g, i));
        let no_drift = std::collections::BTreeSet::new();
        let drifting = drift_key.as_ref().and_then(|k| self.drifting.get(k)).unwrap_or(&no_drift);
        let mut merged = generalize::merge_widening(self.ctx, general, inst, widen, drifting);
        if let Some(k) = drift_key {
            self.drifting.entry(k).or_default().extend(std::mem::take(&mut merged.refuted));
        }
        super::lists_rust::drop_length_address_facts(&mut merged.state);
        tracing::trace!("merged n{a} and n{c}:\n{}", merged.state.brief());
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
                self.nodes[m].entry = self.nodes[a].entry;
                self.note_origin(m, a);
                self.nodes[q].out[i] = Edge::Merge(m, mu);
                self.work.push(m);
            }
            None => {
                let m = self.add_node(merged.state, Some(a), true);
                self.nodes[m].entry = self.nodes[a].entry;
                self.note_origin(m, a);
                self.nodes[a].out.push(Edge::Merge(m, merged.mu_a));
                self.work.push(m);
            }
        }
        Ok(c)
    }

    /// The call abstraction `c` of a non-recursive summarized callee (no ancestor entry of
    /// its function exists) is tried against the live entries of the same function built
    /// for other calls, newest first: if one generalizes it, `c` gets a `Back` edge to it and
    /// that entry's graph and return states serve this call too (intersected with it through
    /// μ), instead of building the callee's graph again. Should that entry's subtree later be
    /// discarded by a merge above it, `reopen_orphans` analyses `c` as an entry of its own.
    fn reuse_entry(&mut self, c: usize) -> bool {
        let func = self.nodes[c].state.top().func;
        if !self.ctx.summarizes_non_recursive(func) {
            return false;
        }
        let pos = self.nodes[c].state.position();
        let candidates: Vec<usize> = (0..c)
            .rev()
            .filter(|&x| {
                let n = &self.nodes[x];
                n.alive && n.entry && n.out.iter().all(|e| matches!(e, Edge::Eval(_))) && n.state.position() == pos
            })
            .collect();
        for x in candidates {
            let (general, inst) = (self.nodes[x].state.clone(), self.nodes[c].state.clone());
            let seed = block_pairs(&general, &inst);
            if let Some(mu) = generalize::instance_from(self.ctx, &general, &inst, seed) {
                self.nodes[c].out.push(Edge::Back(x, mu));
                self.ctx.reused_entries += 1;
                if self.nodes[x].imported {
                    self.ctx.store_served += 1;
                }
                return true;
            }
        }
        false
    }

    /// The call abstraction `c` of a non-recursive summarized callee that no entry of this
    /// graph generalizes is tried against the run's summary store (the exact canonical key
    /// first, then the others newest first): the first stored entry that generalizes it
    /// (renamed apart into fresh variables; `generalize::instance_from`, z3 `unknown` = not
    /// covered) becomes an imported entry node — never expanded, no ITS transition leaves
    /// it — that `c` has a `Back` edge to, with the stored return states attached; they are
    /// intersected with the call like those of an entry built here. Sound because the stored
    /// summary's termination and memory safety hold for every state its entry represents,
    /// and its return states are weakly complete for it (docs/design/modular.md).
    ///
    /// A recursive callee's first call (no ancestor entry of its function: the call comes
    /// from outside its recursion group) is tried the same way (`Ctx::import_recursive`): its
    /// stored entries are its own `E_top`s, proved with their recursion cycles by its own
    /// analysis; the store only shows a reader summaries of functions outside the reader's
    /// own call-graph component, so no proof rests on itself.
    fn import_entry(&mut self, c: usize) -> bool {
        let (Some(store), Some((recursive, candidates))) = (self.ctx.store, self.stored_candidates(c)) else { return false };
        for stored in candidates {
            let x = self.nodes.len();
            let (general, returns) = stored.import(self.ctx, x);
            let inst = self.nodes[c].state.clone();
            let seed = block_pairs(&general, &inst);
            let Some(mu) = generalize::instance_from(self.ctx, &general, &inst, seed) else { continue };
            let x = self.add_node(general, None, true);
            self.nodes[x].entry = true;
            self.nodes[x].imported = true;
            self.nodes[c].out.push(Edge::Back(x, mu));
            self.summaries.extend(returns);
            self.ctx.store_served += 1;
            if recursive {
                self.ctx.recursive_served += 1;
            }
            store.note_served(&stored);
            return true;
        }
        false
    }

    /// The stored entries the call abstraction `c` may be served from (the exact canonical
    /// key first, then the newest), with whether the callee is recursive; `None` when this
    /// analysis may not use the store for `c`'s callee.
    fn stored_candidates(&self, c: usize) -> Option<(bool, Vec<std::sync::Arc<super::summary_store::StoredSummary>>)> {
        let store = self.ctx.store?;
        let func = self.nodes[c].state.top().func;
        let recursive = self.ctx.is_recursive(func);
        if !(self.ctx.summarizes_non_recursive(func) || recursive && self.ctx.import_recursive) {
            return None;
        }
        // (the producer does not enter the hash)
        let exact = super::summary_store::entry_hash(&super::summary_store::canonical(func, func, &self.nodes[c].state, &[]).entry);
        let reader = self.nodes[0].state.frames[0].func;
        Some((recursive, store.candidates(func, reader, Some(exact))))
    }

    /// Seed 002 §2.4(c), widening against the store: the call abstraction `c` that no stored
    /// entry covers (`import_entry` failed), of a callee of which this analysis already sees
    /// `SymexecLimits::max_stored_entries_per_function` stored entries, is generalized with
    /// the first of them (the exact key first, then the newest) by the merge of loop headers
    /// (Def. 3). The merged entry `m` is a child of `c` through a `Merge` edge — exactly the
    /// shape of a loop-header merge, μ from `m`'s variables to `c`'s given by the instance
    /// check (z3 `unknown`: no widening, `c` is analysed as an entry of its own) — and is
    /// expanded here; once its subgraph is proved it is stored (`symexec::exports`), so later
    /// calls it covers are served from it instead of each adding an entry of its own. Sound
    /// as any merge: `m` generalizes `c`, its return states are weakly complete for `m`, so
    /// for `c` through μ.
    fn widen_against_store(&mut self, c: usize) -> bool {
        let Some((recursive, stored)) = self.stored_candidates(c) else { return false };
        if stored.len() < self.limits.max_stored_entries_per_function {
            return false;
        }
        let Some(closest) = stored.first() else { return false };
        let (general, _) = closest.import(self.ctx, c);
        let inst = self.nodes[c].state.clone();
        let merged = generalize::merge(self.ctx, &general, &inst);
        let seed = block_pairs(&merged.state, &inst);
        let Some(mu) = generalize::instance_from(self.ctx, &merged.state, &inst, seed) else { return false };
        let m = self.add_node(merged.state, Some(c), true);
        self.nodes[m].entry = true;
        self.nodes[c].out.push(Edge::Merge(m, mu));
        self.note_origin(m, c);
        self.work.push(m);
        if !recursive {
            self.ctx.entries_built += 1;
        }
        self.ctx.widened_entries += 1;
        true
    }

    /// Call abstractions whose shared entry (`reuse_entry`) was discarded by a merge while
    /// they are alive become entries of their own and are expanded. Returns whether any was.
    fn reopen_orphans(&mut self) -> bool {
        let mut reopened = false;
        for k in 0..self.calls.len() {
            let (_, a) = self.calls[k];
            let node = &self.nodes[a];
            if !node.alive || !node.entry {
                continue;
            }
            let orphan = node.out.iter().any(|e| matches!(e, Edge::Back(x, _) if !self.nodes[*x].alive && !self.is_ancestor(*x, a)));
            if orphan {
                self.nodes[a].out.clear();
                self.work.push(a);
                reopened = true;
            }
        }
        reopened
    }

    fn is_ancestor(&self, x: usize, n: usize) -> bool {
        let mut p = self.nodes[n].parent;
        while let Some(y) = p {
            if y == x {
                return true;
            }
            p = self.nodes[y].parent;
        }
        false
    }

    /// The closest entry above `n` if it is a non-recursive summarized callee's (by the first
    /// entry of its chain), else `None`.
    fn callee_scope(&self, n: usize) -> Option<usize> {
        let mut x = self.nodes[n].parent;
        while let Some(k) = x {
            if self.nodes[k].entry {
                let func = self.nodes[k].state.top().func;
                return self.ctx.summarizes_non_recursive(func).then(|| self.entry_origin.get(&k).copied().unwrap_or(k));
            }
            x = self.nodes[k].parent;
        }
        None
    }

    /// `m` replaces `a` (an entry or a loop-header state): it continues `a`'s chain.
    fn note_origin(&mut self, m: usize, a: usize) {
        if self.nodes[a].entry {
            let origin = self.entry_origin.get(&a).copied().unwrap_or(a);
            self.entry_origin.insert(m, origin);
        } else {
            let origin = self.loop_origin.get(&a).copied().unwrap_or(a);
            self.loop_origin.insert(m, origin);
        }
    }

    /// The end of a run (program exit, or return from the bottom frame).
    fn add_leaf(&mut self, n: usize) {
        let c = self.add_node(State::default(), Some(n), false);
        self.nodes[c].end = End::Leaf;
        self.nodes[n].out.push(Edge::Eval(c));
    }

    /// A call of a summarized function from node `n`: the call node (the caller at the call,
    /// waiting for return states) and, below it, the call abstraction — the callee's frame
    /// alone, its KB projected onto the parameters — generalized like a loop header against
    /// the closest ancestor entry of the same function (recursion closes there).
    fn call(&mut self, n: usize, caller: State, entry: State) -> Result<(), String> {
        let mut caller = caller;
        let full = entry;
        let mut abs = full.clone();
        let top = abs.frames.pop().expect("the callee's frame");
        let callee = top.func;
        abs.frames = vec![top];
        // list invariants passed to a recursive callee move into its entry (its return states
        // hand back what remains of them); all others stay with the caller, and the callee
        // must not touch their cells (an access is an error state there)
        if self.ctx.summarized(callee) == Summarized::WithMemory && !self.ctx.summarizes_non_recursive(callee) {
            super::lists_calls::hand_to_callee(self.ctx, &full, &mut caller, &mut abs);
        } else {
            abs.lists.clear();
        }
        let c = self.add_node(caller, Some(n), false);
        self.nodes[n].out.push(Edge::Eval(c));
        if self.ctx.summarizes_non_recursive(callee) {
            self.ctx.callee_summary_calls += 1;
        }
        if self.ctx.summarized(callee) == Summarized::Registers {
            // memory-free callees (facts::recursion): the caller's memory is not part of the
            // entry, and the call leaves it unchanged
            abs.allocs.clear();
            abs.pt.clear();
        } else {
            // the dropped frames' stack memory stays allocated as foreign memory
            for al in &mut abs.allocs {
                if matches!(al.kind, AllocKind::Stack(_) | AllocKind::StackDynamic(_)) {
                    al.kind = AllocKind::Foreign;
                }
            }
            // a cell at the start of its allocation is addressed by the start itself, so that
            // entries from different call sites name it alike (merges match addresses by name)
            for i in 0..abs.pt.len() {
                let Some(start) = abs.alloc_by_id(abs.pt[i].alloc).map(|al| al.start.clone()) else { continue };
                if abs.pt[i].addr == start {
                    continue;
                }
                if let Some(eq) = Atom::cmp(&LinExpr::var(&abs.pt[i].addr), Rel::Eq, &LinExpr::var(&start)) {
                    if self.ctx.entails(&abs, &[eq]) {
                        abs.pt[i].addr = start;
                    }
                }
            }
        }
        abs.inputs.clear();
        abs.inputs_exact = false;
        // every parameter lies in its type's range in its view (as in a root's initial state):
        // explicit, since a copied argument carries its range only through the caller's facts
        if self.ctx.sem != IntSemantics::Math {
            let params = self.ctx.module.function(callee).params.clone();
            for (p, ty) in params {
                let (Type::Int(bits), Some(v)) = (ty, abs.top().lv.get(&p).cloned()) else { continue };
                let view = self.ctx.view(callee, p);
                for at in super::bv::range_atoms(&LinExpr::var(&v), bits, view) {
                    abs.add_atom(at);
                }
            }
        }
        let a = self.gen_point_child(c, abs, true)?;
        self.calls.push((c, a));
        Ok(())
    }

    /// Unwinding out of the bottom frame, reached from node `n`. In the analysed function's
    /// own graph the run ends there (a leaf; the panic's location is noted for the report).
    /// Below an entry the bottom frame is a summarized callee's: its caller would continue at
    /// the unwind destination of its call, which return states do not describe — unknown.
    fn unwound(&mut self, n: usize, state: &State, loc: &Option<SrcLoc>) -> Result<(), String> {
        let mut x = Some(n);
        while let Some(k) = x {
            if self.nodes[k].entry {
                let name = &self.ctx.module.function(state.top().func).name;
                return Err(format!("unwinding out of the summarized function `{name}` (a panic in a summarized call) is not modelled{}", loc_text(loc)));
            }
            x = self.nodes[k].parent;
        }
        self.add_leaf(n);
        self.panics.insert(match loc {
            Some(l) if l.line > 0 => format!("{}:{}", l.file, l.line),
            _ => "an unknown location".into(),
        });
        Ok(())
    }

    /// A return from the bottom frame reached from node `n`: a leaf of the run, and a return
    /// state of the closest entry above it (if the bottom frame is a summarized callee's).
    fn ret(&mut self, n: usize, state: State, value: Option<(LinExpr, View)>) {
        self.add_leaf(n);
        let mut x = Some(n);
        while let Some(k) = x {
            if self.nodes[k].entry {
                break;
            }
            x = self.nodes[k].parent;
        }
        let entry = match x {
            Some(e) => e,
            // the analysed function's own returns: return states of its root (`E_top`)
            None if self.ctx.root_entry => 0,
            None => return,
        };
        let ghosts = self.nodes[entry].state.root_vars();
        let order: Vec<Var> = ghosts.iter().cloned().collect();
        let entry_allocs: std::collections::BTreeSet<u32> = self.nodes[entry].state.allocs.iter().map(|a| a.id).collect();
        let new = ReturnSummary::new(self.ctx, entry, &state, &ghosts, &entry_allocs, value);
        let block = new.block;
        let mut same: Vec<usize> = vec![];
        for (i, old) in self.summaries.iter().enumerate() {
            if old.entry == entry && old.block == block {
                same.push(i);
            }
        }
        for &i in &same {
            let old = self.summaries[i].clone();
            if new.covered_by(self.ctx, &old, state.top().func, &order) {
                return;
            }
        }
        // Beyond a few return states per return, widen the newest by the new one, so that
        // recursion through the returned values reaches a fixpoint.
        let widened = match same.last() {
            Some(&i) if same.len() >= RETURN_STATES_BEFORE_WIDENING => self.summaries[i].clone().widen(self.ctx, &new, &ghosts),
            _ => new,
        };
        tracing::debug!("return state of entry n{entry}: {:?}", widened);
        self.summaries.push(widened);
    }

    /// Where the call abstraction `a` is analysed: itself (an entry of its own), the ancestor
    /// entry it is an instance of, or the merge that replaced it — with μ from that entry's
    /// variables to `a`'s.
    fn resolve(&self, a: usize) -> Option<(usize, Mu)> {
        let node = &self.nodes[a];
        if !node.alive {
            return None;
        }
        for e in &node.out {
            match e {
                Edge::Back(x, mu) | Edge::Merge(x, mu) => return self.nodes[*x].alive.then(|| (*x, mu.clone())),
                Edge::Eval(_) => {}
            }
        }
        node.entry.then(|| (a, Mu::new()))
    }

    /// Intersects every waiting call with each return state of its entry it has not been
    /// intersected with yet (Def. 8): the caller's state, the call abstraction's link to the
    /// arguments, and the return state's facts with the ghosts renamed to the call's values;
    /// infeasible intersections are pruned. Returns whether new nodes were added.
    fn intersect_waiting_calls(&mut self) -> Result<bool, String> {
        let mut added = false;
        for k in 0..self.calls.len() {
            let (c, a) = self.calls[k];
            if !self.nodes[c].alive {
                continue;
            }
            let Some((entry, mu)) = self.resolve(a) else { continue };
            let ghosts = self.nodes[entry].state.root_vars();
            let with_memory = self.ctx.summarized(self.nodes[a].state.top().func) == Summarized::WithMemory;
            for si in 0..self.summaries.len() {
                if self.summaries[si].entry != entry || !self.intersected.insert((c, si)) {
                    continue;
                }
                self.check_limits()?;
                let sum = self.summaries[si].clone();
                let mut st = self.nodes[c].state.clone();
                for f in &self.nodes[a].arrival_kb {
                    st.add_fact(f.clone());
                }
                let value = sum.value.as_ref().map(|(_, view)| (self.ctx.fresh("ret"), *view));
                let nu = sum.renaming(self.ctx, &ghosts, &mu, value.as_ref().map(|(v, _)| v));
                let facts: Vec<Fact> = sum.facts.iter().map(|f| f.rename(&|v| apply(&nu, v))).collect();
                let probe = facts.iter().flat_map(|f| f.vars()).next();
                for f in facts {
                    st.add_fact(f);
                }
                if with_memory {
                    self.memory_after_call(&mut st, entry, a, &mu, &sum, &nu)?;
                }
                if let Some(v) = probe {
                    if self.infeasible(&st, &v) {
                        continue;
                    }
                }
                st.inputs_exact = false;
                for next in exec::finish_call(self.ctx, st, value.map(|(v, view)| (LinExpr::var(&v), view))) {
                    let i = self.add_node(next, Some(c), false);
                    self.nodes[c].out.push(Edge::Eval(i));
                    self.work.push(i);
                    added = true;
                }
            }
        }
        Ok(added)
    }

    /// The caller's memory after the call (Def. 8): the allocations of the entry `x` are
    /// replaced by what the return state says of them (its contents; gone if the callee freed
    /// them), with the caller's identity and kind of each restored through μ; the callee's
    /// new heap blocks are added; the caller's allocations the entry does not know (the
    /// `lost` ones) stay as they were with their contents — a callee whose graph has no error
    /// state cannot have touched them.
    fn memory_after_call(&mut self, st: &mut State, x: usize, a: usize, mu: &Mu, sum: &ReturnSummary, nu: &Mu) -> Result<(), String> {
        let mut idmap: HashMap<u32, u32> = HashMap::new();
        for xa in &self.nodes[x].state.allocs {
            let (s0, e0) = (apply(mu, &xa.start), apply(mu, &xa.end));
            let Some(aa) = self.nodes[a].state.allocs.iter().find(|aa| aa.start == s0 && aa.end == e0) else {
                return Err("a call's memory does not match the entry it is an instance of".into());
            };
            idmap.insert(xa.id, aa.id);
        }
        let mapped: HashSet<u32> = idmap.values().copied().collect();
        let caller_kinds: HashMap<u32, AllocKind> = st.allocs.iter().map(|al| (al.id, al.kind)).collect();
        st.allocs.retain(|al| !mapped.contains(&al.id));
        st.pt.retain(|p| !mapped.contains(&p.alloc));
        let mut new_ids: HashMap<u32, u32> = HashMap::new();
        for ra in &sum.allocs {
            let (id, kind) = match idmap.get(&ra.id) {
                Some(cid) => match caller_kinds.get(cid) {
                    Some(k) => (*cid, *k),
                    None => return Err("a call's memory does not match the caller's".into()),
                },
                None if ra.kind == AllocKind::Heap => {
                    let id = self.ctx.fresh_alloc_id();
                    new_ids.insert(ra.id, id);
                    (id, AllocKind::Heap)
                }
                None => return Err("a return state holds memory of unknown origin".into()),
            };
            st.allocs.push(Alloc { id, start: apply(nu, &ra.start), end: apply(nu, &ra.end), kind, pristine: ra.pristine.clone() });
        }
        for rp in &sum.pt {
            let Some(alloc) = idmap.get(&rp.alloc).or_else(|| new_ids.get(&rp.alloc)).copied() else { continue };
            st.pt.push(PtEntry { addr: apply(nu, &rp.addr), value: apply(nu, &rp.value), alloc, ..rp.clone() });
        }
        // seed 001: the return state's list invariants (built, or handed back, by the callee)
        st.lists.extend(sum.lists.iter().map(|l| l.rename(&|v| apply(nu, v))));
        Ok(())
    }

    /// Whether ⟨st⟩ is unsatisfiable on the slice around `v` (it entails both `v ≤ 0` and
    /// `v ≥ 1`).
    fn infeasible(&mut self, st: &State, v: &Var) -> bool {
        let le = Atom::var_const(v, Rel::Le, 0);
        let ge = Atom::var_const(v, Rel::Ge, 1);
        self.ctx.entails(st, &[le]) && self.ctx.entails(st, &[ge])
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

/// Blocks of an entry `general` and a call abstraction `inst` paired through the pointer
/// parameters: a parameter whose KB states it equal to a block's start (`p − start = 0`, as
/// the caller's `a` for its array `a`) pairs that block with the block the other state's same
/// parameter starts. `generalize::instance` starts from this pairing; without it the block
/// names the two states share (both are on the caller's path) would pair every block with
/// itself, and a call on another block of the same shape would never match. Any pairing is
/// checked by the instance test's entailment.
fn block_pairs(general: &State, inst: &State) -> Mu {
    let (Some(fg), Some(fi)) = (general.frames.last(), inst.frames.last()) else { return Mu::new() };
    let (sg, si) = (param_starts(general), param_starts(inst));
    let mut seed = Mu::new();
    for (x, vg) in &fg.lv {
        let (Some(a), Some(b)) = (sg.get(vg), fi.lv.get(x).and_then(|vi| si.get(vi))) else { continue };
        seed.insert(a.clone(), b.clone());
    }
    seed
}

/// Variables the KB states equal to a block's start (`v − start = 0`), with that start.
fn param_starts(s: &State) -> HashMap<Var, Var> {
    use super::facts::ARel;
    let starts: HashSet<&Var> = s.allocs.iter().map(|al| &al.start).collect();
    let mut equal: HashMap<Var, Var> = HashMap::new();
    for f in &s.kb {
        let Fact::Atom(a) = f else { continue };
        if a.rel != ARel::Eq || a.e.constant != 0 || a.e.coeffs.len() != 2 {
            continue;
        }
        let mut it = a.e.coeffs.iter();
        let (Some((x, cx)), Some((y, cy))) = (it.next(), it.next()) else { continue };
        if *cx + *cy != 0 || cx.abs() != 1 {
            continue;
        }
        if starts.contains(y) && !starts.contains(x) {
            equal.insert(x.clone(), y.clone());
        } else if starts.contains(x) && !starts.contains(y) {
            equal.insert(y.clone(), x.clone());
        }
    }
    equal
}
