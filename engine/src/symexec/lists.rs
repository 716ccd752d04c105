//! List invariants (seed 001, digest-001): the state component `LI` that abstracts a chain
//! of NULL-terminated heap cells by its start, its length and the first/last values of its
//! fields; folding concrete chains into it at generalization points, materializing its
//! first cell on access, its conjuncts of ⟨s⟩, and its part of the instance check and merge.
//!
//! Representation (differs from the paper where noted, see ARCHITECTURE.md "Lists (seed 001)"):
//! `start ↪^len [(off_i : size_i : first_i .. last_i)]` with one recursive pointer field
//! `rec`. It stands for `len ≥ 0` pairwise disjoint heap blocks of `size` bytes each (every one
//! its own `malloc`ed block, freeable), known to no AL entry, where the block at `start` is
//! the first, each block's field `rec` holds the next block's start and the last one's holds
//! NULL. `len = 0` iff `start = 0` (the empty list: the paper's invariants have `len ≥ 1`;
//! allowing 0 lets the rest of a list whose first cell was taken stay one invariant whether or
//! not it is empty).
//!
//! A *segment* (seed 001's `v̂_j ≠ 0`, the traversed prefix of §2.6) has `last = Some(t)` in
//! its recursive field: the last cell's recursive field holds `t` instead of NULL, where `t`
//! is the start of a block outside the segment (a concrete cell a local points to, e.g. the
//! tail of a list built by appending). `len = 0` means `start = t`. Folding never builds a
//! segment whose target is one of its own cells, so segments are acyclic too.

use super::ctx::Ctx;
use super::facts::{ARel, Atom, Fact};
use super::generalize::Mu;
use super::state::{Alloc, AllocKind, PtEntry, State};
use crate::logic::{LinExpr, Rel, Var};
use std::collections::{BTreeMap, BTreeSet};

/// One field of the cells of a list invariant.
#[derive(Clone, PartialEq, Eq, Hash, Debug, serde::Serialize, serde::Deserialize)]
pub struct ListField {
    pub off: u64,
    pub size: u64,
    pub is_ptr: bool,
    pub unsigned: bool,
    /// Value in the first cell.
    pub first: Var,
    /// Value in the last cell. For the recursive field: `None` when it is NULL there (a
    /// NULL-terminated list), `Some(t)` for a segment ending at `t`.
    pub last: Option<Var>,
    /// How the value changes from one cell to the next (`lists_values`; integers only).
    pub step: Option<super::lists_values::Step>,
    /// Constant bounds of every cell's value (`lists_ranges`; integers only).
    #[serde(default)]
    pub range: Option<super::lists_ranges::Range>,
    /// Pointers only: every cell's value of this field is the start of its own live heap
    /// block of this many bytes (its payload), pairwise disjoint, known to no AL entry and
    /// referenced from nothing but that field; contents unknown (`lists_owned`).
    #[serde(default)]
    pub owns: Option<u64>,
}

/// A list invariant (see the module documentation).
#[derive(Clone, PartialEq, Eq, Hash, Debug, serde::Serialize, serde::Deserialize)]
pub struct ListInv {
    pub start: Var,
    pub len: Var,
    /// Size of every cell in bytes.
    pub size: u64,
    /// Index of the recursive field in `fields`.
    pub rec: usize,
    pub fields: Vec<ListField>,
    /// Doubly linked: the field holding each cell's predecessor, and the last cell
    /// (`lists_backward`).
    #[serde(default)]
    pub back: Option<super::lists_backward::Back>,
    /// Singly linked: the start of the last cell, NULL when the list is empty (`lists_prev`:
    /// the `prev` cursor one cell behind a walk). Only on invariants without `back`.
    #[serde(default)]
    pub tail: Option<Var>,
}

impl ListInv {
    /// Every variable of the invariant.
    pub fn vars(&self) -> Vec<Var> {
        let mut v = vec![self.start.clone(), self.len.clone()];
        for f in &self.fields {
            v.push(f.first.clone());
            v.extend(f.last.clone());
        }
        v.extend(self.back.as_ref().map(|b| b.last_cell.clone()));
        v.extend(self.tail.clone());
        v
    }

    /// The invariant with its variables replaced, position by position in the order of
    /// [`ListInv::vars`] (not through a map: one variable may occur at two positions, e.g.
    /// the first and last next pointer of a one-cell segment, and be merged differently).
    pub fn with_vars(&self, vars: &[Var]) -> ListInv {
        let mut l = self.clone();
        let mut it = vars.iter().cloned();
        let mut next = |old: &Var| it.next().unwrap_or_else(|| old.clone());
        l.start = next(&self.start);
        l.len = next(&self.len);
        for x in &mut l.fields {
            x.first = next(&x.first);
            if let Some(last) = &x.last {
                x.last = Some(next(last));
            }
        }
        if let Some(b) = &mut l.back {
            b.last_cell = next(&b.last_cell);
        }
        if let Some(t) = &self.tail {
            l.tail = Some(next(t));
        }
        l
    }

    pub fn rename(&self, f: &dyn Fn(&Var) -> Var) -> ListInv {
        let mut l = self.clone();
        l.start = f(&l.start);
        l.len = f(&l.len);
        for x in &mut l.fields {
            x.first = f(&x.first);
            x.last = x.last.as_ref().map(f);
        }
        if let Some(b) = &mut l.back {
            b.last_cell = f(&b.last_cell);
        }
        l.tail = l.tail.as_ref().map(f);
        l
    }

    /// Same cell size, recursive field and field layout.
    pub(super) fn same_shape(&self, o: &ListInv) -> bool {
        self.size == o.size
            && self.rec == o.rec
            && self.fields.len() == o.fields.len()
            && self.end().is_some() == o.end().is_some()
            && self.fields.iter().zip(&o.fields).all(|(a, b)| (a.off, a.size, a.is_ptr, a.unsigned) == (b.off, b.size, b.is_ptr, b.unsigned))
    }

    pub(super) fn rec_field(&self) -> &ListField {
        &self.fields[self.rec]
    }

    /// The target of a segment (`None` for a NULL-terminated list).
    pub fn end(&self) -> Option<&Var> {
        self.rec_field().last.as_ref()
    }
}

pub(super) fn le(a: &LinExpr, b: &LinExpr) -> Option<Atom> {
    Atom::cmp(a, Rel::Le, b)
}

pub(super) fn plus(v: &Var, c: i128) -> LinExpr {
    LinExpr::var(v).add_scaled(1, &LinExpr::constant(c)).unwrap_or_else(|| LinExpr::var(v))
}

