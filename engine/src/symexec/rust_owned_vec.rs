//! An owned `Vec` across merges: its heap buffer is "the block its pointer field points to",
//! which the merge's syntactic matching of allocations (same id, same bound variables) never
//! finds, because growing the `Vec` (`RawVec::grow_one` → `__rust_realloc`) replaces the
//! block by a new one on every reallocation.
//!
//! Two hooks (ARCHITECTURE.md, "Rust semantics", owned `Vec`):
//! - [`match_buffers`] (in `generalize::merge`): a heap block of each state that the same
//!   pointer cell (same block, same address after renaming) points to is one block of the
//!   merged state, its bounds fresh variables mapped to both states' bounds. The merged
//!   knowledge base then keeps, like for any other variables, the facts both states entail
//!   about it: `end − start + 1 = cap · size_of::<T>()` with the capacity cell, `len ≤ cap`.
//!   Sound: the merged state describes, for each of the two states, a block that exists there,
//!   at the pointer's value, and only relations both states entail.
//! - [`defer_merge`] (in the graph's generalization point): a state whose `Vec` has just
//!   received its first buffer (the ancestor's pointer cell points to no block while its
//!   capacity cell is 0, the new state's points to a heap block) is not merged with the
//!   ancestor, which would keep no buffer at all (the ancestor has none); it becomes the next
//!   generalization point's ancestor instead. This only unrolls the loop once more (counted
//!   as a merge, so the merge limit still bounds the graph).
//! - [`buffer_candidates`] (in the merge's candidate facts): for a heap block that a pointer
//!   field of a struct points to and each integer field of that struct, `end − start + 1 =
//!   k · field` for the element sizes `k` of [`ELEMENT_SIZES`] — the relation `size = cap ·
//!   size_of::<T>()` that no fact of a state with constant capacity and size states
//!   syntactically (a candidate only: kept when both merged states entail it).
//! - [`unchanged_fields`] (in the merge's candidate facts): the integer fields a merge keeps
//!   unchanged beside a changing one (the capacity beside the length) are compared with the
//!   others, so `len ≤ cap` survives while only the length grows.
//!
//! A `&mut Vec<T>` parameter's buffer (`AllocKind::VecBuffer`, `rust_vec`) takes part like a
//! heap block: paired with the heap block a push moved it to, the merged block is a
//! `VecBuffer` (it may be empty, as one side's may; a non-empty one is a heap block on both
//! sides). [`drop_empty_buffers`] (first step of the merge) removes `VecBuffer` blocks that a
//! state proves empty (the buffer a first push left behind when the capacity was 0: no memory,
//! so removing it forgets nothing), so that the pointer cell's new block is paired instead.

use super::ctx::Ctx;
use super::lists::equal;
use super::facts::Atom;
use super::generalize::Mu;
use super::state::{Alloc, AllocKind, PtEntry, State};
use crate::logic::{LinExpr, Rel, Var};
use std::collections::{BTreeMap, BTreeSet};

/// Size of the pointer and capacity fields (`usize`, 64-bit targets).
const FIELD: u64 = 8;

/// Whether a block of `kind` may be a `Vec`'s buffer: a heap block or a `&mut Vec`'s buffer.
fn buffer_kind(kind: AllocKind) -> bool {
    matches!(kind, AllocKind::Heap | AllocKind::VecBuffer)
}

/// Makes each 8-byte pointer cell whose value the knowledge base's equations make equal to a
/// heap or `&mut Vec` buffer block's start hold that start itself (at generalization points,
/// `graph`). std's `finish_grow` returns the reallocated pointer through a `Result`, so after
/// a push the `Vec`'s pointer field holds a variable only *equal* to the new block's start;
/// the instance check binds a cell's value to the block's start syntactically and so never
/// recognised such a state as an instance of the merged one (`vec_mut_push`). Meaning-
/// preserving: the cell's value is replaced by a variable the knowledge base proves equal.
pub(super) fn pointers_at_buffer_starts(s: &mut State) {
    let mut rewrites: Vec<(usize, Var)> = vec![];
    for (i, p) in s.pt.iter().enumerate().filter(|(_, p)| p.is_ptr && p.size == FIELD) {
        if s.allocs.iter().any(|b| b.start == p.value) {
            continue;
        }
        let at_start = s.allocs.iter().filter(|b| buffer_kind(b.kind)).find(|b| super::rust_cells::offset_from(s, &p.value, &b.start) == Some(0));
        if let Some(b) = at_start {
            rewrites.push((i, b.start.clone()));
        }
    }
    for (i, start) in rewrites {
        s.pt[i].value = start;
    }
}

