//! Symbolic execution of the engine IR over abstract states (seed 000, digest-000): builds
//! the symbolic execution graph with generalization, decides memory safety from it, and turns
//! its cycles into an integer transition system for the termination back end.
//!
//! # Choices the paper leaves open (and why they are sound)
//! - **Whole programs with calls.** Calls of non-recursive defined functions are inlined (a
//!   frame is pushed); a position is the whole call stack. Calls of recursive functions go
//!   through call abstractions, entries and return states (seed 002; ARCHITECTURE.md,
//!   "Recursion through summaries"), and so do, in the pipeline's first attempt
//!   ([`analyze_summarizing`]), non-recursive callees with a loop (ARCHITECTURE.md,
//!   "Summaries of non-recursive callees").
//! - **Memory.** `alloc(start, end)` has an inclusive end (digest §0.3: `end = start + size − 1`).
//!   Allocations are disjoint, start at ≥ 1 and end at ≤ 2^63 − 1 (objects in the lower half of
//!   the address space). `malloc`/`calloc` assume success (as the interpreter does); contents of
//!   fresh heap memory (also calloc's zeros) are treated as arbitrary — an over-approximation.
//!   A PT entry records the allocation its access was proved to lie in, so a store only has to
//!   check the entries of the same allocation for overlap (different allocations are disjoint).
//!   Globals are allocations created in the initial state; their initializer is readable at
//!   provably constant offsets until the first write into them.
//! - **Pointer congruences.** Merges keep only linear facts, so `p ≡ a (mod 4)` of an `int`
//!   cursor is lost. A static per-function analysis (`facts::congruence`) gives `p − B ≡ 0 (mod g)`
//!   for a root pointer local `B`; when an access at local `p` is not proved in bounds, the
//!   alloc check is retried with `p − LV(B) = g·k` (k a fresh integer), a fact of every run
//!   that reaches the access, so the retry only drops unreachable concrete states. Cursors
//!   kept in memory (a Rust slice iterator) get theirs from `alignment`: per-variable
//!   `x ≡ 0 (mod g)` kept by merges that both states entail.
//! - **Stack frames.** Returning frees the frame's allocas (later accesses fail the alloc check).
//!   `llvm.stackrestore` frees every alloca of the frame that may have run after a stacksave
//!   (non-constant count, or outside the entry block, or after a stacksave there): a superset
//!   of what LLVM frees, so a use after `stackrestore` always reaches the error state.
//! - **Integers.** `C`/`Wrap`: each SSA value is stored in a signed or unsigned view chosen by
//!   the seed-004 heuristic (`facts::views`), rules read operands in the view they need and convert by
//!   refinement, wrap-around is split into exact cases (`bv`). `Math` keeps the signed
//!   representation of `ints` with unbounded `nsw` arithmetic; flag-less results are kept when
//!   they reach 2^w and wrapped below (`ints::math_reduce`), unsigned readings are
//!   `ints::unsigned_view` (SEMANTICS.md, "Math and conversions"). `C` turns possible `nsw`/`nuw`
//!   overflow, division by zero and over-wide shifts into error states (undefined behaviour).
//! - **Refinement.** Comparisons, selects, branches, switches, min/max and abs split the state
//!   when the condition is not decided by ⟨a⟩ (digest App. A.4), so KB stays a set of linear
//!   facts without disjunctions (except allocation disjointness inside ⟨a⟩).
//! - **Generalization points.** Only loop headers (targets of DFS back edges), right after the
//!   phis, which are evaluated in parallel on block entry; positions include the previous block
//!   like the paper's `b_prev`. At these points dead locals are dropped from LV and the KB is
//!   projected onto the state's variables (`generalize::cleanup`). The instance check extends
//!   μ by unifying unmapped AL/PT variables; (c) is one z3 query. Merging follows Def. 3 with ⟪a⟫
//!   built from the sliced ⟨a⟩. Finiteness: Thm. 4 plus hard limits (merges per position, nodes,
//!   steps, deadline) ⇒ MAYBE with the reason.
//! - **ITS.** Chained paths between generalized loop headers (see `its_build`).
//! - **Verdicts.** This module proves no termination itself: it reports the graph's outcome
//!   (`GraphOutcome`), and the pipeline hands a complete graph's ITS to the termination back
//!   end. YES only from a complete graph without error states plus a back-end proof; never
//!   NO: a non-terminating ITS run is not a program run.
//!
//! # Known limitations (each gives MAYBE with its reason)
//! - Calls through function pointers; unknown external functions; variadic calls; recursion
//!   whose call contexts or return states do not converge within the merge limits.
//! - Shape analysis for singly linked lists only (`lists`, seed 001: NULL-terminated lists
//!   and segments; across calls of recursive functions through `lists_calls`, not of
//!   non-recursive summarized ones); other recursive data structures are lost at merges, so
//!   their loads fail the allocation check.
//! - Divisibility is tracked only for pointer offsets from a root pointer of the same frame
//!   (see `facts::congruence`); integer congruences (`i ≡ 0 (mod 2)`) are lost at merges.
//! - Termination arguments that need congruences of integers (`x` stays even) or the number of
//!   remaining wraps (`x += 3` until `x % 3 == 0`) are not found.

