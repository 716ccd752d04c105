//! List invariants across calls of recursive functions (seed 001 with seed 002's summaries):
//! the invariants a call hands to the callee's entry, the folding of a return state's cells
//! into invariants, and the pairing of two return states' invariants when they are widened.
//!
//! A list the caller holds moves into the call abstraction when the callee's frame has a
//! local equal to its start (the list was passed as an argument); the caller keeps no copy.
//! After the call the caller gets back exactly the invariants of the return state it is
//! intersected with (renamed like the return state's memory). Soundness: the caller's list
//! cells are reached only through its invariants, so a moved invariant's cells are known to
//! the callee alone; a return state that no longer describes them (freed, or forgotten by a
//! widening) leaves the caller without them — a later access is an error state, never a
//! silent success. Cells of lists the caller keeps are unknown to the callee, so an access
//! of the callee to them (through a pointer stored in memory) is an error state too, and the
//! caller's invariant stays valid. See ARCHITECTURE.md "Lists (seed 001)", "Calls".

use super::ctx::Ctx;
use super::facts::{Atom, Fact};
use super::generalize::{apply, Mu};
use super::lists::{ListField, ListInv};
use super::state::{AllocKind, State};
use std::collections::BTreeSet;
use crate::logic::{LinExpr, Rel, Var};

/// Moves the list invariants of `caller` that the callee can reach into `abs` (the call
/// abstraction, the callee's frame alone, with the caller's memory). When the caller holds
/// invariants, the call abstraction is first folded as at a loop header (its locals are the
/// callee's parameters, in `full`, the state with both frames; cells a live local of the
/// caller points to stay concrete):
/// a list the caller holds partly as concrete cells (the cursor of an
/// append, materialized first cells) reaches the callee as one invariant. The cells that fold
/// consumes leave the caller too (it gets back what the return state says of them), and so
/// do the caller's invariants it consumes. Afterwards every invariant of `abs` that is not an
/// untouched invariant of the caller is the callee's; of the untouched ones, those whose start
/// equals a parameter are handed over, the others stay with the caller only. Returns how many
/// invariants the callee gets.
pub fn hand_to_callee(ctx: &mut Ctx<'_>, full: &State, caller: &mut State, abs: &mut State) -> usize {
    if caller.lists.is_empty() {
        abs.lists.clear();
        return 0;
    }
    let before: BTreeSet<u32> = abs.allocs.iter().filter(|a| a.kind == AllocKind::Heap).map(|a| a.id).collect();
    // folded with both frames, so that the caller's live locals pin the cells they point to
    // (the caller keeps those concrete)
    let mut folded_full = full.clone();
    let depth = folded_full.frames.len();
    for fr in folded_full.frames.iter_mut().take(depth.saturating_sub(1)) {
        // live after the call instruction (a caller frame waits at its call)
        let live = ctx.live_at(fr.func, fr.block, fr.idx + 1);
        fr.lv.retain(|v, _| live.contains(v));
    }
    // cells a live local of the caller points to stay concrete (the caller uses them after
    // the call): hidden from folding as foreign memory, restored afterwards
    let held: Vec<Var> = folded_full.frames.iter().take(depth.saturating_sub(1)).flat_map(|f| f.lv.values().cloned()).collect();
    let mut hidden = vec![];
    for a in folded_full.allocs.iter().filter(|a| a.kind == AllocKind::Heap) {
        if held.iter().any(|v| *v == a.start || Atom::cmp(&LinExpr::var(v), Rel::Eq, &LinExpr::var(&a.start)).is_some_and(|eq| ctx.entails(full, &[eq]))) {
            hidden.push(a.id);
        }
    }
    for a in folded_full.allocs.iter_mut().filter(|a| hidden.contains(&a.id)) {
        a.kind = AllocKind::Foreign;
    }
    // the invariants the arguments point to are named by the parameters first (a local
    // holding a start syntactically pins it: the fold keeps the argument's list separate)
    let params: Vec<Var> = abs.frames.last().map(|f| f.lv.values().cloned().collect()).unwrap_or_default();
    for k in 0..folded_full.lists.len() {
        let start = folded_full.lists[k].start.clone();
        if params.contains(&start) {
            continue;
        }
        let same = params.iter().find(|p| Atom::cmp(&LinExpr::var(p), Rel::Eq, &LinExpr::var(&start)).is_some_and(|eq| ctx.entails(full, &[eq]))).cloned();
        if let Some(p) = same {
            folded_full.lists[k].start = p;
        }
    }
    tracing::trace!("lists: call with frames {:?}, lists {:?}", folded_full.frames.iter().map(|f| &f.lv).collect::<Vec<_>>(), folded_full.lists);
    super::lists::fold(ctx, &mut folded_full);
    for a in folded_full.allocs.iter_mut().filter(|a| hidden.contains(&a.id)) {
        a.kind = AllocKind::Heap;
    }
    abs.kb = folded_full.kb;
    abs.allocs = folded_full.allocs;
    abs.pt = folded_full.pt;
    abs.lists = folded_full.lists;
    let folded: BTreeSet<u32> = before.into_iter().filter(|id| abs.alloc_by_id(*id).is_none()).collect();
    caller.allocs.retain(|a| !folded.contains(&a.id));
    caller.pt.retain(|p| !folded.contains(&p.alloc));
    let mut kept = vec![];
    let mut handed = vec![];
    for l in std::mem::take(&mut abs.lists) {
        // an invariant fold left alone keeps its length variable (its start may have been
        // renamed to a local equal to it); one it built has a fresh one
        let Some(original) = caller.lists.iter().find(|c| c.len == l.len).cloned() else {
            handed.push(l);
            continue;
        };
        let passed = params.iter().find(|p| **p == l.start || Atom::cmp(&LinExpr::var(p), Rel::Eq, &LinExpr::var(&l.start)).is_some_and(|eq| ctx.entails(abs, &[eq]))).cloned();
        match passed {
            Some(p) => {
                let mut moved = l.clone();
                if moved.start != p {
                    abs.add_atoms([Atom::cmp(&LinExpr::var(&p), Rel::Eq, &LinExpr::var(&l.start))]);
                    // named by the parameter, so that entries of different calls match it
                    moved.start = p;
                }
                handed.push(moved);
            }
            None => kept.push(original),
        }
    }
    // the caller keeps only its untouched invariants the callee does not get
    caller.lists = kept;
    for l in &handed {
        // a bound the entry's projection would lose (`len ≤ 1000` from a dead `n`)
        if let Some(bound) = super::lists::length_bound(ctx, abs, &l.len) {
            abs.add_atom(bound);
        }
    }
    abs.lists = handed;
    let n = abs.lists.len();
    if n > 0 {
        tracing::debug!("lists: {n} invariant(s) handed to the callee ({} cells folded): {:?}", folded.len(), abs.lists);
    }
    n
}