/// Whether `atom` is `x − y ≤ 0` between two integer fields of one struct that also holds a
/// pointer to a heap or `&mut Vec` buffer block — a `Vec`'s `len ≤ cap` in the merged state
/// `c` — which the merge's widening by families keeps although its family is refuted
/// (`generalize::merge_widening`). When the pushes fill the buffer, the instance has `len =
/// cap` and refutes the candidate `len − cap ≤ −1`; dropping the whole family `len − cap ≤
/// k` with it lost `len ≤ cap`, so the push without growth (`len ≠ cap`) wrote past the
/// buffer (`vec_mut_push`). Sound: the atom is kept only when the other state entails it,
/// like any merged fact; and the merges still converge, since such atoms (constant 0, between
/// the fields of the blocks) are finitely many and never re-created with other constants.
pub(super) fn length_within_capacity(c: &State, atom: &Atom) -> bool {
    if atom.rel != super::facts::ARel::Le || atom.e.constant != 0 || atom.e.coeffs.len() != 2 {
        return false;
    }
    let mut it = atom.e.coeffs.iter();
    let (Some((x, &cx)), Some((y, &cy))) = (it.next(), it.next()) else { return false };
    if !matches!((cx, cy), (1, -1) | (-1, 1)) {
        return false;
    }
    let field = |v: &Var| c.pt.iter().find(|p| !p.is_ptr && p.size == FIELD && p.value == *v).map(|p| p.alloc);
    let (Some(bx), Some(by)) = (field(x), field(y)) else { return false };
    bx == by
        && c.pt.iter().any(|p| p.is_ptr && p.size == FIELD && p.alloc == bx && c.allocs.iter().any(|b| buffer_kind(b.kind) && b.start == p.value))
}

/// Whether a general state's block of kind `general` may stand for an instance's block of
/// kind `inst` (`generalize::instance_from`): the same kind, or a `&mut Vec`'s buffer
/// (`VecBuffer`: empty, or a block of the global allocator owned by the `Vec`) standing for a
/// heap block — the block a push's `__rust_realloc` moved the buffer to. This is the pairing
/// [`match_buffers`] makes at a merge (a `VecBuffer` and a heap block merge into a
/// `VecBuffer`), so a later instance of the merged state is recognised as one instead of
/// being merged again into the same state (which never converged: `vec_mut_push`). Sound:
/// the general block's kind allows fewer operations (it may be empty; C's `free` does not
/// take it), and what both states say about the block's bounds and cells is still checked
/// (cells and the knowledge base, conditions (c) and (e)).
pub(super) fn kind_generalizes(general: AllocKind, inst: AllocKind) -> bool {
    general == inst || (general == AllocKind::VecBuffer && inst == AllocKind::Heap)
}

/// `a` and `b` without the `VecBuffer` blocks each proves empty (see the module
/// documentation), `None` when there are none.
pub(super) fn drop_empty_buffers(ctx: &mut Ctx<'_>, a: &State, b: &State) -> Option<(State, State)> {
    // every merge passes here: decide on the states as they are, clone only when a block goes
    let mut empty = |s: &State| -> Vec<u32> {
        s.allocs
            .iter()
            .filter(|x| x.kind == AllocKind::VecBuffer && !s.pt.iter().any(|p| p.alloc == x.id))
            .filter(|x| Atom::cmp(&LinExpr::var(&x.end), Rel::Lt, &LinExpr::var(&x.start)).is_some_and(|lt| ctx.entails(s, &[lt])))
            .map(|x| x.id)
            .collect()
    };
    let (empty_a, empty_b) = (empty(a), empty(b));
    if empty_a.is_empty() && empty_b.is_empty() {
        return None;
    }
    let without = |s: &State, ids: &[u32]| {
        let mut s = s.clone();
        s.allocs.retain(|x| !ids.contains(&x.id));
        s
    };
    Some((without(a, &empty_a), without(b, &empty_b)))
}