mod aggregate;
mod alignment;
mod buffer_relations;
mod bv;
mod cell_names;
mod ctx;
mod exec;
mod dead_slots;
mod facts;
mod generalize;
mod graph;
mod inbounds;
mod ints;
mod its_build;
mod lists;
mod lists_calls;
mod lists_cyclic;
mod lists_owned;
mod lists_positions;
mod lists_rust;
mod lists_ranges;
mod lists_values;
mod lists_backward;
mod lists_prev;
mod projection;
mod libc;
mod returns;
mod summary_store;
mod summary_portable;
mod rust_alloc;
mod rust_cells;
mod rust_owned_vec;
mod rust_vec;
mod state;
mod unreached_globals;

#[cfg(test)]
mod bv_tests;
#[cfg(test)]
mod tests;
#[cfg(test)]
mod lists_tests;
#[cfg(test)]
mod lists_backward_tests;
#[cfg(test)]
mod lists_prev_tests;
#[cfg(test)]
mod lists_owned_tests;
#[cfg(test)]
mod lists_cyclic_tests;
#[cfg(test)]
mod dead_slots_tests;
#[cfg(test)]
mod lists_ranges_tests;
#[cfg(test)]
mod unreached_globals_tests;
#[cfg(test)]
mod drift_widening_tests;
#[cfg(test)]
mod lists_calls_tests;
#[cfg(test)]
mod recursion_tests;
#[cfg(test)]
mod callee_summary_tests;
#[cfg(test)]
mod rust_tests;
#[cfg(test)]
mod summary_store_tests;
#[cfg(test)]
mod summary_portable_tests;
#[cfg(test)]
mod strings_tests;
#[cfg(test)]
mod widening_tests;
#[cfg(test)]
mod checksum_bounds_tests;
#[cfg(test)]
mod list_merge_candidates_tests;

pub use summary_portable::SUMMARY_FORMAT;
pub use summary_store::{Export, SummaryKey, SummaryPersistence, SummaryStore};

use crate::config::Config;
use crate::facts::ModuleFacts;
use crate::ir::{FuncId, GlobalInit, Module, Type};
use crate::logic::{LinExpr, Var};
use crate::smt::Budget;
use crate::verdict::{IntSemantics, MemorySafety, TerminationProof};
use ctx::Ctx;
use state::{Alloc, AllocKind, Frame, State};
use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;
use std::time::Instant;

/// Everything the symbolic execution establishes about the runs of one function. It never
/// proves termination itself: a complete graph's ITS goes to the termination back end (the
/// pipeline's choice of prover and time).
#[derive(Clone, Debug)]
pub struct Analysis {
    /// What the graph says about termination.
    pub graph: GraphOutcome,
    /// `Proved` only if the finished graph has no reachable error state.
    pub memory_safety: MemorySafety,
    /// For each error state: nondeterministic inputs in consumption order, from a z3 model of
    /// the path condition (name of the `__VERIFIER_nondet_*` function, value as a mathematical
    /// integer in the signed two's-complement view of its type — reduce mod 2^width for
    /// unsigned types). Candidates only: replay them before claiming a violation.
    pub error_inputs: Vec<Vec<(String, i128)>>,
    pub stats: Vec<(String, String)>,
    /// Summaries this analysis can give the run's summary store, each once its termination
    /// is proved (`pipeline`): only from a complete graph without error states.
    pub exports: Vec<Export>,
}

/// The termination side of a finished (or abandoned) graph.
#[derive(Clone, Debug)]
pub enum GraphOutcome {
    /// Termination cannot be argued from this graph (an error state is reachable, the graph
    /// is incomplete, or its ITS could not be built): the MAYBE reason.
    Unknown(String),
    /// A complete graph without cycles: every run terminates.
    NoCycles,
    /// A complete graph with cycles, and the ITS of its cycles (Def. 6): the runs terminate
    /// if the ITS does (its non-termination is no program run: the ITS over-approximates).
    Its(GraphIts),
}

