//! Contents of stack slots that no later instruction can name: at a loop header, the cells
//! of an `alloca` of the innermost frame whose address local is dead (liveness) and held by no
//! live local are forgotten.
//!
//! Why: rustc moves a value out of a stack temporary by copying its bytes and leaves the
//! stale copy behind (`Box::new(Node { val, next: head })` builds the node in a temporary
//! `x`, copies it into the box, and `x` still holds the old `head`). In a C program a dead
//! local's value is simply dropped from LV; a dead slot's bytes stay in PT, and a stale
//! pointer there pins a list cell, so `lists::fold` cannot join the list into one invariant
//! (the walk after a build then sees a segment and a list, and the merge drops both).
//!
//! Why sound: forgetting a PT entry is a weakening (a later load from the slot reads an
//! unknown value, as after a merge that drops an entry); the block stays allocated, so no
//! access changes from safe to unsafe or back. Which slots are forgotten is a precision
//! choice only: a slot whose address is still derived somewhere (a live `gep` of it) loses
//! its contents, which costs a proof, never a wrong verdict.

use super::ctx::Ctx;
use super::state::{AllocKind, State};
use crate::logic::Var;
use std::collections::BTreeSet;

/// Drops the PT entries of the innermost frame's stack blocks whose `alloca` local is dead at
/// the frame's position (it is in LV now but not live) and whose start no live local of any
/// frame holds. Call before the dead locals leave LV. Returns how many entries were dropped.
pub(super) fn forget(ctx: &Ctx<'_>, s: &mut State) -> usize {
    let Some(depth) = s.frames.len().checked_sub(1) else { return 0 };
    let top = &s.frames[depth];
    let live = ctx.live_at(top.func, top.block, top.idx);
    let dead: BTreeSet<Var> = top.lv.iter().filter(|(v, _)| !live.contains(v)).map(|(_, x)| x.clone()).collect();
    if dead.is_empty() {
        return 0;
    }
    let mut held: BTreeSet<Var> = BTreeSet::new();
    for (i, fr) in s.frames.iter().enumerate() {
        let live_i = if i == depth { live.clone() } else { ctx.live_at(fr.func, fr.block, fr.idx) };
        held.extend(fr.lv.iter().filter(|(v, _)| live_i.contains(v)).map(|(_, x)| x.clone()));
    }
    let blocks: BTreeSet<u32> = s
        .allocs
        .iter()
        .filter(|a| matches!(a.kind, AllocKind::Stack(d) | AllocKind::StackDynamic(d) if d == depth))
        .filter(|a| dead.contains(&a.start) && !held.contains(&a.start))
        .map(|a| a.id)
        .collect();
    if blocks.is_empty() {
        return 0;
    }
    let before = s.pt.len();
    // Only pointer cells: a stale pointer is what pins a list cell; the bytes of a dead slot a
    // live derived pointer still walks (a C buffer scanned by `s = buf + k`) must keep their
    // values (its terminating zero is what bounds the scan).
    s.pt.retain(|p| !(p.is_ptr && blocks.contains(&p.alloc)));
    let dropped = before - s.pt.len();
    if dropped > 0 {
        tracing::debug!("dead slots: forgot {dropped} cells of the dead stack blocks {blocks:?}");
    }
    dropped
}