/// The buffer block of `s` (among `candidates`) that starts at the value of the pointer cell `p`.
fn pointee<'s>(ctx: &mut Ctx<'_>, s: &'s State, p: &PtEntry, candidates: &[u32]) -> Option<&'s Alloc> {
    let heap: Vec<&Alloc> = s.allocs.iter().filter(|a| buffer_kind(a.kind) && candidates.contains(&a.id)).collect();
    if let Some(a) = heap.iter().find(|a| a.start == p.value) {
        return Some(a);
    }
    heap.into_iter().find(|a| equal(ctx, s, &p.value, &a.start))
}

/// Pairs the heap blocks of `a` and `b` that the same pointer cell points to (see the module
/// documentation), adds each pair to the merged state `c` (bounds renamed through `inv_a`,
/// `inv_b` and `mu_a`) and returns `b` with each paired block renumbered to `a`'s id (so that
/// the merge's cell matching compares their contents), or `None` when nothing was paired.
pub(super) fn match_buffers(
    ctx: &mut Ctx<'_>,
    a: &State,
    b: &State,
    c: &mut State,
    inv_a: &mut BTreeMap<Var, Var>,
    inv_b: &mut BTreeMap<Var, Var>,
    mu_a: &mut Mu,
) -> Option<State> {
    let kept: BTreeSet<u32> = c.allocs.iter().map(|x| x.id).collect();
    let unmatched = |s: &State| -> Vec<u32> { s.allocs.iter().filter(|x| buffer_kind(x.kind) && !kept.contains(&x.id)).map(|x| x.id).collect() };
    let (mut free_a, mut free_b) = (unmatched(a), unmatched(b));
    if free_a.is_empty() || free_b.is_empty() {
        return None;
    }
    let mut renumber: BTreeMap<u32, u32> = BTreeMap::new();
    let mut rewritten: Vec<(Var, Var, Var)> = vec![];
    let name = |inv: &BTreeMap<Var, Var>, v: &Var| inv.get(v).cloned().unwrap_or_else(|| v.clone());
    for pa in a.pt.iter().filter(|p| p.is_ptr && p.size == FIELD && kept.contains(&p.alloc)) {
        let addr = name(inv_a, &pa.addr);
        let Some(pb) = b.pt.iter().find(|q| q.is_ptr && q.size == FIELD && q.alloc == pa.alloc && name(inv_b, &q.addr) == addr) else { continue };
        let Some(ba) = pointee(ctx, a, pa, &free_a).cloned() else { continue };
        let Some(bb) = pointee(ctx, b, pb, &free_b).cloned() else { continue };
        let (start, end) = (ctx.fresh("vecbuf"), ctx.fresh("end"));
        for (v, va, vb) in [(&start, &ba.start, &bb.start), (&end, &ba.end, &bb.end)] {
            inv_a.insert(va.clone(), v.clone());
            inv_b.insert(vb.clone(), v.clone());
            mu_a.insert(v.clone(), va.clone());
        }
        if pb.value != bb.start && pa.value == ba.start {
            // a's pointer cell holds its block's start, b's a variable only equal to it (a
            // pointer returned through std's `finish_grow`): b's holds the start itself in the
            // renumbered copy (the same value), so that the merge keeps the cell (when neither
            // holds its start, the merge generalizes the two values by a fresh variable)
            rewritten.push((pb.addr.clone(), pb.value.clone(), bb.start.clone()));
        }
        // a `&mut Vec`'s buffer on either side: the merged one may be empty too
        let kind = if ba.kind == AllocKind::VecBuffer || bb.kind == AllocKind::VecBuffer { AllocKind::VecBuffer } else { AllocKind::Heap };
        c.allocs.push(Alloc { start, end, pristine: None, kind, ..ba.clone() });
        renumber.insert(bb.id, ba.id);
        free_a.retain(|x| *x != ba.id);
        free_b.retain(|x| *x != bb.id);
    }
    if renumber.is_empty() {
        return None;
    }
    let mut renumbered = b.clone();
    for x in &mut renumbered.allocs {
        if let Some(id) = renumber.get(&x.id) {
            x.id = *id;
        }
    }
    for p in &mut renumbered.pt {
        if let Some(id) = renumber.get(&p.alloc) {
            p.alloc = *id;
        }
        if let Some((_, _, start)) = rewritten.iter().find(|(addr, value, _)| p.is_ptr && *addr == p.addr && *value == p.value) {
            p.value = start.clone();
        }
    }
    Some(renumbered)
}