/// The ITS of a complete graph with what is needed to make its proofs readable.
#[derive(Clone, Debug)]
pub struct GraphIts {
    pub its: crate::its::Its,
    /// Per ITS location: positional ITS variable ↦ the program name LV gives it (`x@12`).
    pub legends: BTreeMap<String, BTreeMap<Var, Var>>,
    /// One line about the graph and the ITS, for the proof's notes.
    pub summary: String,
    /// Per ITS location: the source loop its graph node lies in (absent outside loops).
    pub loops: BTreeMap<String, crate::verdict::SourceLoop>,
}

impl Analysis {
    /// The ITS built from the graph, if one was.
    pub fn its(&self) -> Option<&crate::its::Its> {
        match &self.graph {
            GraphOutcome::Its(g) => Some(&g.its),
            _ => None,
        }
    }
}

/// The ITS location of the graph behind `location`: the termination prover's refinements
/// split a location per incoming rule as `LOCATION@RULE` (`termination::refine`) and per
/// truth assignment of guard predicates as `LOCATION[+-…]` (`termination::split`).
fn graph_location(location: &str) -> &str {
    let mut l = location;
    loop {
        let split = l.strip_suffix(']').and_then(|h| h.rsplit_once('[')).filter(|(_, tag)| !tag.is_empty() && tag.bytes().all(|b| b == b'+' || b == b'-'));
        if let Some((head, _)) = split {
            l = head;
            continue;
        }
        match l.rsplit_once('@') {
            Some((head, rule)) if !rule.is_empty() && rule.bytes().all(|b| b.is_ascii_digit()) => l = head,
            _ => break,
        }
    }
    l
}

impl GraphIts {
    /// Rewrites positional ITS variables in the ranking functions of `proof` (a proof of this
    /// ITS) to program names, names each component's source loops, and notes the graph's size.
    pub fn readable_proof(&self, mut proof: TerminationProof) -> TerminationProof {
        for comp in &mut proof.components {
            comp.loops = comp.locations.iter().map(|l| self.loops.get(graph_location(l)).cloned()).collect();
            for phase in &mut comp.phases {
                for (loc, f) in &mut phase.functions {
                    if let Some(map) = self.legends.get(graph_location(loc)) {
                        let mut out = LinExpr::constant(f.constant);
                        for (v, c) in &f.coeffs {
                            let nv = map.get(v).cloned().unwrap_or_else(|| v.clone());
                            out = out.add_scaled(*c, &LinExpr::var(&nv)).unwrap_or(out.clone());
                        }
                        *f = out;
                    }
                }
            }
        }
        proof.notes.push(self.summary.clone());
        proof
    }
}

fn initial_state(ctx: &mut Ctx<'_>, module: &Module, entry: FuncId, sem: IntSemantics) -> State {
    let mut s = State { inputs_exact: true, ..State::default() };
    // Only the globals a run from `entry` can reach get a block (ARCHITECTURE.md, "Globals of
    // an entry"); naming another one is a bug that `exec::operand` makes a MAYBE.
    let facts = ctx.facts;
    let reach = facts.reachable_globals(module, entry);
    for (i, g) in module.globals.iter().enumerate() {
        if g.size == 0 || !reach.contains(crate::ir::GlobalId(i as u32)) {
            continue;
        }
        let start = ctx.fresh(&format!("g_{}", g.name));
        let end = ctx.fresh("end");
        if let Some(a) = facts::Atom::cmp(
            &LinExpr::var(&end),
            crate::logic::Rel::Eq,
            &LinExpr::var(&start).add_scaled(1, &LinExpr::constant(g.size as i128 - 1)).unwrap_or_default(),
        ) {
            s.add_atom(a);
        }
        s.add_atom(facts::Atom::var_const(&end, crate::logic::Rel::Le, exec::ADDR_MAX));
        let pristine = if g.size <= 1 << 16 {
            match &g.init {
                GlobalInit::Zero => Some(Arc::new(vec![Some(0u8); g.size as usize])),
                GlobalInit::Bytes(b) => Some(Arc::new(b.clone())),
                GlobalInit::External => None,
            }
        } else {
            None
        };
        let id = ctx.fresh_alloc_id();
        s.allocs.push(Alloc { id, start, end, kind: AllocKind::Global(crate::ir::GlobalId(i as u32)), pristine });
    }
    let f = module.function(entry);
    let mut lv = BTreeMap::new();
    for (i, (p, ty)) in f.params.iter().enumerate() {
        let v = ctx.fresh(&f.value_name(*p));
        let facts = match ty {
            Type::Int(b) if sem != IntSemantics::Math => bv::range_atoms(&LinExpr::var(&v), *b, ctx.view(entry, *p)),
            _ => exec::param_facts(&LinExpr::var(&v), ty, module.pointer_bits, sem),
        };
        for a in facts {
            s.add_atom(a);
        }
        if let (Type::Ptr, Some(attrs)) = (ty, f.param_attrs.get(i)) {
            if let Some(block) = param_block(ctx, &v, attrs) {
                for a in block.1 {
                    s.add_atom(a);
                }
                s.allocs.push(block.0);
            }
        }
        lv.insert(*p, v);
    }
    // Rust references (from debug info), once every parameter has its variable
    for (i, (p, _)) in f.params.iter().enumerate() {
        let Some(rust) = f.param_attrs.get(i).and_then(|a| a.rust) else { continue };
        if s.allocs.iter().any(|a| Some(&a.start) == lv.get(p)) {
            continue;
        }
        let len = match rust {
            crate::ir::RustParam::Slice { len_param, .. } => f.params.get(len_param as usize).and_then(|(q, _)| lv.get(q)).cloned(),
            crate::ir::RustParam::Ref { .. } | crate::ir::RustParam::VecRef { .. } => None,
        };
        let Some(v) = lv.get(p).cloned() else { continue };
        // a Rust reference is aligned to its type (alignment.rs), even an empty slice's
        if let Some(n) = f.param_attrs.get(i).and_then(|a| a.align) {
            alignment::set(ctx, &v, n);
        }
        if let Some((allocs, atoms, cells)) = rust_vec::blocks(ctx, &v, rust) {
            atoms.into_iter().for_each(|a| s.add_atom(a));
            s.allocs.extend(allocs);
            s.pt.extend(cells);
            continue;
        }
        if let Some((alloc, atoms)) = rust_param_block(ctx, &v, rust, len.as_ref()) {
            for a in atoms {
                s.add_atom(a);
            }
            s.allocs.push(alloc);
        }
    }
    s.frames.push(Frame { func: entry, block: crate::ir::BlockId(0), prev: None, idx: 0, lv });
    s
}