/// The conjuncts of ⟨s⟩ contributed by the list invariants: lengths and starts (`len = 0` iff
/// `start = 0` for a NULL-terminated list, `len = 0` ⇒ `start = t` for a segment ending at
/// `t`), the recursive field of the first cell is the end (NULL or `t`) when `len = 1` and a
/// cell start (≥ 1) when `len ≥ 2` (seed 001's `v_ℓ ≥ 2` rule; for NULL-terminated lists
/// both directions), first = last values when `len = 1`, and the first cell disjoint from
/// every allocation and every other invariant's first cell.
pub fn state_facts(s: &State) -> Vec<Fact> {
    let mut out = vec![];
    let c = |k: i128| LinExpr::constant(k);
    for (i, l) in s.lists.iter().enumerate() {
        let (st, len) = (LinExpr::var(&l.start), LinExpr::var(&l.len));
        let empty = le(&len, &c(0));
        let nonempty = le(&c(1), &len);
        // the value the last cell's recursive field holds
        let end = l.end().map(LinExpr::var).unwrap_or_else(|| c(0));
        out.push(Fact::Atom(Atom::var_const(&l.len, Rel::Ge, 0)));
        out.push(Fact::Atom(Atom::var_const(&l.start, Rel::Ge, 0)));
        out.extend(empty.clone().zip(le(&c(1), &st)).map(|(a, b)| Fact::Or(vec![a, b])));
        out.extend(nonempty.clone().zip(Atom::cmp(&st, Rel::Eq, &end)).map(|(a, b)| Fact::Or(vec![a, b])));
        let last_byte = plus(&l.start, l.size as i128 - 1);
        out.extend(empty.clone().zip(le(&last_byte, &c(super::exec::ADDR_MAX))).map(|(a, b)| Fact::Or(vec![a, b])));
        let single = le(&len, &c(1));
        let several = le(&c(2), &len);
        let next = LinExpr::var(&l.rec_field().first);
        out.extend(single.clone().zip(le(&c(1), &next)).map(|(a, b)| Fact::Or(vec![a, b])));
        if let (Some(sv), Some(em), Some(at_end)) = (several.clone(), empty.clone(), Atom::cmp(&next, Rel::Eq, &end)) {
            out.push(Fact::Or(vec![sv, em, at_end]));
        }
        out.extend(super::lists_values::facts(l));
        out.extend(super::lists_ranges::facts(l));
        out.extend(super::lists_backward::facts(s, i));
        out.extend(super::lists_prev::facts(s, i));
        for f in &l.fields {
            let Some(last) = &f.last else { continue };
            if let (Some(sv), Some(em), Some(eq)) = (several.clone(), empty.clone(), Atom::cmp(&LinExpr::var(&f.first), Rel::Eq, &LinExpr::var(last))) {
                out.push(Fact::Or(vec![sv, em, eq]));
            }
        }
        for a in &s.allocs {
            let before = Atom::cmp(&last_byte, Rel::Lt, &LinExpr::var(&a.start));
            let after = Atom::cmp(&LinExpr::var(&a.end), Rel::Lt, &st);
            if let (Some(e), Some(x), Some(y)) = (empty.clone(), before, after) {
                out.push(Fact::Or(vec![e, x, y]));
            }
        }
        for m in &s.lists[i + 1..] {
            let other_last = plus(&m.start, m.size as i128 - 1);
            let parts = (empty.clone(), le(&LinExpr::var(&m.len), &c(0)), Atom::cmp(&last_byte, Rel::Lt, &LinExpr::var(&m.start)), Atom::cmp(&other_last, Rel::Lt, &st));
            if let (Some(a), Some(b), Some(x), Some(y)) = parts {
                out.push(Fact::Or(vec![a, b, x, y]));
            }
        }
    }
    out
}

/// Materializes the first cell of the list invariant whose first cell provably contains
/// `[addr, addr + size − 1]` (seed 001's load-from-the-first-element and traversal rules in
/// one): the cell becomes an ordinary heap block with its fields' first values in PT, and the
/// invariant is replaced by the rest of the list (start = the cell's recursive field, length
/// `len − 1`, fresh first values, the same last values). When the access lies in the first
/// cell only if the list is non-empty, the state is split first (a refinement: `len = 0`,
/// where the invariant is dropped and its start is its end, and `len ≥ 1`, materialized);
/// the caller re-runs the access on each. `None` if no invariant's first cell can contain
/// the access: the caller reports the access as unsafe.
pub fn materialize(ctx: &mut Ctx<'_>, s: &State, addr: &Var, size: u64) -> Option<Vec<State>> {
    for i in 0..s.lists.len() {
        let start = s.lists[i].start.clone();
        if let Some(out) = materialize_cell(ctx, s, i, &start, (addr, size), vec![], take_first) {
            return Some(out);
        }
    }
    super::lists_backward::materialize_last(ctx, s, addr, size)
}

/// The access `(addr, size)` inside the cell at `cell` of invariant `i` under `len ≥ 1`: the
/// state `take` materializes, split first on emptiness when ⟨s⟩ does not prove `len ≥ 1`
/// (`len = 0`: the invariant dropped, its start its end, and `empty_facts`). `None` when
/// the access need not lie in that cell.
pub(super) fn materialize_cell(ctx: &mut Ctx<'_>, s: &State, i: usize, cell: &Var, (addr, size): (&Var, u64), empty_facts: Vec<Option<Atom>>, take: fn(&mut Ctx<'_>, &State, usize) -> State) -> Option<Vec<State>> {
    let l = &s.lists[i];
    let lo = le(&LinExpr::var(cell), &LinExpr::var(addr))?;
    let hi = le(&plus(addr, size as i128 - 1), &plus(cell, l.size as i128 - 1))?;
    let nonempty = Atom::var_const(&l.len, Rel::Ge, 1);
    // a provably empty list has no cell (assuming `len ≥ 1` would make ⟨s⟩ unsatisfiable
    // and every access "lie" in the cell: a phantom state)
    if ctx.entails(s, &[Atom::var_const(&l.len, Rel::Le, 0)]) {
        return None;
    }
    let mut assumed = s.clone();
    assumed.add_atom(nonempty.clone());
    if !ctx.entails(&assumed, &[lo, hi]) {
        return None;
    }
    if ctx.entails(s, std::slice::from_ref(&nonempty)) {
        return Some(vec![take(ctx, s, i)]);
    }
    let mut empty = s.clone();
    let l = empty.lists.remove(i);
    empty.add_atom(Atom::var_const(&l.len, Rel::Eq, 0));
    let end = l.end().map(LinExpr::var).unwrap_or_else(|| LinExpr::constant(0));
    empty.add_atoms([Atom::cmp(&LinExpr::var(&l.start), Rel::Eq, &end)]);
    empty.add_atoms(empty_facts);
    tracing::debug!("lists: split on the emptiness of {:?} at the cell {:?}", l, cell);
    Some(vec![empty, take(ctx, &assumed, i)])
}

/// The state with the first cell of the (provably non-empty) invariant `i` materialized.
fn take_first(ctx: &mut Ctx<'_>, s: &State, i: usize) -> State {
    let nonempty = Atom::var_const(&s.lists[i].len, Rel::Ge, 1);
    let mut st = s.clone();
    let l = st.lists.remove(i);
    st.add_atom(nonempty);
    st.add_atom(Atom::var_const(&l.start, Rel::Ge, 1));
    let end = ctx.fresh("end");
    st.add_atoms([Atom::cmp(&LinExpr::var(&end), Rel::Eq, &plus(&l.start, l.size as i128 - 1))]);
    st.add_atom(Atom::var_const(&end, Rel::Le, super::exec::ADDR_MAX));
    let id = ctx.fresh_alloc_id();
    st.allocs.push(Alloc { id, start: l.start.clone(), end, kind: AllocKind::Heap, pristine: None });
    for f in &l.fields {
        let faddr = if f.off == 0 {
            l.start.clone()
        } else {
            let a = ctx.fresh("addr");
            st.add_atoms([Atom::cmp(&LinExpr::var(&a), Rel::Eq, &plus(&l.start, f.off as i128))]);
            a
        };
        if let Some(r) = f.range {
            st.add_atoms(r.atoms(&f.first).map(Some));
        }
        st.pt.push(PtEntry { addr: faddr, size: f.size, is_ptr: f.is_ptr, unsigned: f.unsigned, value: f.first.clone(), alloc: id });
    }
    super::lists_owned::own_blocks(ctx, &mut st, &l.fields, |f| Some(f.first.clone()));
    // the rest: len − 1 cells starting at the first cell's recursive field
    let len = ctx.fresh("len");
    st.add_atoms([Atom::cmp(&LinExpr::var(&len), Rel::Eq, &plus(&l.len, -1))]);
    st.add_atom(Atom::var_const(&len, Rel::Ge, 0));
    let mut rest = ListInv { start: l.rec_field().first.clone(), len, size: l.size, rec: l.rec, fields: vec![], back: None, tail: None };
    for (k, f) in l.fields.iter().enumerate() {
        let first = if k == l.rec {
            ctx.fresh("next")
        } else {
            ctx.fresh("first")
        };
        st.add_atoms(fresh_range(&first, f));
        st.add_atoms([super::lists_values::rest_atom(f, &f.first, &first)]);
        rest.fields.push(ListField { first, ..f.clone() });
    }
    super::lists_backward::rest_after_first(&l, &mut rest);
    tracing::debug!("lists: materialized the first cell of {:?}, rest {:?}", l, rest);
    st.lists.push(rest);
    st
}