/// Whether merging `inst` into its ancestor `general` would lose a `Vec`'s first buffer (see
/// the module documentation).
pub(super) fn defer_merge(ctx: &mut Ctx<'_>, general: &State, inst: &State) -> bool {
    let heap_b: Vec<u32> = inst.allocs.iter().filter(|x| x.kind == AllocKind::Heap).map(|x| x.id).collect();
    if heap_b.is_empty() {
        return false;
    }
    let heap_a: Vec<u32> = general.allocs.iter().filter(|x| x.kind == AllocKind::Heap).map(|x| x.id).collect();
    for pa in general.pt.iter().filter(|p| p.is_ptr && p.size == FIELD && inst.alloc_by_id(p.alloc).is_some()) {
        let Some(pb) = inst.pt.iter().find(|q| q.is_ptr && q.size == FIELD && q.alloc == pa.alloc && q.addr == pa.addr) else { continue };
        if pointee(ctx, inst, pb, &heap_b).is_none() || pointee(ctx, general, pa, &heap_a).is_some() {
            continue;
        }
        // the ancestor's capacity field (the `usize` just before the pointer) is 0
        let empty = general.pt.iter().filter(|q| !q.is_ptr && q.size == FIELD && q.alloc == pa.alloc).any(|q| {
            let before = LinExpr::var(&q.addr).add_scaled(1, &LinExpr::constant(FIELD as i128));
            let at = before.and_then(|e| Atom::cmp(&e, Rel::Eq, &LinExpr::var(&pa.addr)));
            let zero = Atom::var_const(&q.value, Rel::Eq, 0);
            at.is_some_and(|at| ctx.entails(general, &[at, zero]))
        });
        if empty {
            return true;
        }
    }
    false
}

/// Integer cells of `a` (8 bytes, at most 4) whose value the merge keeps unchanged, in a stack
/// or `&mut` block where another integer cell's value changes (`extra`): candidates for order
/// facts in the merged state (a `Vec`'s capacity against its growing length).
pub(super) fn unchanged_fields(a: &State, extra: &[Var]) -> Vec<(Var, u32)> {
    let struct_block = |id: u32| a.alloc_by_id(id).is_some_and(|b| matches!(b.kind, AllocKind::Stack(_) | AllocKind::RefParam { mutable: true, .. }));
    let changing: BTreeSet<u32> = a.pt.iter().filter(|p| !p.is_ptr && extra.contains(&p.value) && struct_block(p.alloc)).map(|p| p.alloc).collect();
    a.pt.iter()
        .filter(|p| !p.is_ptr && p.size == FIELD && changing.contains(&p.alloc) && !extra.contains(&p.value))
        .map(|p| (p.value.clone(), (p.size * 8) as u32))
        .take(4)
        .collect()
}

/// The element sizes tried for `size = cap · size_of::<T>()`: Rust's primitive types.
const ELEMENT_SIZES: [i128; 5] = [1, 2, 4, 8, 16];