/// The memory a pointer parameter of a root is guaranteed to point to (design §6): with
/// `dereferenceable(N)` and `noalias` (rustc's `&mut T`, `Box<T>`), N bytes at the pointer are
/// allocated, readable and writable, and no other pointer the function can see reaches them
/// during the call — so they are one block of their own, disjoint from every other block,
/// owned by the caller (`Foreign`: the function can neither free it nor does its return pop
/// it), with arbitrary contents. Without `noalias` the block could be a global or another
/// parameter's (the disjointness of blocks would be a wrong assumption), and a `readonly`
/// parameter may not be written (a write is undefined behaviour this block would not
/// report): both get no block, so every access through them is an error state.
fn param_block(ctx: &mut Ctx<'_>, p: &Var, attrs: &crate::ir::ParamAttrs) -> Option<(Alloc, Vec<facts::Atom>)> {
    let n = attrs.dereferenceable.filter(|n| *n > 0)?;
    if !attrs.noalias || attrs.readonly {
        return None;
    }
    let end = ctx.fresh("end");
    let mut atoms = vec![];
    atoms.extend(facts::Atom::cmp(&LinExpr::var(&end), crate::logic::Rel::Eq, &LinExpr::var(p).add_scaled(1, &LinExpr::constant(n as i128 - 1))?));
    atoms.push(facts::Atom::var_const(&end, crate::logic::Rel::Le, exec::ADDR_MAX));
    atoms.push(facts::Atom::var_const(p, crate::logic::Rel::Ge, 1));
    let id = ctx.fresh_alloc_id();
    Some((Alloc { id, start: p.clone(), end, kind: AllocKind::Foreign, pristine: None }, atoms))
}