/// Range facts of a fresh field value (pointers are addresses; integers in their view).
pub(super) fn fresh_range(v: &Var, f: &ListField) -> Vec<Option<Atom>> {
    let bits = (f.size * 8) as u32;
    if f.is_ptr {
        vec![Some(Atom::var_const(v, Rel::Ge, 0)), Some(Atom::var_const(v, Rel::Le, super::exec::ADDR_MAX))]
    } else if (1..=64).contains(&bits) {
        let (lo, hi) = if f.unsigned { (0, (1i128 << bits) - 1) } else { (-(1i128 << (bits - 1)), (1i128 << (bits - 1)) - 1) };
        vec![Some(Atom::var_const(v, Rel::Ge, lo)), Some(Atom::var_const(v, Rel::Le, hi))]
    } else {
        vec![]
    }
}

/// `end − start + 1` when the KB states it as a constant (`end = start + k`).
pub(super) fn block_size(s: &State, a: &Alloc) -> Option<u64> {
    s.kb.iter().find_map(|f| {
        let Fact::Atom(x) = f else { return None };
        if x.rel != ARel::Eq || x.e.coeffs.len() != 2 {
            return None;
        }
        let ce = *x.e.coeffs.get(&a.end)?;
        let cs = *x.e.coeffs.get(&a.start)?;
        if ce != -cs || ce.abs() != 1 {
            return None;
        }
        // ce·end − ce·start + c = 0  ⇒  end − start = −c/ce
        let d = -x.e.constant / ce;
        u64::try_from(d + 1).ok().filter(|n| *n > 0)
    })
}

/// The constant offset of `addr` from `start` when the KB states it (`addr = start + k`).
pub(super) fn offset_in(s: &State, start: &Var, addr: &Var) -> Option<u64> {
    if addr == start {
        return Some(0);
    }
    s.kb.iter().find_map(|f| {
        let Fact::Atom(x) = f else { return None };
        if x.rel != ARel::Eq || x.e.coeffs.len() != 2 {
            return None;
        }
        let ca = *x.e.coeffs.get(addr)?;
        let cs = *x.e.coeffs.get(start)?;
        if ca != -cs || ca.abs() != 1 {
            return None;
        }
        u64::try_from(-x.e.constant / ca).ok()
    })
}

/// A heap block that may become a list cell: its size and its fields (PT entries at constant
/// offsets; other entries make it no candidate).
pub(super) struct Cell {
    pub(super) id: u32,
    pub(super) start: Var,
    pub(super) size: u64,
    pub(super) fields: Vec<(u64, PtEntry)>,
}

/// The offset of `addr` in the block at `start` of `size` bytes: stated in the KB, else a
/// model's guess that ⟨s⟩ proves (a field address computed from a copy of the block's
/// pointer, e.g. the cursor of a walk, is related to the start only through that copy).
fn offset_of(ctx: &mut Ctx<'_>, s: &State, start: &Var, addr: &Var, size: u64) -> Option<u64> {
    if let Some(k) = offset_in(s, start, addr) {
        return Some(k);
    }
    let m = ctx.model(s, &[addr.clone(), start.clone()])?;
    let d = m.first()? - m.get(1)?;
    let k = u64::try_from(d).ok().filter(|k| *k < size)?;
    ctx.entails(s, &[Atom::cmp(&LinExpr::var(addr), Rel::Eq, &plus(start, d))?]).then_some(k)
}

fn cells(ctx: &mut Ctx<'_>, s: &State) -> Vec<Cell> {
    let mut out = vec![];
    'blocks: for a in s.allocs.iter().filter(|a| a.kind == AllocKind::Heap) {
        let Some(size) = block_size(s, a) else { continue };
        let mut fields = vec![];
        for p in s.pt.iter().filter(|p| p.alloc == a.id) {
            let Some(off) = offset_of(ctx, s, &a.start, &p.addr, size) else { continue 'blocks };
            fields.push((off, p.clone()));
        }
        fields.sort_by_key(|(o, _)| *o);
        out.push(Cell { id: a.id, start: a.start.clone(), size, fields });
    }
    out
}

/// A member of a chain: a candidate cell (index into [`cells`]) or a list invariant (index
/// into `State::lists`).
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Debug)]
pub(super) enum Node {
    Cell(usize),
    List(usize),
}

/// Where a recursive field's value leads.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) enum Link {
    To(Node),
    Null,
}

/// How a chain ends: in NULL, or at a node that stays outside (its start is the target of the
/// folded segment).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) enum End {
    Null,
    At(Node),
}

/// Folds chains of concrete heap cells (and list invariants) into list invariants (done at
/// generalization points, before the instance check and merging; a sound abstraction: the
/// folded state represents every concrete state the original one does). A chain is a
/// sequence of distinct members of one cell size, linked through the pointer field at one
/// offset: heap blocks of that constant size and invariants of that shape. It ends in NULL
/// (a NULL-terminated list) or at a *pinned* member, which stays outside (a segment ending at
/// its start): one a live local points to, or one reached by two links or from elsewhere in
/// memory. Its first member is linked from no other member unless it is pinned itself, and
/// its later members are referenced from nothing but their predecessor's link and other fields
/// of members (no sharing; a doubly linked list's `prev` pointers stay allowed);
/// a chain that runs into itself (a cycle) is never folded. Its blocks and their PT entries
/// leave AL/PT. A single block is folded through the first of its pointer fields that is NULL
/// or links to a member. Invariants of length 0
/// are dropped (their start = end fact kept). Returns whether anything changed.
pub fn fold(ctx: &mut Ctx<'_>, s: &mut State) -> bool {
    let mut changed = false;
    let before = s.lists.len();
    // (emptiness is decided with every invariant's facts in ⟨s⟩: a NULL start proves a
    // NULL-terminated list empty only through its own `len = 0 ⇔ start = 0`)
    let empty: Vec<bool> = (0..s.lists.len()).map(|k| ctx.entails(s, &[Atom::var_const(&s.lists[k].len, Rel::Eq, 0)])).collect();
    let lists = std::mem::take(&mut s.lists);
    let mut dropped = vec![];
    for (l, e) in lists.into_iter().zip(empty) {
        if e {
            dropped.push(l);
        } else {
            s.lists.push(l);
        }
    }
    for l in dropped {
        let end = l.end().map(LinExpr::var).unwrap_or_else(|| LinExpr::constant(0));
        s.add_atoms([Atom::cmp(&LinExpr::var(&l.start), Rel::Eq, &end)]);
        // (entailed; the projection then substitutes it into facts such as `len_copy +
        // len ≤ 1000`, which would otherwise be dropped with the variable)
        s.add_atom(Atom::var_const(&l.len, Rel::Eq, 0));
    }
    // a segment ending at NULL is a NULL-terminated list
    for k in 0..s.lists.len() {
        let Some(t) = s.lists[k].end().cloned() else { continue };
        if is_null(ctx, s, &t) {
            let rec = s.lists[k].rec;
            s.lists[k].fields[rec].last = None;
            changed = true;
        }
    }
    changed |= s.lists.len() != before;
    name_starts(ctx, s);
    while let Some(next) = fold_one(ctx, s) {
        *s = next;
        changed = true;
    }
    name_starts(ctx, s);
    super::lists_rust::name_starts(ctx, s);
    super::lists_backward::name_last_cells(ctx, s);
    super::lists_prev::name_tails(ctx, s);
    name_blocks(ctx, s);
    bound_lengths(ctx, s);
    changed
}