/// Candidate facts `end − start + 1 = k · field` for each heap block a pointer field points to
/// (by the knowledge base's equations) and each integer field of the same struct.
pub(super) fn buffer_candidates(a: &State) -> Vec<Atom> {
    let mut out = vec![];
    for p in a.pt.iter().filter(|p| p.is_ptr && p.size == FIELD) {
        let Some(buffer) = a.allocs.iter().find(|b| buffer_kind(b.kind) && super::rust_cells::offset_from(a, &p.value, &b.start) == Some(0)) else { continue };
        let Some(size) = LinExpr::var(&buffer.end).add_scaled(-1, &LinExpr::var(&buffer.start)).and_then(|e| e.add_scaled(1, &LinExpr::constant(1))) else { continue };
        for field in a.pt.iter().filter(|q| !q.is_ptr && q.size == FIELD && q.alloc == p.alloc) {
            for k in ELEMENT_SIZES {
                out.extend(LinExpr::var(&field.value).scale(k).and_then(|e| Atom::cmp(&size, Rel::Eq, &e)));
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::symexec::facts::{ARel, Fact};

    fn v(x: &str) -> Var {
        Var::new(x)
    }

    fn eq(x: &str, y: &str, c: i128) -> Fact {
        // x = y + c
        let e = LinExpr::var(&v(x)).add_scaled(-1, &LinExpr::var(&v(y))).and_then(|e| e.add_scaled(1, &LinExpr::constant(-c))).unwrap();
        Fact::Atom(Atom { e, rel: ARel::Eq })
    }

    fn cell(addr: &str, value: &str, is_ptr: bool, alloc: u32) -> PtEntry {
        PtEntry { addr: v(addr), size: FIELD, is_ptr, unsigned: false, value: v(value), alloc }
    }

    /// A `&mut Vec` block 3 (cap at `v`, pointer at `p`, length at `l`) and a heap block 4.
    fn vec_state(pointer: &str) -> State {
        let block = |id, start: &str, end: &str, kind| Alloc { id, start: v(start), end: v(end), kind, pristine: None };
        State {
            allocs: vec![block(3, "v", "v_end", AllocKind::RefParam { mutable: true, may_be_empty: false }), block(4, "buf", "buf_end", AllocKind::Heap)],
            pt: vec![cell("v", "cap", false, 3), cell("p", pointer, true, 3), cell("l", "len", false, 3)],
            kb: vec![eq("p", "v", 8), eq("l", "v", 16), eq("t", "buf", 0)],
            ..State::default()
        }
    }

    #[test]
    fn a_pointer_cell_equal_to_a_buffer_start_holds_the_start() {
        let mut s = vec_state("t");
        pointers_at_buffer_starts(&mut s);
        assert_eq!(s.pt[1].value, v("buf"), "t = buf + 0 by the knowledge base");
        // a pointer into the buffer (not at its start) stays as it is
        let mut s = vec_state("t");
        s.kb[2] = eq("t", "buf", 4);
        pointers_at_buffer_starts(&mut s);
        assert_eq!(s.pt[1].value, v("t"));
    }

    #[test]
    fn a_vec_buffer_generalizes_a_heap_block_and_nothing_else() {
        assert!(kind_generalizes(AllocKind::VecBuffer, AllocKind::Heap));
        assert!(kind_generalizes(AllocKind::Heap, AllocKind::Heap));
        assert!(!kind_generalizes(AllocKind::Heap, AllocKind::VecBuffer), "a heap block is never empty, a buffer may be");
        assert!(!kind_generalizes(AllocKind::VecBuffer, AllocKind::Foreign));
    }

    #[test]
    fn only_the_order_of_a_vecs_fields_is_kept_by_the_widening() {
        let s = vec_state("buf");
        let le = |x: &str, y: &str, c: i128| Atom::cmp(&LinExpr::var(&v(x)), Rel::Le, &LinExpr::var(&v(y)).add_scaled(1, &LinExpr::constant(c)).unwrap()).unwrap();
        assert!(length_within_capacity(&s, &le("len", "cap", 0)));
        assert!(!length_within_capacity(&s, &le("len", "cap", -1)), "a bound with another constant is widened as before");
        assert!(!length_within_capacity(&s, &le("len", "n", 0)), "n is no field");
        let mut no_buffer = vec_state("elsewhere");
        no_buffer.allocs.pop();
        assert!(!length_within_capacity(&no_buffer, &le("len", "cap", 0)), "a struct pointing to no buffer");
    }
}