/// The memory a Rust reference parameter `p` of a root points to (ARCHITECTURE.md, "Rust
/// semantics"), by its source type: `&mut T` → `size_of::<T>()` bytes, disjoint from every
/// other block (a `&mut` is unique for the whole call); `&T` with a primitive `T` → the same,
/// read-only, and possibly overlapping other shared references and globals (shared references
/// may alias; memory behind them cannot change during the call); a slice `&[T]`/`&mut [T]` with
/// length `len` → `len · size_of::<T>()` bytes (possibly empty). Arbitrary contents, owned by
/// the caller. `&T` to a type that may contain an `UnsafeCell` (anything not primitive) and
/// references to zero-sized types get no block. The validity of these facts is Rust's: the
/// caller respects the aliasing rules (no undefined behaviour before the call).
fn rust_param_block(ctx: &mut Ctx<'_>, p: &Var, rust: crate::ir::RustParam, len: Option<&Var>) -> Option<(Alloc, Vec<facts::Atom>)> {
    use crate::ir::RustParam;
    use crate::logic::Rel;
    let (mutable, freeze, size, may_be_empty) = match rust {
        RustParam::Ref { mutable, size, freeze } if size > 0 => (mutable, freeze, LinExpr::constant(size as i128), false),
        RustParam::Slice { mutable, elem_size, freeze, .. } if elem_size > 0 => (mutable, freeze, LinExpr::var(len?).scale(elem_size as i128)?, true),
        _ => return None,
    };
    if !mutable && !freeze {
        return None;
    }
    let end = ctx.fresh("end");
    let mut atoms = vec![];
    atoms.extend(facts::Atom::cmp(&LinExpr::var(&end), Rel::Eq, &LinExpr::var(p).add_scaled(1, &size)?.add_scaled(1, &LinExpr::constant(-1))?));
    atoms.push(facts::Atom::var_const(&end, Rel::Le, exec::ADDR_MAX));
    atoms.push(facts::Atom::var_const(p, Rel::Ge, 1));
    if let Some(len) = len {
        // a slice covers at most `isize::MAX` bytes, so its length is below 2^63 and reads
        // alike in the signed and the unsigned view (the length is stored in either)
        atoms.push(facts::Atom::var_const(len, Rel::Ge, 0));
        atoms.extend(facts::Atom::cmp(&size, Rel::Le, &LinExpr::constant(exec::ADDR_MAX)));
    }
    let id = ctx.fresh_alloc_id();
    Some((Alloc { id, start: p.clone(), end, kind: AllocKind::RefParam { mutable, may_be_empty }, pristine: None }, atoms))
}

/// The statistic of integer fields of chains considered for list invariants: an attempt
/// with per-cell value ranges (`config::ListValueRanges::Retry`) is tried only after one
/// that has it.
pub const LIST_INT_FIELDS: &str = "integer fields of list chains";

/// Runs the symbolic execution, memory-safety check and ITS construction for the runs of
/// `entry`, within `config`'s symbolic-execution and ITS limits.
pub fn analyze(module: &Module, facts: &ModuleFacts, entry: FuncId, config: &Config, deadline: Instant) -> Analysis {
    analyze_assuming(module, facts, entry, config, deadline, &BTreeSet::new())
}

/// [`analyze`] that, with a `store`, records the returns of `entry` itself as return states
/// of its root (its `E_top`) when `entry` is a function the configured mode summarizes, so
/// that the analysis exports them (`Analysis::exports`).
///
/// With `imports` = [`Imports::Recursive`], a first call of a recursive callee outside the
/// function's own recursion group is served from the store when a stored entry covers it.
pub fn analyze_seeding(module: &Module, facts: &ModuleFacts, entry: FuncId, config: &Config, deadline: Instant, store: Option<&SummaryStore>, imports: Imports) -> Analysis {
    analyze_with(module, facts, entry, config, deadline, &BTreeSet::new(), crate::config::CalleeSummaries::Off, store, imports)
}

/// Which calls of callees executed through summaries may import stored entries besides those
/// of non-recursive summarized callees (which the summarizing attempts always may).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Imports {
    /// Recursive callees' calls from outside their recursion group as well.
    Recursive,
    /// Only non-recursive summarized callees: every recursive callee's graph is built here.
    NonRecursive,
}

/// [`analyze`], with the calls of `proved_callees` not executed (see `Ctx::proved_callees`:
/// the caller must only name functions proved to terminate and to be memory safe for all
/// arguments and whose code touches no memory).
pub fn analyze_assuming(module: &Module, facts: &ModuleFacts, entry: FuncId, config: &Config, deadline: Instant, proved_callees: &BTreeSet<FuncId>) -> Analysis {
    analyze_with(module, facts, entry, config, deadline, proved_callees, crate::config::CalleeSummaries::Off, None, Imports::NonRecursive)
}

/// [`analyze_assuming`] with a summary store: the other callees the configured mode selects
/// go through summaries served from `store` where it covers their calls (built otherwise),
/// and the analysis exports its summaries like [`analyze_summarizing`]. Without a store it is
/// [`analyze_assuming`].
pub fn analyze_assuming_with_store(module: &Module, facts: &ModuleFacts, entry: FuncId, config: &Config, deadline: Instant, proved_callees: &BTreeSet<FuncId>, store: Option<&SummaryStore>) -> Analysis {
    let mode = if store.is_some() { config.symexec().callee_summaries } else { crate::config::CalleeSummaries::Off };
    analyze_with(module, facts, entry, config, deadline, proved_callees, mode, store, Imports::Recursive)
}