/// Renames the start of every heap block that a local provably points to (but by another
/// variable) to that local's variable throughout the state (an equivalence: ⟨s⟩ proves the
/// two equal), so that merging pairs the blocks two states' locals point to even when they
/// are different allocations (the cell at the end of a list built by appending).
fn name_blocks(ctx: &mut Ctx<'_>, s: &mut State) {
    let lv: Vec<Var> = s.frames.iter().flat_map(|f| f.lv.values().cloned()).collect();
    for i in 0..s.allocs.len() {
        let a = &s.allocs[i];
        if a.kind != AllocKind::Heap || lv.contains(&a.start) {
            continue;
        }
        let start = a.start.clone();
        let taken: BTreeSet<Var> = s.allocs.iter().map(|x| x.start.clone()).chain(s.lists.iter().map(|l| l.start.clone())).collect();
        let Some(v) = lv.iter().find(|v| !taken.contains(*v) && equal(ctx, s, v, &start)).cloned() else { continue };
        *s = s.rename(&|x| if *x == start { v.clone() } else { x.clone() });
    }
}

/// States the tightest constant upper bound of every invariant's length that ⟨s⟩ proves,
/// among the constants of the KB (an entailed fact, so adding it changes nothing; it keeps
/// the bound when the variables it came from die, e.g. `len ≤ n ≤ 1000` after the loop that
/// built the list, so that a counter beside a shrinking list can be bounded by it).
fn bound_lengths(ctx: &mut Ctx<'_>, s: &mut State) {
    for i in 0..s.lists.len() {
        let len = s.lists[i].len.clone();
        if let Some(bound) = length_bound(ctx, s, &len) {
            s.add_atom(bound);
        }
    }
}

/// The tightest constant upper bound `len ≤ k` ⟨s⟩ proves, among the KB's constants.
pub(super) fn length_bound(ctx: &mut Ctx<'_>, s: &State, len: &Var) -> Option<Atom> {
    let mut ks: Vec<crate::logic::Int> = s
        .kb
        .iter()
        .filter_map(|f| if let Fact::Atom(x) = f { Some(x.e.constant.abs()) } else { None })
        .filter(|k| *k >= 1 && *k < (1 << 40))
        .collect();
    ks.sort_unstable();
    ks.dedup();
    // `len ≤ k` is monotone in k: binary search for the smallest entailed constant
    let k = super::lists_ranges::smallest(&ks, |k| ctx.entails(s, &[Atom::var_const(len, Rel::Le, k)]))?;
    Some(Atom::var_const(len, Rel::Le, k))
}

/// Names every invariant's start by a local equal to it where there is one (merges match
/// invariants through the locals that point to them; any variable equal to the start
/// denotes the same invariant). Integer locals never name a start: one that is 0 where the
/// list is empty (a counter before its walk) would tie the start to the counter in merges,
/// which then lose the pointer that leads to the list (delete_value's count walk).
fn name_starts(ctx: &mut Ctx<'_>, s: &mut State) {
    let lv: Vec<Var> = s.frames.iter().flat_map(|f| f.lv.values().cloned()).collect();
    let ints: BTreeSet<Var> = s.frames.iter().flat_map(|f| f.lv.iter().filter(|(x, _)| matches!(ctx.value_type(f.func, **x), Some(crate::ir::Type::Int(_)))).map(|(_, v)| v.clone())).collect();
    for i in 0..s.lists.len() {
        let start = s.lists[i].start.clone();
        if lv.contains(&start) {
            continue;
        }
        let taken: BTreeSet<Var> = s.lists.iter().map(|l| l.start.clone()).collect();
        for v in lv.iter().filter(|v| !ints.contains(*v)) {
            if taken.contains(v) {
                continue;
            }
            let eq = Atom::cmp(&LinExpr::var(v), Rel::Eq, &LinExpr::var(&start));
            if eq.is_some_and(|eq| ctx.entails(s, &[eq])) {
                s.lists[i].start = v.clone();
                break;
            }
        }
    }
}

pub(super) fn is_null(ctx: &mut Ctx<'_>, s: &State, v: &Var) -> bool {
    ctx.entails(s, &[Atom::var_const(v, Rel::Eq, 0)])
}

pub(super) fn equal(ctx: &mut Ctx<'_>, s: &State, a: &Var, b: &Var) -> bool {
    a == b || Atom::cmp(&LinExpr::var(a), Rel::Eq, &LinExpr::var(b)).is_some_and(|eq| ctx.entails(s, &[eq]))
}

/// The members of one shape (cell size, recursive offset) and their links.
pub(super) struct Chains<'a> {
    pub(super) s: &'a State,
    pub(super) cs: &'a [Cell],
    pub(super) size: u64,
    pub(super) off: u64,
}

impl Chains<'_> {
    pub(super) fn start(&self, n: Node) -> &Var {
        match n {
            Node::Cell(k) => &self.cs[k].start,
            Node::List(k) => &self.s.lists[k].start,
        }
    }

    fn is_member(&self, n: Node) -> bool {
        match n {
            Node::Cell(k) => self.cs[k].size == self.size,
            Node::List(k) => {
                let l = &self.s.lists[k];
                l.size == self.size && l.rec_field().off == self.off
            }
        }
    }

    fn resolve(&self, ctx: &mut Ctx<'_>, v: &Var) -> Option<Link> {
        if let Some(k) = self.cs.iter().position(|d| d.start == *v && d.size == self.size) {
            return Some(Link::To(Node::Cell(k)));
        }
        if !is_null(ctx, self.s, v) {
            for (k, d) in self.cs.iter().enumerate().filter(|(_, d)| d.size == self.size) {
                if equal(ctx, self.s, &d.start, v) {
                    return Some(Link::To(Node::Cell(k)));
                }
            }
        }
        let members: Vec<usize> = (0..self.s.lists.len()).filter(|k| self.is_member(Node::List(*k))).collect();
        if let Some(k) = members.iter().find(|k| self.s.lists[**k].start == *v) {
            return Some(Link::To(Node::List(*k)));
        }
        for k in members {
            if equal(ctx, self.s, &self.s.lists[k].start, v) {
                return Some(Link::To(Node::List(k)));
            }
        }
        is_null(ctx, self.s, v).then_some(Link::Null)
    }

    fn link(&self, ctx: &mut Ctx<'_>, n: Node) -> Option<Link> {
        if !self.is_member(n) {
            return None;
        }
        match n {
            Node::Cell(k) => {
                let (_, p) = self.cs[k].fields.iter().find(|(o, p)| *o == self.off && p.is_ptr)?;
                self.resolve(ctx, &p.value)
            }
            Node::List(k) => match self.s.lists[k].end() {
                None => Some(Link::Null),
                Some(t) => self.resolve(ctx, t),
            },
        }
    }
}

