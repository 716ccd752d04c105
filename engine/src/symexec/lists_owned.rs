//! Payload blocks owned by list cells (issue 10, session 13): a pointer field whose value in
//! every cell is the start of that cell's own live heap block of one constant size
//! (`ListField::owns`), e.g. the `data` buffer each cell of a C list `malloc`s. Folding moves
//! such blocks out of AL with their cells (their contents are forgotten); materializing a
//! cell brings its block back as an ordinary heap block (unknown contents), so that reading,
//! writing and freeing the payload of the current cell are checked like any block, and a
//! second free of it is still a double free. See ARCHITECTURE.md "Lists (seed 001)",
//! bullet "Owned payload blocks".

use super::ctx::Ctx;
use super::facts::Atom;
use super::lists::{block_size, equal, plus, Cell, Chains, ListField, Node};
use super::state::{Alloc, AllocKind, State};
use crate::logic::{LinExpr, Rel, Var};
use std::collections::BTreeSet;

/// A field's layout key as `lists::build` compares them: (offset, size, pointer, unsigned).
pub(super) type Key = (u64, u64, bool, bool);

fn key(f: &ListField) -> Key {
    (f.off, f.size, f.is_ptr, f.unsigned)
}

/// Whether the pointer field `x` of every member of `chain` owns a payload block: for a
/// concrete cell, its value is (syntactically) the start of a live heap block of a constant
/// size holding no pointer (by PT), not a member cell (`ids`), distinct from every other
/// member's, and referenced by nothing else (no local holds or provably equals it, no other
/// PT entry and no invariant's field names it); for an invariant, its field owns blocks of that size already (or it is
/// provably empty: no cells, nothing to own). Returns the size and the concrete blocks, which
/// the fold removes from AL and PT together with the cells. `None` when some member does not
/// own one, or when no member is a concrete cell nor an owning invariant.
pub(super) fn chain_owns(ctx: &mut Ctx<'_>, ch: &Chains<'_>, chain: &[Node], x: Key, ids: &BTreeSet<u32>) -> Option<(u64, Vec<u32>)> {
    if !x.2 {
        return None;
    }
    let s = ch.s;
    let mut size: Option<u64> = None;
    let mut blocks: Vec<(u32, Var)> = vec![];
    for &n in chain {
        match n {
            Node::Cell(c) => {
                let cell: &Cell = &ch.cs[c];
                let (_, p) = cell.fields.iter().find(|(o, p)| (*o, p.size, p.is_ptr, p.unsigned) == x)?;
                let a = s.allocs.iter().find(|a| a.kind == AllocKind::Heap && a.start == p.value)?;
                if ids.contains(&a.id) || blocks.iter().any(|(id, _)| *id == a.id) {
                    return None;
                }
                // (a block holding pointers is no data buffer: it may be a cell, e.g. the
                // predecessor a `prev` field points to)
                if s.pt.iter().any(|q| q.alloc == a.id && q.is_ptr) {
                    return None;
                }
                let k = block_size(s, a)?;
                if *size.get_or_insert(k) != k {
                    return None;
                }
                blocks.push((a.id, a.start.clone()));
            }
            Node::List(m) => {
                let f = s.lists[m].fields.iter().find(|f| key(f) == x)?;
                match f.owns {
                    Some(k) if *size.get_or_insert(k) == k => {}
                    Some(_) => return None,
                    None if ctx.entails(s, &[Atom::var_const(&s.lists[m].len, Rel::Le, 0)]) => {}
                    None => return None,
                }
            }
        }
    }
    let size = size?;
    let lv: Vec<Var> = s.frames.iter().flat_map(|f| f.lv.values().cloned()).collect();
    for (_, start) in &blocks {
        // the one reference is the member's field
        if s.pt.iter().filter(|p| p.value == *start).count() != 1 {
            return None;
        }
        if s.lists.iter().any(|l| l.fields.iter().any(|f| f.first == *start || f.last.as_ref() == Some(start))) {
            return None;
        }
        if lv.iter().any(|v| equal(ctx, s, v, start)) {
            return None;
        }
    }
    Some((size, blocks.into_iter().map(|(id, _)| id).collect()))
}

/// Adds the payload block of `size` bytes at `start` (a materialized cell's owned field value)
/// to AL as a live heap block with unknown contents: disjoint from every other block by the
/// allocation facts, as the invariant promised (its blocks are known to no AL entry). A start
/// that already is a block's start is left alone (the invariant does not hold its block).
pub(super) fn own_block(ctx: &mut Ctx<'_>, st: &mut State, start: &Var, size: u64) {
    if st.allocs.iter().any(|a| a.start == *start) {
        return;
    }
    st.add_atom(Atom::var_const(start, Rel::Ge, 1));
    let end = ctx.fresh("end");
    st.add_atoms([Atom::cmp(&LinExpr::var(&end), Rel::Eq, &plus(start, size as i128 - 1))]);
    st.add_atom(Atom::var_const(&end, Rel::Le, super::exec::ADDR_MAX));
    let id = ctx.fresh_alloc_id();
    st.allocs.push(Alloc { id, start: start.clone(), end, kind: AllocKind::Heap, pristine: None });
}

/// Brings back the payload blocks of a materialized cell whose fields hold `value(field)`.
pub(super) fn own_blocks(ctx: &mut Ctx<'_>, st: &mut State, fields: &[ListField], value: impl Fn(&ListField) -> Option<Var>) {
    for f in fields {
        if let (Some(k), Some(v)) = (f.owns, value(f)) {
            own_block(ctx, st, &v, k);
        }
    }
}

/// The merged invariant owns payloads where both sides do (an empty side owns vacuously: it
/// has no cells).
pub(super) fn merge_owns(a: Option<u64>, a_empty: bool, b: Option<u64>, b_empty: bool) -> Option<u64> {
    match (a, b) {
        (x, y) if x == y => x,
        (x, _) if b_empty => x,
        (_, y) if a_empty => y,
        _ => None,
    }
}

/// The general invariant's owned payloads hold in the instance's (a general field that owns
/// nothing promises nothing; forgetting blocks is a sound weakening).
pub(super) fn owns_cover(general: &[ListField], inst: &[ListField]) -> bool {
    general.iter().zip(inst).all(|(g, h)| g.owns.is_none() || g.owns == h.owns)
}