/// [`analyze`], with the non-recursive callees `callee_summaries` selects going through
/// summaries (call abstraction, entry, return states, intersection; an entry built for one
/// call serves every later call it generalizes) instead of being executed in place. With a
/// `store`, a call that is an instance of a stored entry is served from it, and the
/// analysis exports its callee entries' summaries (and its own, see [`analyze_seeding`]).
pub fn analyze_summarizing(module: &Module, facts: &ModuleFacts, entry: FuncId, config: &Config, deadline: Instant, callee_summaries: crate::config::CalleeSummaries, store: Option<&SummaryStore>) -> Analysis {
    analyze_with(module, facts, entry, config, deadline, &BTreeSet::new(), callee_summaries, store, Imports::Recursive)
}

/// Whether a function `entry` may call (directly or through other defined functions) is one
/// whose calls `callee_summaries` sends through summaries: otherwise [`analyze_summarizing`]
/// is [`analyze`].
pub fn summarizes_a_callee(module: &Module, facts: &ModuleFacts, entry: FuncId, callee_summaries: crate::config::CalleeSummaries) -> bool {
    let mut seen = BTreeSet::from([entry]);
    let mut todo = vec![entry];
    while let Some(f) = todo.pop() {
        for block in &module.function(f).blocks {
            for instr in &block.instrs {
                let crate::ir::Op::Call { callee: crate::ir::Callee::Direct(g), .. } = &instr.op else { continue };
                if module.functions.get(g.0 as usize).is_none_or(|gf| gf.is_declaration()) || !seen.insert(*g) {
                    continue;
                }
                if ctx::summarizes_non_recursive(module, facts, callee_summaries, *g) {
                    return true;
                }
                todo.push(*g);
            }
        }
    }
    false
}