fn fold_one(ctx: &mut Ctx<'_>, s: &State) -> Option<State> {
    let cs = cells(ctx, s);
    if cs.is_empty() && s.lists.len() < 2 {
        return None;
    }
    let mut shapes: BTreeSet<(u64, u64)> = cs.iter().flat_map(|c| c.fields.iter().filter(|(_, p)| p.is_ptr).map(|(o, _)| (c.size, *o))).collect();
    shapes.extend(s.lists.iter().map(|l| (l.size, l.rec_field().off)));
    let lv: Vec<Var> = s.frames.iter().flat_map(|f| f.lv.values().cloned()).collect();
    for (size, off) in shapes {
        let ch = Chains { s, cs: &cs, size, off };
        let nodes: Vec<Node> = (0..cs.len()).map(Node::Cell).chain((0..s.lists.len()).map(Node::List)).filter(|n| ch.is_member(*n)).collect();
        let links: Vec<Option<Link>> = nodes.iter().map(|n| ch.link(ctx, *n)).collect();
        // without concrete cells only a segment that leads into another member can fold (a
        // walked prefix and the rest of its list once the cursor is dead)
        let joins = links.iter().any(|l| matches!(l, Some(Link::To(Node::List(_)))));
        if !nodes.iter().any(|n| matches!(n, Node::Cell(_))) && !joins {
            continue;
        }
        let indegree = |n: Node| links.iter().filter(|l| **l == Some(Link::To(n))).count();
        // pinned: referenced by a local, by two links, or from memory other than a link
        let mut pinned = BTreeSet::new();
        let mut held_only = BTreeSet::new();
        for &n in &nodes {
            let start = ch.start(n).clone();
            // (references from other fields of members, e.g. the `prev` pointers of a doubly
            // linked list, are values the fold keeps or forgets, not sharing that pins)
            let member_cell = |id: u32| cs.iter().any(|c| c.id == id && c.size == size);
            let by_memory = s.pt.iter().any(|p| p.value == start && !member_cell(p.alloc))
                || s.lists.iter().enumerate().any(|(k, l)| {
                    Node::List(k) != n && !ch.is_member(Node::List(k)) && l.fields.iter().any(|f| f.first == start || f.last.as_ref() == Some(&start))
                });
            let by_local = lv.contains(&start) || (indegree(n) == 1 && lv.iter().any(|v| equal(ctx, s, v, &start)));
            if by_memory || by_local || indegree(n) >= 2 || super::lists_backward::after_held_last(ctx, &ch, &nodes, &links, n, &lv) {
                pinned.insert(n);
            }
            if by_local && !by_memory && indegree(n) < 2 {
                held_only.insert(n);
            }
        }
        for (h, &head) in nodes.iter().enumerate() {
            if links[h].is_none() || (indegree(head) > 0 && !pinned.contains(&head)) {
                continue;
            }
            let mut chain = vec![head];
            let end = loop {
                let cur = *chain.last().unwrap_or(&head);
                let at = nodes.iter().position(|n| *n == cur)?;
                match links[at] {
                    Some(Link::Null) => break Some(End::Null),
                    // a cycle through a pinned head (the cursor of a walk around a cyclic
                    // list): the rest of the cycle becomes a segment ending at the head, if
                    // it has concrete cells to fold
                    Some(Link::To(n)) if n == head && pinned.contains(&head) && chain[1..].iter().any(|m| matches!(m, Node::Cell(_))) => {
                        // the whole cycle as one segment back to its start, if its values
                        // rise or fall along it (`lists_cyclic`)
                        if let Some(next) = super::lists_cyclic::whole_cycle(ctx, &ch, &chain) {
                            return Some(next);
                        }
                        if let Some(next) = build(ctx, &ch, &chain[1..], End::At(head)) {
                            return Some(next);
                        }
                        tracing::trace!("lists: the cycle {:?} through {:?} did not fold", chain, head);
                        break None;
                    }
                    Some(Link::To(n)) if chain.contains(&n) => break None,
                    Some(Link::To(n)) if pinned.contains(&n) => {
                        // a doubly linked chain may take a cell a local holds as its last one
                        if let Some(next) = held_only.contains(&n).then(|| super::lists_backward::join_last(ctx, &ch, &chain, n, &nodes, &links)).flatten() {
                            return Some(next);
                        }
                        // a singly linked chain may take the cell a `prev` cursor holds as its
                        // last one, named as its tail (`lists_prev`)
                        if let Some(next) = held_only.contains(&n).then(|| super::lists_prev::join_tail(ctx, &ch, &chain, n, (&nodes, &links), &pinned)).flatten() {
                            return Some(next);
                        }
                        break Some(End::At(n));
                    }
                    Some(Link::To(n)) => chain.push(n),
                    None => break None,
                }
            };
            let Some(end) = end else { continue };
            if chain.len() == 1 {
                let Node::Cell(k) = head else { continue };
                // the recursive field of a lone block: its only pointer field that is NULL or
                // points to a member, else (several, e.g. `next` and `prev` both NULL) the
                // first of them (any choice is sound; the first is tried first for chains too)
                let c = &cs[k];
                let mut candidates = vec![];
                for (o, p) in c.fields.iter().filter(|(_, p)| p.is_ptr) {
                    let other = Chains { s, cs: &cs, size, off: *o };
                    // (a block of the cell's size without a pointer at that offset that
                    // nothing but this field holds, e.g. a payload buffer, links nowhere:
                    // that field is no recursive field; one a local holds may be the cell
                    // being appended, whose link is not written yet)
                    let linked = match other.resolve(ctx, &p.value) {
                        Some(Link::To(Node::Cell(j))) => pinned.contains(&Node::Cell(j)) || cs[j].fields.iter().any(|(fo, fp)| fo == o && fp.is_ptr),
                        r => r.is_some(),
                    };
                    if linked {
                        candidates.push(*o);
                    }
                }
                if candidates.first() != Some(&off) {
                    continue;
                }
            }
            if let Some(next) = build(ctx, &ch, &chain, end) {
                return Some(next);
            }
        }
    }
    None
}