/// Folds the callee's own cells of a return state into list invariants as at a loop header,
/// with the returning frame's locals and stack memory gone first (they die at the return, so
/// they pin nothing): a list built by a recursive function becomes one invariant whose start
/// the returned value holds. The entry's allocations (`entry_allocs`, the caller's memory)
/// stay concrete: the caller may hold pointers into them.
pub fn fold_at_return(ctx: &mut Ctx<'_>, s: &mut State, entry_allocs: &BTreeSet<u32>) {
    let owned: Vec<u32> = s.allocs.iter().filter(|a| Ctx::owned_by_depth(a.kind, 0)).map(|a| a.id).collect();
    s.allocs.retain(|a| !owned.contains(&a.id));
    s.pt.retain(|p| !owned.contains(&p.alloc));
    for fr in &mut s.frames {
        fr.lv.clear();
    }
    // hidden from folding as foreign memory, restored afterwards (folding removes only member
    // blocks, never these)
    let hidden: Vec<u32> = s.allocs.iter().filter(|a| entry_allocs.contains(&a.id) && a.kind == AllocKind::Heap).map(|a| a.id).collect();
    for a in s.allocs.iter_mut().filter(|a| hidden.contains(&a.id)) {
        a.kind = AllocKind::Foreign;
    }
    super::lists::fold(ctx, s);
    for a in s.allocs.iter_mut().filter(|a| hidden.contains(&a.id)) {
        a.kind = AllocKind::Heap;
    }
}