#[allow(clippy::too_many_arguments)]
fn analyze_with(module: &Module, facts: &ModuleFacts, entry: FuncId, config: &Config, deadline: Instant, proved_callees: &BTreeSet<FuncId>, callee_summaries: crate::config::CalleeSummaries, store: Option<&SummaryStore>, imports: Imports) -> Analysis {
    let started = Instant::now();
    let mut stats = vec![];
    let limits = config.symexec();
    if module.functions.get(entry.0 as usize).is_none_or(|f| f.is_declaration()) {
        let reason = format!("entry function #{} is not defined", entry.0);
        return Analysis { graph: GraphOutcome::Unknown(reason.clone()), memory_safety: MemorySafety::Unknown { reason }, error_inputs: vec![], stats, exports: vec![] };
    };
    let budget = Budget::until(deadline, limits.query_limit);
    let mut ctx = Ctx::new(module, facts, config.int_semantics(), budget);
    ctx.proved_callees = proved_callees.clone();
    ctx.callee_summaries = callee_summaries;
    ctx.store = store;
    // the function's own returns seed the store when its callers would summarize it (a
    // recursive function's calls from outside its group are always summarized)
    ctx.root_entry = store.is_some() && (ctx::summarizes_non_recursive(module, facts, limits.callee_summaries, entry) || ctx.is_recursive(entry));
    ctx.import_recursive = imports == Imports::Recursive;
    ctx.list_value_ranges = limits.list_value_ranges == crate::config::ListValueRanges::On;
    ctx.projection = limits.projection;
    let init = initial_state(&mut ctx, module, entry, config.int_semantics());
    let g = graph::build(&mut ctx, init, deadline, limits);
    let alive = g.nodes.iter().filter(|n| n.alive).count();
    stats.push(("graph nodes".into(), alive.to_string()));
    stats.push(("merges".into(), g.merges.to_string()));
    if g.calls > 0 {
        stats.push(("summarized calls".into(), g.calls.to_string()));
        stats.push(("return states".into(), g.return_states.to_string()));
    }
    if ctx.callee_summary_calls > 0 {
        stats.push(("summarized calls of non-recursive callees".into(), ctx.callee_summary_calls.to_string()));
        stats.push(("callee entries reused".into(), ctx.reused_entries.to_string()));
    }
    if store.is_some() && (ctx.callee_summary_calls > 0 || ctx.recursive_served > 0) {
        stats.push(("callee graphs built".into(), ctx.entries_built.to_string()));
        stats.push(("calls served from the summary store".into(), ctx.store_served.to_string()));
    }
    if ctx.widened_entries > 0 {
        stats.push(("calls widened with a stored entry".into(), ctx.widened_entries.to_string()));
    }
    if ctx.recursive_served > 0 {
        stats.push(("calls of recursive callees served from the summary store".into(), ctx.recursive_served.to_string()));
    }
    if ctx.assumed_calls > 0 {
        stats.push(("calls of proved callees not executed".into(), ctx.assumed_calls.to_string()));
    }
    if ctx.list_int_fields > 0 {
        stats.push((LIST_INT_FIELDS.into(), ctx.list_int_fields.to_string()));
    }
    if !g.panics.is_empty() {
        // runs that end by a panic unwinding out of the function: terminating runs, noted
        stats.push(("may panic at".into(), g.panics.join(", ")));
    }
    stats.push(("symexec time".into(), format!("{:.3}s", started.elapsed().as_secs_f64())));

    // error states ⇒ memory safety unknown, candidate inputs
    let errors = g.errors();
    let mut error_inputs = vec![];
    let mut first_error = None;
    for &e in &errors {
        let n = &g.nodes[e];
        let graph::End::Error { reason, loc } = &n.end else { continue };
        if first_error.is_none() {
            first_error = Some(format!("{reason}{}", exec::loc_text(loc)));
        }
        let vars: Vec<Var> = n.state.inputs.iter().map(|(_, v)| v.clone()).collect();
        if let Some(vals) = ctx.model(&n.state, &vars) {
            error_inputs.push(n.state.inputs.iter().map(|(name, _)| name.clone()).zip(vals).collect());
        }
    }
    let finish = |graph: GraphOutcome, memory_safety: MemorySafety, mut stats: Vec<(String, String)>, ctx: &Ctx<'_>, exports: Vec<Export>| {
        stats.push(("z3 calls".into(), ctx.z3_calls.to_string()));
        stats.push(("entailment cache hits".into(), ctx.cache_hits.to_string()));
        stats.push(("refuted by stored models".into(), ctx.model_hits.to_string()));
        stats.push(("z3 time".into(), format!("{:.3}s", ctx.z3_time.as_secs_f64())));
        tracing::debug!("slowest z3 query ({:?}): {}", ctx.slowest.0, ctx.slowest.1);
        stats.push(("total symexec time".into(), format!("{:.3}s", started.elapsed().as_secs_f64())));
        Analysis { graph, memory_safety, error_inputs: error_inputs.clone(), stats, exports }
    };
    if let Some(err) = first_error {
        let ms = MemorySafety::Unknown { reason: format!("possible violation: {err}") };
        return finish(GraphOutcome::Unknown(format!("an error state is reachable in the symbolic execution graph: {err}")), ms, stats, &ctx, vec![]);
    }
    if let Some(reason) = g.incomplete {
        let ms = MemorySafety::Unknown { reason: format!("analysis incomplete: {reason}") };
        return finish(GraphOutcome::Unknown(reason), ms, stats, &ctx, vec![]);
    }
    let name_of = |n: usize| {
        let s = &g.nodes[n].state;
        if s.frames.is_empty() {
            return "end".to_string();
        }
        let f = s.top();
        let func = module.function(f.func);
        format!("{}:{}", func.name, func.block(f.block).name)
    };
    let exports = if store.is_some() { exports(&mut ctx, &g, &name_of, limits.max_its_transitions) } else { vec![] };
    let built = match its_build::build_its(&g, &name_of, limits.max_its_transitions) {
        Ok(b) => b,
        Err(reason) => return finish(GraphOutcome::Unknown(reason), MemorySafety::Proved, stats, &ctx, exports),
    };
    let Some(built) = built else {
        return finish(GraphOutcome::NoCycles, MemorySafety::Proved, stats, &ctx, exports);
    };
    stats.push(("ITS locations".into(), built.its.locations.len().to_string()));
    stats.push(("ITS transitions".into(), built.its.transitions.len().to_string()));
    let legends = legends(module, &g, &built);
    let loops = source_loops(module, &g, &built);
    let summary = format!(
        "symbolic execution graph: {} nodes, {} merges; ITS: {} locations, {} transitions",
        g.nodes.iter().filter(|n| n.alive).count(),
        g.merges,
        built.its.locations.len(),
        built.its.transitions.len()
    );
    finish(GraphOutcome::Its(GraphIts { its: built.its, legends, summary, loops }), MemorySafety::Proved, stats, &ctx, exports)
}