/// The state with the members of `chain` folded into one list invariant with the recursive
/// field at `ch.off`, NULL-terminated or a segment ending at `end`'s start.
pub(super) fn build(ctx: &mut Ctx<'_>, ch: &Chains<'_>, chain: &[Node], end: End) -> Option<State> {
    let (s, cs, size, off) = (ch.s, ch.cs, ch.size, ch.off);
    type Key = (u64, u64, bool, bool);
    let layout = |n: Node| -> BTreeSet<Key> {
        match n {
            Node::Cell(k) => cs[k].fields.iter().map(|(o, p)| (*o, p.size, p.is_ptr, p.unsigned)).collect(),
            Node::List(k) => s.lists[k].fields.iter().map(|f| (f.off, f.size, f.is_ptr, f.unsigned)).collect(),
        }
    };
    let mut common = layout(chain[0]);
    for &n in &chain[1..] {
        let other = layout(n);
        common.retain(|x| other.contains(x));
    }
    // fields must not overlap and must lie inside the cell
    let mut last_end = 0u64;
    let mut fields_ok = vec![];
    for x in &common {
        if x.0 < last_end || x.0 + x.1 > size {
            return None;
        }
        last_end = x.0 + x.1;
        fields_ok.push(*x);
    }
    let rec = fields_ok.iter().position(|x| x.0 == off && x.2)?;
    // no sharing: only the first member may be referenced from outside the chain (a local, a
    // stored pointer); a reference to a later member (e.g. the cursor of a traversal) would
    // be lost by folding, so such chains stay concrete
    let ids: BTreeSet<u32> = chain.iter().filter_map(|n| if let Node::Cell(k) = n { Some(cs[*k].id) } else { None }).collect();
    let in_chain: BTreeSet<usize> = chain.iter().filter_map(|n| if let Node::List(k) = n { Some(*k) } else { None }).collect();
    let back = super::lists_backward::chain_back(ctx, ch, chain, &fields_ok, rec);
    let tail = super::lists_prev::chain_tail(ctx, ch, chain, end, back.is_some());
    let mut inner: BTreeSet<Var> = chain[1..].iter().map(|n| ch.start(*n).clone()).collect();
    // (a doubly linked list's last cell, a singly linked one's tail, is reachable: a local
    // may hold it)
    inner.retain(|v| back.as_ref().is_none_or(|b| b.reachable_last.as_ref() != Some(v)) && tail.as_ref() != Some(v));
    let lv: Vec<Var> = s.frames.iter().flat_map(|f| f.lv.values().cloned()).collect();
    let mut in_lv = lv.iter().any(|v| inner.contains(v));
    'refs: for v in &lv {
        for w in &inner {
            if in_lv {
                break 'refs;
            }
            in_lv = equal(ctx, s, v, w);
        }
    }
    let in_pt = s.pt.iter().any(|p| inner.contains(&p.value) && !ids.contains(&p.alloc));
    let in_lists = s.lists.iter().enumerate().any(|(k, l)| {
        !in_chain.contains(&k) && l.fields.iter().any(|f| inner.contains(&f.first) || f.last.as_ref().is_some_and(|x| inner.contains(x)))
    });
    if in_lv || in_pt || in_lists {
        tracing::trace!("lists: chain {:?} shared (local {in_lv}, memory {in_pt}, list {in_lists})", chain);
        return None;
    }
    let value_of = |c: &Cell, x: &Key| c.fields.iter().find(|(o, p)| (*o, p.size, p.is_ptr, p.unsigned) == *x).map(|(_, p)| p.value.clone());
    let list_field = |k: usize, x: &Key| s.lists[k].fields.iter().find(|f| (f.off, f.size, f.is_ptr, f.unsigned) == *x).cloned();
    let nonempty = |ctx: &mut Ctx<'_>, k: usize| ctx.entails(s, &[Atom::var_const(&s.lists[k].len, Rel::Ge, 1)]);
    let (first_node, last_node) = (chain[0], *chain.last()?);
    let first_known = match first_node {
        Node::List(k) => nonempty(ctx, k),
        Node::Cell(_) => true,
    };
    let last_known = match last_node {
        Node::List(k) => nonempty(ctx, k),
        Node::Cell(_) => true,
    };
    let mut fresh_atoms = vec![];
    let mut fields = vec![];
    // the payload blocks the members own (`lists_owned`): they leave AL with the cells
    let mut owned_blocks: BTreeSet<u32> = BTreeSet::new();
    for (i, x) in fields_ok.iter().enumerate() {
        let proto = ListField { off: x.0, size: x.1, is_ptr: x.2, unsigned: x.3, first: Var::new("_"), last: None, step: None, range: None, owns: None };
        let mut fresh = |ctx: &mut Ctx<'_>, hint: &str| {
            let v = ctx.fresh(hint);
            fresh_atoms.extend(fresh_range(&v, &proto));
            v
        };
        // a possibly empty first (last) member's value is still the list's when, were the
        // member empty, it equals the next member's first (the previous one's last) value
        let passes = |ctx: &mut Ctx<'_>, k: usize, mine: &Var, other: Option<Var>| {
            let Some(other) = other else { return false };
            let mut assumed = s.clone();
            assumed.add_atom(Atom::var_const(&s.lists[k].len, Rel::Eq, 0));
            i != rec && equal(ctx, &assumed, mine, &other)
        };
        let first = match first_node {
            Node::Cell(k) => value_of(&cs[k], x)?,
            Node::List(k) if first_known => list_field(k, x)?.first,
            Node::List(k) => {
                let mine = list_field(k, x)?.first;
                // (the next member must be non-empty: an empty one's values describe no cell)
                let next = match chain.get(1) {
                    Some(Node::Cell(c)) => value_of(&cs[*c], x),
                    Some(Node::List(m)) if nonempty(ctx, *m) => list_field(*m, x).map(|f| f.first),
                    _ => None,
                };
                if passes(ctx, k, &mine, next) {
                    mine
                } else {
                    fresh(ctx, if i == rec { "next" } else { "first" })
                }
            }
        };
        let last = if i == rec {
            match end {
                End::Null => None,
                End::At(n) => Some(ch.start(n).clone()),
            }
        } else {
            match last_node {
                Node::Cell(k) => Some(value_of(&cs[k], x)?),
                Node::List(k) if last_known => list_field(k, x)?.last,
                Node::List(k) => {
                    let mine = list_field(k, x)?.last;
                    let prev = match chain.len().checked_sub(2).map(|p| chain[p]) {
                        Some(Node::Cell(c)) => value_of(&cs[c], x),
                        Some(Node::List(m)) if nonempty(ctx, m) => list_field(m, x).and_then(|f| f.last),
                        _ => None,
                    };
                    match mine {
                        Some(m) if passes(ctx, k, &m, prev) => Some(m),
                        _ => Some(fresh(ctx, "last")),
                    }
                }
            }
        };
        let step = if x.2 || i == rec {
            None
        } else {
            let mut members = vec![];
            for &n in chain {
                members.push(match n {
                    Node::Cell(c) => {
                        let v = value_of(&cs[c], x)?;
                        super::lists_values::Member { first: v.clone(), last: v, len: LinExpr::constant(1), len_var: None, step: None, maybe_empty: false }
                    }
                    Node::List(m) => {
                        let f = list_field(m, x)?;
                        let l = &s.lists[m];
                        super::lists_values::Member {
                            first: f.first,
                            last: f.last?,
                            len: LinExpr::var(&l.len),
                            len_var: Some(l.len.clone()),
                            step: f.step,
                            maybe_empty: !nonempty(ctx, m),
                        }
                    }
                });
            }
            let hint = match end {
                End::At(Node::Cell(c)) => value_of(&cs[c], x),
                End::At(Node::List(m)) => list_field(m, x).map(|f| f.first),
                End::Null => None,
            };
            super::lists_values::chain_step(ctx, s, &members, hint.as_ref())
        };
        if !x.2 {
            ctx.list_int_fields += 1;
        }
        let range = if x.2 || !ctx.list_value_ranges {
            None
        } else {
            let mut members = vec![];
            for &n in chain {
                members.push(match n {
                    Node::Cell(c) => super::lists_ranges::Member::Cell(value_of(&cs[c], x)?),
                    Node::List(m) => super::lists_ranges::Member::List { range: list_field(m, x)?.range, empty: ctx.entails(s, &[Atom::var_const(&s.lists[m].len, Rel::Le, 0)]) },
                });
            }
            super::lists_ranges::chain_range(ctx, s, &members, &proto)
        };
        let owns = if i == rec || back.as_ref().is_some_and(|b| b.field == i) {
            None
        } else {
            super::lists_owned::chain_owns(ctx, ch, chain, *x, &ids).map(|(k, blocks)| {
                owned_blocks.extend(blocks);
                k
            })
        };
        fields.push(ListField { first, last, step, range, owns, ..proto });
    }
    let mut st = s.clone();
    st.add_atoms(fresh_atoms);
    let len = ctx.fresh("len");
    let cells_in = chain.iter().filter(|n| matches!(n, Node::Cell(_))).count() as i128;
    let mut len_e = LinExpr::constant(cells_in);
    for &k in &in_chain {
        len_e = len_e.add_scaled(1, &LinExpr::var(&s.lists[k].len))?;
    }
    st.add_atoms([Atom::cmp(&LinExpr::var(&len), Rel::Eq, &len_e)]);
    let start = ch.start(first_node).clone();
    if cells_in > 0 {
        st.add_atom(Atom::var_const(&len, Rel::Ge, 1));
    }
    if first_known {
        st.add_atom(Atom::var_const(&start, Rel::Ge, 1));
    }
    st.allocs.retain(|a| !ids.contains(&a.id) && !owned_blocks.contains(&a.id));
    st.pt.retain(|p| !ids.contains(&p.alloc) && !owned_blocks.contains(&p.alloc));
    st.lists = s.lists.iter().enumerate().filter(|(k, _)| !in_chain.contains(k)).map(|(_, l)| l.clone()).collect();
    let back = back.map(|b| b.apply(ctx, &mut st, &mut fields));
    st.lists.push(ListInv { start, len, size, rec, fields, back, tail });
    tracing::debug!("lists: folded {:?} ending {:?} into {:?}", chain, end, st.lists.last());
    Some(st)
}