/// One side of a widening of two return states: its invariants, its facts (already renamed
/// by `mu`), and the renaming of its invariants' variables into the widened state's.
pub struct Side<'a> {
    pub lists: &'a [ListInv],
    pub facts: &'a [Fact],
    pub mu: &'a mut Mu,
}

/// The invariants of the widening of two return states: invariants of the same shape at the
/// same start (after the value renaming both sides already carry) become one, with fresh
/// variables where the two differ; an invariant of one side whose start the other side's
/// facts prove NULL is paired with the empty list (length 0, a fact added to that side's
/// `extra`; the empty list stands for no cells, so that side means what it meant). Others
/// are dropped (a weakening: the caller forgets those cells). The result's variables are
/// fresh or shared by both sides.
pub fn widen(ctx: &mut Ctx<'_>, a: Side<'_>, b: Side<'_>, extra_a: &mut Vec<Fact>, extra_b: &mut Vec<Fact>) -> Vec<ListInv> {
    let mut out = vec![];
    let mut used_b = vec![false; b.lists.len()];
    let start_b = |l: &ListInv, mu: &Mu| apply(mu, &l.start);
    for la in a.lists {
        let sa = apply(a.mu, &la.start);
        let found = b.lists.iter().enumerate().find(|(k, lb)| !used_b[*k] && la.same_shape(lb) && start_b(lb, b.mu) == sa);
        match found {
            Some((k, lb)) => {
                used_b[k] = true;
                let mut vars = vec![];
                let (la, lb) = &super::lists_prev::aligned(la, lb);
                for (x, y) in la.vars().into_iter().zip(lb.vars()) {
                    let (xa, yb) = (apply(a.mu, &x), apply(b.mu, &y));
                    if xa == yb {
                        vars.push(xa);
                        continue;
                    }
                    let v = ctx.fresh(x.name().rsplit_once('_').map(|p| p.0).unwrap_or("l"));
                    a.mu.insert(x.clone(), v.clone());
                    b.mu.insert(y.clone(), v.clone());
                    vars.push(v);
                }
                let mut l = la.with_vars(&vars);
                // a field relation survives only where both return states have it
                for (f, g) in l.fields.iter_mut().zip(&lb.fields) {
                    if f.step != g.step {
                        f.step = None;
                    }
                    f.range = super::lists_ranges::merge_range(f, false, g, false, true);
                    f.owns = super::lists_owned::merge_owns(f.owns, false, g.owns, false);
                }
                out.push(l);
            }
            None => {
                if let Some(l) = against_empty(ctx, la, &sa, a.mu, b.facts, extra_b) {
                    out.push(l);
                }
            }
        }
    }
    for (k, lb) in b.lists.iter().enumerate() {
        if used_b[k] {
            continue;
        }
        let sb = apply(b.mu, &lb.start);
        if let Some(l) = against_empty(ctx, lb, &sb, b.mu, a.facts, extra_a) {
            out.push(l);
        }
    }
    out
}

/// `l` (of one side, its start renamed to `start`) widened with the empty list of the other
/// side, if the other side's `facts` prove `start` NULL (only NULL-terminated lists: a
/// segment's emptiness needs its target): every variable but the start fresh, the other
/// side's length 0.
fn against_empty(ctx: &mut Ctx<'_>, l: &ListInv, start: &Var, mu: &mut Mu, facts: &[Fact], extra: &mut Vec<Fact>) -> Option<ListInv> {
    if l.end().is_some() || !ctx.entails_facts(facts, &[Atom::var_const(start, Rel::Eq, 0)]) {
        return None;
    }
    let mut out = ListInv { start: start.clone(), len: ctx.fresh("len"), size: l.size, rec: l.rec, fields: vec![], back: None, tail: None };
    mu.insert(l.len.clone(), out.len.clone());
    for f in &l.fields {
        let first = ctx.fresh("first");
        mu.insert(f.first.clone(), first.clone());
        let last = f.last.as_ref().map(|x| {
            let v = ctx.fresh("last");
            mu.insert(x.clone(), v.clone());
            v
        });
        out.fields.push(ListField { first, last, step: None, ..f.clone() });
    }
    extra.push(Fact::Atom(Atom::var_const(&out.len, Rel::Eq, 0)));
    Some(out)
}