/// The summaries a complete graph without error states offers the store (design
/// "The module-wide summary store", step 2): every live entry of a summarized non-recursive
/// callee that was built here (not imported) and whose runs its own subgraph describes,
/// with its return states and the ITS of that subgraph (to be proved on its own); and, if
/// the root records its returns (`Ctx::root_entry`), the root itself (`E_top`), whose proof
/// is the whole graph's. The entries of a function touching no memory are stored without
/// memory (its call abstractions have none).
fn exports(ctx: &mut Ctx<'_>, g: &graph::Graph, name_of: &dyn Fn(usize) -> String, limit: usize) -> Vec<Export> {
    let mut out = vec![];
    let producer = g.nodes[g.root].state.frames[0].func;
    for (e, node) in g.nodes.iter().enumerate() {
        let is_root = e == g.root && ctx.root_entry;
        // an entry whose runs were explored here: a call abstraction served by another entry
        // (a `Back` edge to it) has no runs of its own below it, so no return states
        let expanded = node.out.iter().all(|edge| matches!(edge, graph::Edge::Eval(_)));
        if !node.alive || node.imported || !expanded || !(node.entry || is_root) || node.state.frames.len() != 1 {
            continue;
        }
        let func = node.state.top().func;
        // entries of recursive callees too: their subgraph holds their recursion cycles
        // (`Back` edges into the entry or below it), proved with the subgraph's ITS
        if !(ctx.summarizes_non_recursive(func) || ctx.is_recursive(func) || is_root) {
            continue;
        }
        // known fields of aggregate arguments live in this analysis' context, not in the
        // state: an entry that has them is not exactly representable, so it is not stored
        if node.state.lv_vars().iter().any(|v| ctx.agg_parts.contains_key(v)) {
            continue;
        }
        // likewise alignments (`symexec::alignment`) live in the context: a proof that may
        // rest on `x ≡ 0 (mod g)` must not be stored for an entry that does not say so
        if node.state.all_vars().iter().any(|v| alignment::of(ctx, v) >= 2) {
            continue;
        }
        let subgraph = if is_root {
            None
        } else {
            let Some(members) = its_build::entry_subgraph(g, e) else { continue };
            Some(match its_build::build_entry_its(g, e, &members, name_of, limit) {
                Ok(Some(built)) => {
                    let summary = format!("the runs of `{}` from one entry state: ITS of {} locations, {} transitions", ctx.module.function(func).name, built.its.locations.len(), built.its.transitions.len());
                    GraphOutcome::Its(GraphIts { legends: legends(ctx.module, g, &built), loops: source_loops(ctx.module, g, &built), its: built.its, summary })
                }
                Ok(None) => GraphOutcome::NoCycles,
                Err(_) => continue,
            })
        };
        let mut entry = node.state.clone();
        let mut returns: Vec<returns::ReturnSummary> = g.summaries.iter().filter(|r| r.entry == e).cloned().collect();
        if ctx.facts.memory_free(ctx.module, func) {
            summary_store::strip_memory(&mut entry, &mut returns, ctx.projection);
        }
        out.push(Export { summary: summary_store::canonical(func, producer, &entry, &returns), function: ctx.module.function(func).name.clone(), subgraph });
    }
    out
}

/// Per ITS location, the source loop of its node's innermost frame (`LoopForest::source_loop`).
fn source_loops(module: &Module, g: &graph::Graph, built: &its_build::BuiltIts) -> BTreeMap<String, crate::verdict::SourceLoop> {
    let mut forests = BTreeMap::new();
    let mut out = BTreeMap::new();
    for (li, &node) in built.loc_nodes.iter().enumerate() {
        let s = &g.nodes[node].state;
        if s.frames.is_empty() {
            continue;
        }
        let fr = s.top();
        let func = module.function(fr.func);
        let forest = forests.entry(fr.func).or_insert_with(|| crate::facts::loops::natural_loops(func));
        if let Some(l) = forest.source_loop(func, fr.block) {
            out.insert(built.its.locations[li].clone(), l);
        }
    }
    out
}

/// Per ITS location, the program names of its positional variables where LV gives one
/// (e.g. `x@12` for the value `x` with a source line); repeated names get `#k`.
fn legends(module: &Module, g: &graph::Graph, built: &its_build::BuiltIts) -> BTreeMap<String, BTreeMap<Var, Var>> {
    let mut legends: BTreeMap<String, BTreeMap<Var, Var>> = BTreeMap::new();
    for (li, &node) in built.loc_nodes.iter().enumerate() {
        let s = &g.nodes[node].state;
        let mut names: BTreeMap<Var, String> = BTreeMap::new();
        for fr in &s.frames {
            let func = module.function(fr.func);
            for (x, v) in &fr.lv {
                names.insert(v.clone(), func.value_name(*x));
            }
        }
        // locals kept in memory: the cell is the variable, the alloca its address
        names.extend(cell_names::local_cell_names(module, s));
        let ends = cell_names::block_end_names(s, &names);
        names.extend(ends);
        let mut map = BTreeMap::new();
        let mut used = BTreeMap::<String, usize>::new();
        for (i, v) in built.loc_vars[li].iter().enumerate() {
            let base = names.get(v).cloned().unwrap_or_else(|| v.name().to_string());
            let k = used.entry(base.clone()).or_insert(0);
            *k += 1;
            let shown = if *k == 1 { base } else { format!("{base}#{k}") };
            map.insert(its_build::position_var(i), Var::new(shown));
        }
        legends.insert(built.its.locations[li].clone(), map);
    }
    legends
}