/// The local (frame index, value id) whose value in `s` is `v` (syntactically, else
/// provably).
pub(super) fn local_of(ctx: &mut Ctx<'_>, s: &State, v: &Var) -> Option<(usize, crate::ir::ValueId)> {
    let locals: Vec<(usize, crate::ir::ValueId, Var)> = s.frames.iter().enumerate().flat_map(|(i, f)| f.lv.iter().map(move |(x, w)| (i, *x, w.clone()))).collect();
    if let Some((i, x, _)) = locals.iter().find(|(_, _, w)| w == v) {
        return Some((*i, *x));
    }
    locals.into_iter().find(|(_, _, w)| equal(ctx, s, w, v)).map(|(i, x, _)| (i, x))
}

/// Empty invariants for merging (seed 001 §2.2 with the empty list as a list of length 0):
/// for every invariant of `other` that a local points to, where `s` has no invariant of that
/// shape at that local but provably holds the empty list there (the local is NULL, or for a
/// segment equal to the local its end is held by in `other`), adds that empty invariant to
/// `s` (length 0, fresh field values). An empty invariant stands for no cells, so `s` means
/// what it meant before; afterwards the instance check and the merge can pair the two.
/// Returns whether anything was added.
pub fn pad(ctx: &mut Ctx<'_>, s: &mut State, other: &State) -> bool {
    let mut added = super::lists_backward::name_like(ctx, s, other);
    for lb in &other.lists {
        let held = local_of(ctx, other, &lb.start).and_then(|(fi, x)| s.frames.get(fi).and_then(|f| f.lv.get(&x)).cloned());
        let Some(va) = held.or_else(|| super::lists_rust::held_value(ctx, other, s, &lb.start)) else { continue };
        if s.lists.iter().any(|l| l.same_shape(lb) && l.start == va) {
            continue;
        }
        let end = match lb.end() {
            None => None,
            Some(t) => {
                let Some((fj, y)) = local_of(ctx, other, t) else { continue };
                let Some(ta) = s.frames.get(fj).and_then(|f| f.lv.get(&y)).cloned() else { continue };
                Some(ta)
            }
        };
        let empty = match &end {
            None => is_null(ctx, s, &va),
            Some(ta) => equal(ctx, s, &va, ta),
        };
        // an empty segment may start where another list starts (its target: a walk's cursor
        // on its first step), an empty NULL-terminated list starts nowhere
        if !empty || (end.is_none() && s.lists.iter().any(|l| equal(ctx, s, &l.start, &va))) {
            continue;
        }
        let len = ctx.fresh("len");
        s.add_atom(Atom::var_const(&len, Rel::Eq, 0));
        let mut l = ListInv { start: va, len, size: lb.size, rec: lb.rec, fields: vec![], back: None, tail: None };
        for (i, f) in lb.fields.iter().enumerate() {
            let first = ctx.fresh(if i == lb.rec { "next" } else { "first" });
            s.add_atoms(fresh_range(&first, f));
            // an empty segment continues into its target: its (meaningless) first value is
            // the target cell's, so that `target value = first + c·len` relates both sides
            if let (Some(ta), false) = (&end, f.is_ptr) {
                let at = s.pt.iter().find(|p| p.size == f.size && !p.is_ptr && offset_in(s, ta, &p.addr) == Some(f.off)).map(|p| p.value.clone());
                // (or the first value of the invariant the target starts: a list built by
                // consing in front of the cell `last` holds, folded into a one-cell list)
                let at = at.or_else(|| target_first(ctx, s, ta, lb, i));
                if let Some(v) = at {
                    s.add_atoms([Atom::cmp(&LinExpr::var(&first), Rel::Eq, &LinExpr::var(&v))]);
                }
            }
            let last = if i == lb.rec {
                end.clone()
            } else {
                let v = ctx.fresh("last");
                s.add_atoms(fresh_range(&v, f));
                Some(v)
            };
            l.fields.push(ListField { first, last, ..f.clone() });
        }
        super::lists_backward::pad_empty(ctx, s, other, lb, &mut l);
        super::lists_prev::pad_tail(ctx, s, other, lb, &mut l);
        tracing::debug!("lists: padded with the empty {:?}", l);
        s.lists.push(l);
        added = true;
    }
    added | super::lists_backward::pad_null_end(ctx, s, other)
}

/// The first value of field `i` of the invariant of `lb`'s shape that starts at `ta` in `s`
/// (the target of an empty segment `pad` adds; when that invariant is empty too, its first
/// value is as meaningless as the padded one, so the equality constrains nothing).
fn target_first(ctx: &mut Ctx<'_>, s: &State, ta: &Var, lb: &ListInv, i: usize) -> Option<Var> {
    let l = s.lists.iter().find(|l| l.size == lb.size && l.rec_field().off == lb.rec_field().off && l.fields.get(i).map(|f| (f.off, f.size, f.is_ptr)) == lb.fields.get(i).map(|f| (f.off, f.size, f.is_ptr)) && equal(ctx, s, &l.start, ta))?;
    Some(l.fields[i].first.clone())
}

/// Instance check (g6): every invariant of `general` has one of the same shape in `inst`
/// whose variables `mu` can be extended to (binding is syntactic; the KB entailment checks the
/// rest), and whose field relations imply the general one's (or which has at most one cell).
/// Invariants whose start is already bound (a local points to it, or another invariant ends
/// there: the two segments of a cyclic list) are paired first. Returns false if some
/// invariant finds no partner.
pub fn instance(ctx: &mut Ctx<'_>, general: &State, inst: &State, mu: &mut Mu) -> bool {
    let mut used = BTreeSet::new();
    let mut todo: Vec<&ListInv> = general.lists.iter().collect();
    while !todo.is_empty() {
        let pick = todo.iter().position(|g| mu.contains_key(&g.start)).unwrap_or(0);
        let g = todo.remove(pick);
        let mut found = None;
        for (k, h) in inst.lists.iter().enumerate() {
            if used.contains(&k) || !g.same_shape(h) || !super::lists_backward::covers(g, h) || !super::lists_prev::covers(g, h) {
                continue;
            }
            // (variables position by position: a tail or backward link only the instance has
            // is not part of the general invariant)
            let (_, h) = super::lists_prev::aligned(g, h);
            if !g.vars().iter().zip(h.vars()).all(|(a, b)| mu.get(a).is_none_or(|x| *x == b)) {
                continue;
            }
            if !super::lists_owned::owns_cover(&g.fields, &h.fields) && !ctx.entails(inst, &[Atom::var_const(&h.len, Rel::Le, 0)]) {
                continue;
            }
            let steps_ok = g.fields.iter().zip(&h.fields).all(|(a, b)| super::lists_values::step_covers(a.step, b.step));
            let ranges_ok = g.fields.iter().zip(&h.fields).all(|(a, b)| super::lists_ranges::range_covers(a.range, b.range));
            if !ranges_ok && !ctx.entails(inst, &[Atom::var_const(&h.len, Rel::Le, 0)]) {
                continue;
            }
            if steps_ok || ctx.entails(inst, &[Atom::var_const(&h.len, Rel::Le, 1)]) {
                found = Some((k, &inst.lists[k]));
                break;
            }
        }
        let Some((k, h)) = found else { return false };
        let (_, h) = super::lists_prev::aligned(g, h);
        used.insert(k);
        for (a, b) in g.vars().into_iter().zip(h.vars()) {
            mu.insert(a, b);
        }
    }
    true
}

/// Merging (seed 001 §2.2, for invariants already present in both states): invariants of `a`
/// and `b` of the same shape whose starts the merge maps to the same variable become one
/// invariant with fresh variables where the two differ (recorded in the renamings and in
/// μ_a, and returned so that the KB candidates relate them). Unmatched invariants are
/// dropped (a sound weakening: the merged state forgets those cells).
pub fn merge(ctx: &mut Ctx<'_>, (a, b): (&State, &State), locals: &[(Var, Var, Var)], inv_a: &mut BTreeMap<Var, Var>, inv_b: &mut BTreeMap<Var, Var>, mu_a: &mut Mu, widen: bool) -> (Vec<ListInv>, Vec<Var>) {
    let mut out = vec![];
    let mut fresh = vec![];
    let mut used = BTreeSet::new();
    // repeated until nothing pairs: pairing one invariant names its target, which may be the
    // start of another (the two segments of a cyclic list)
    let mut pending: Vec<&ListInv> = a.lists.iter().collect();
    let mut progress = true;
    while progress {
        progress = false;
        let mut i = 0;
        while i < pending.len() {
            let la = pending[i];
            let sa = inv_a.get(&la.start).cloned();
            // the same local points to both starts (μ_a of the merged local's variable is a's
            // start also when a's start is the value of several locals: then `inv_a` names only one)
            let found = b.lists.iter().enumerate().find(|(k, lb)| {
                let by_local = inv_b.get(&lb.start).and_then(|q| mu_a.get(q)) == Some(&la.start);
                let by_cell = || sa.is_none() && inv_b.get(&lb.start).is_none() && super::lists_rust::held_alike(a, b, &la.start, &lb.start);
                let by_last = || super::lists_backward::paired_by_last(la, lb, inv_b, mu_a);
                let by_one_local = || (la.tail.is_some() || lb.tail.is_some()) && super::lists_prev::pair_by_local(locals, &la.start, &lb.start).is_some();
                !used.contains(k) && la.same_shape(lb) && ((sa.is_some() && inv_b.get(&lb.start) == sa.as_ref()) || by_local || by_cell() || by_last() || by_one_local())
            });
            let Some((k, lb)) = found else {
                i += 1;
                continue;
            };
            pending.remove(i);
            progress = true;
            used.insert(k);
            let mut vars = vec![];
            let with_tail = la.tail.is_some() || lb.tail.is_some();
            let (la, lb) = &super::lists_prev::aligned(la, lb);
            for (x, y) in la.vars().into_iter().zip(lb.vars()) {
                // (else, for lists that name their tail, the local holding both: `lists_prev`)
                let by_one_local = super::lists_prev::pair_by_local(locals, &x, &y).filter(|_| with_tail);
                let v = match (inv_a.get(&x).cloned(), inv_b.get(&y).cloned(), by_one_local) {
                    (Some(p), Some(q), _) if p == q => p,
                    (_, Some(q), _) if mu_a.get(&q) == Some(&x) => q,
                    (_, _, Some(m)) => m,
                    (None, None, None) if x == y => x.clone(),
                    _ => {
                        let hint = x.name().rsplit_once('_').map(|p| p.0).unwrap_or("l").to_string();
                        let v = ctx.fresh(&hint);
                        // (this overwrites the renaming of a variable already merged, e.g. a
                        // local's value that is also the first next pointer of a one-cell
                        // segment, so facts about it follow `v`; keeping the old renaming
                        // instead made length_yes and reverse_yes of benchmarks/lists lose
                        // convergence, session 8)
                        inv_a.insert(x.clone(), v.clone());
                        inv_b.insert(y.clone(), v.clone());
                        mu_a.insert(v.clone(), x.clone());
                        fresh.push(x.clone());
                        v
                    }
                };
                vars.push(v);
            }
            let mut merged = la.with_vars(&vars);
            let a_empty = ctx.entails(a, &[Atom::var_const(&la.len, Rel::Le, 0)]);
            let b_empty = ctx.entails(b, &[Atom::var_const(&lb.len, Rel::Le, 0)]);
            merged.back = merged.back.filter(|_| super::lists_backward::same_back(la, lb));
            for (f, (fa, fb)) in merged.fields.iter_mut().zip(la.fields.iter().zip(&lb.fields)) {
                f.range = super::lists_ranges::merge_range(fa, a_empty, fb, b_empty, widen);
                f.owns = super::lists_owned::merge_owns(fa.owns, a_empty, fb.owns, b_empty);
                f.step = super::lists_values::merge_step(ctx, a, fa, la, b, fb, lb).or_else(|| guess_step(ctx, a, la, b, lb, fb));
            }
            out.push(merged);
        }
    }
    (out, fresh)
}

/// A relation for a field neither side has one for, when both sides' lists have at most one
/// cell (then every relation holds on both, so any choice is sound; a wrong one costs one
/// more merge): the constant step from the last value of `b`'s segment to the value of the
/// cell it leads to (a list built by appending at its end).
fn guess_step(ctx: &mut Ctx<'_>, a: &State, la: &ListInv, b: &State, lb: &ListInv, fb: &ListField) -> Option<super::lists_values::Step> {
    if fb.is_ptr || fb.step.is_some() {
        return None;
    }
    let t = lb.end()?;
    let last = fb.last.as_ref()?;
    let at = b.pt.iter().find(|p| p.size == fb.size && !p.is_ptr && offset_in(b, t, &p.addr) == Some(fb.off))?.value.clone();
    for (s, l) in [(a, la), (b, lb)] {
        if !ctx.entails(s, &[Atom::var_const(&l.len, Rel::Le, 1)]) {
            return None;
        }
    }
    let m = ctx.model(b, &[last.clone(), at])?;
    Some(super::lists_values::Step::By(m[1] - m[0])).filter(|st| matches!(st, super::lists_values::Step::By(c) if c.abs() <= 1 << 20))
}
