//! Doubly linked list invariants (issue 10): a list invariant whose cells are linked both
//! ways records its `prev` field and its last cell, so that a walk from the tail through
//! `prev` reads cells the invariant describes and ranks by the list's length.
//!
//! Meaning of `back = Some(Back { field: b, last_cell: lc })` on an invariant of cells
//! `c_1 … c_len` (ARCHITECTURE.md "Rust lists and doubly linked lists"): field `b` of every
//! cell `c_{i+1}` holds `c_i` (each inner cell's prev is its predecessor), `c_1.b` is the
//! field's first value (NULL or the cell before the list), `c_len.b` its last value, and
//! `lc = c_len`. For `len = 0` the invariant describes no cell; then `lc` is, by convention,
//! the field's first value (the predecessor a following cell would record), which makes the
//! chain condition of folding uniform over possibly empty members. Everything here either
//! states what this meaning implies or re-describes the same cells:
//! - [`facts`]: its conjuncts of ⟨s⟩;
//! - [`chain_back`] (fold): a chain is doubly linked through `b` when every member's first
//!   `b` value is the previous member's last cell; [`join_last`]/[`after_held_last`]: where a
//!   local holds a last cell, the chain may end there (it stays reachable) and does not go on;
//! - [`materialize_last`]: an access inside the last cell makes it an ordinary heap block
//!   (the rest is a segment ending at it), as `lists::materialize` does for the first cell;
//! - [`rest_after_first`]: after the first cell is taken the rest is doubly linked too, its
//!   first `prev` being the taken cell;
//! - [`pad_empty`], [`pad_null_end`]: the empty invariants of `lists::pad`, and a
//!   NULL-terminated list seen as a segment ending at NULL followed by an empty list (the
//!   state of a backward walk before its first step);
//! - [`covers`], [`same_back`], [`paired_by_last`]: instance check and merge.

use super::ctx::Ctx;
use super::facts::{Atom, Fact};
use super::generalize::Mu;
use super::lists::{self, equal, le, plus, Chains, End, Link, ListField, ListInv, Node};
use super::state::{Alloc, AllocKind, PtEntry, State};
use crate::logic::{LinExpr, Rel, Var};
use std::collections::BTreeMap;

/// The backward link of a doubly linked list invariant (see the module documentation).
#[derive(Clone, PartialEq, Eq, Hash, Debug, serde::Serialize, serde::Deserialize)]
pub struct Back {
    /// Index into `ListInv::fields` of the `prev` field.
    pub field: usize,
    /// Start of the last cell (for an empty list: the `prev` field's first value).
    pub last_cell: Var,
}

fn lin(v: &Var) -> LinExpr {
    LinExpr::var(v)
}

fn or(atoms: Vec<Option<Atom>>) -> Option<Fact> {
    atoms.into_iter().collect::<Option<Vec<_>>>().map(Fact::Or)
}

/// The conjuncts of ⟨s⟩ of the backward link of invariant `i` of `s`: an empty list's last
/// cell is its first `prev` value, a one-cell list's last cell is its start, a non-empty
/// list's last cell is an address whose cell lies below the address space's end and outside
/// every allocation and every other invariant's first cell, two or more cells: the last
/// cell's `prev` is a cell start and the last cell is not the first.
pub(super) fn facts(s: &State, i: usize) -> Vec<Fact> {
    let l = &s.lists[i];
    let Some(b) = &l.back else { return vec![] };
    let (len, lc) = (&l.len, &b.last_cell);
    let c = LinExpr::constant;
    let mut out = vec![or(vec![le(&c(1), &lin(len)), Atom::cmp(&lin(lc), Rel::Eq, &lin(&l.fields[b.field].first))])];
    if let Some(prev) = &l.fields[b.field].last {
        out.push(or(vec![le(&lin(len), &c(1)), le(&c(1), &lin(prev))]));
    }
    let mut out: Vec<Fact> = out.into_iter().flatten().collect();
    out.extend(super::lists_prev::last_cell_facts(s, i, lc));
    out
}

/// What fold found of a doubly linked chain: the `prev` field (index into the fields), the
/// folded list's first `prev` value and last cell, and the start of the chain's last member
/// when it is that last cell (a local may hold it: it stays reachable).
pub(super) struct ChainBack {
    pub(super) field: usize,
    first: Var,
    last_cell: Var,
    pub(super) reachable_last: Option<Var>,
}

impl ChainBack {
    /// Sets the folded list's first `prev` value and returns its backward link. A last
    /// `prev` value that is the first one's variable (a single cell) gets a variable of its
    /// own, equal to it: a merge renames a variable at two positions of an invariant by only
    /// one of them, which lost the first cell's `prev = NULL` (ARCHITECTURE.md "Lists",
    /// the open renaming problem).
    pub(super) fn apply(self, ctx: &mut Ctx<'_>, st: &mut State, fields: &mut [ListField]) -> Back {
        if let Some(f) = fields.get_mut(self.field) {
            if f.last.as_ref() == Some(&self.first) {
                let v = ctx.fresh("prev");
                st.add_atoms([Atom::cmp(&lin(&v), Rel::Eq, &lin(&self.first))]);
                f.last = Some(v);
            }
            f.first = self.first;
        }
        Back { field: self.field, last_cell: self.last_cell }
    }
}

type Key = (u64, u64, bool, bool);

fn key(f: &ListField) -> Key {
    (f.off, f.size, f.is_ptr, f.unsigned)
}

/// The first pointer field of `keys` (the folded list's fields, `rec` the recursive one)
/// through which `chain` is doubly linked: every member's first value of the field is the
/// previous member's last cell (a concrete cell's is its start; a list member must be doubly
/// linked through that field itself). A single cell is trivially doubly linked.
pub(super) fn chain_back(ctx: &mut Ctx<'_>, ch: &Chains<'_>, chain: &[Node], keys: &[Key], rec: usize) -> Option<ChainBack> {
    let s = ch.s;
    'fields: for (bi, x) in keys.iter().enumerate() {
        if bi == rec || !x.2 {
            continue;
        }
        // per member: (first prev value, last cell)
        let mut ends: Vec<(Var, Var)> = vec![];
        for &n in chain {
            let pair = match n {
                Node::Cell(k) => {
                    let c = &ch.cs[k];
                    let Some((_, p)) = c.fields.iter().find(|(o, p)| (*o, p.size, p.is_ptr, p.unsigned) == *x) else { continue 'fields };
                    (p.value.clone(), c.start.clone())
                }
                Node::List(k) => {
                    let l = &s.lists[k];
                    match &l.back {
                        Some(b) if key(&l.fields[b.field]) == *x => (l.fields[b.field].first.clone(), b.last_cell.clone()),
                        _ => continue 'fields,
                    }
                }
            };
            ends.push(pair);
        }
        for w in ends.windows(2) {
            if !equal(ctx, s, &w[1].0, &w[0].1) {
                continue 'fields;
            }
        }
        // a lone cell is trivially doubly linked through any pointer field: only a field that
        // looks like `prev` counts (NULL, a list's last cell, or a cell whose recursive field
        // leads back here), not a payload pointer (benchmarks/lists free_all_yes)
        if let [Node::Cell(k)] = chain {
            if !looks_like_prev(ctx, ch, &ch.cs[*k].start, &ends[0].0) {
                continue 'fields;
            }
        }
        let (first, last_cell) = (ends.first()?.0.clone(), ends.last()?.1.clone());
        let last_start = ch.start(*chain.last()?).clone();
        let reachable_last = (chain.len() > 1 && equal(ctx, s, &last_start, &last_cell)).then_some(last_start);
        return Some(ChainBack { field: bi, first, last_cell, reachable_last });
    }
    None
}

/// Whether `value`, the candidate `prev` field of the cell at `start`, is NULL, the last
/// cell of a doubly linked list, or a cell of the same size whose recursive field holds `start`.
fn looks_like_prev(ctx: &mut Ctx<'_>, ch: &Chains<'_>, start: &Var, value: &Var) -> bool {
    if lists::is_null(ctx, ch.s, value) {
        return true;
    }
    let lists_last: Vec<Var> = ch.s.lists.iter().filter_map(|l| l.back.as_ref().map(|b| b.last_cell.clone())).collect();
    if lists_last.iter().any(|lc| equal(ctx, ch.s, lc, value)) {
        return true;
    }
    let back_cells: Vec<Var> = ch.cs.iter().filter(|c| c.size == ch.size && c.fields.iter().any(|(o, p)| *o == ch.off && p.is_ptr && p.value == *start)).map(|c| c.start.clone()).collect();
    back_cells.iter().any(|c| equal(ctx, ch.s, c, value))
}

/// Fold of a chain that runs into `n`, a member only locals hold: when `n` ends in NULL and
/// is its own last cell (a concrete cell, or a list whose last cell is its start), the chain
/// may take it as its last member if it is doubly linked (the locals then hold the folded
/// list's last cell, which stays reachable by [`materialize_last`]).
pub(super) fn join_last(ctx: &mut Ctx<'_>, ch: &Chains<'_>, chain: &[Node], n: Node, nodes: &[Node], links: &[Option<Link>]) -> Option<State> {
    let at = nodes.iter().position(|m| *m == n)?;
    if links[at] != Some(Link::Null) {
        return None;
    }
    if let Node::List(k) = n {
        let l = &ch.s.lists[k];
        if !l.back.as_ref().is_some_and(|b| equal(ctx, ch.s, &b.last_cell, &l.start)) {
            return None;
        }
    }
    let mut with = chain.to_vec();
    with.push(n);
    let st = lists::build(ctx, ch, &with, End::Null)?;
    st.lists.last().is_some_and(|l| l.back.is_some()).then_some(st)
}

/// Whether `n` should stay outside every chain through its predecessor because a live local
/// holds the predecessor's last cell (the cursor of a backward walk on the last cell of the
/// part not yet walked): folding past it would put that cell inside a list, out of reach.
pub(super) fn after_held_last(ctx: &mut Ctx<'_>, ch: &Chains<'_>, nodes: &[Node], links: &[Option<Link>], n: Node, lv: &[Var]) -> bool {
    let mut preds = nodes.iter().zip(links).filter(|(_, l)| **l == Some(Link::To(n))).map(|(m, _)| *m);
    let (Some(Node::List(k)), None) = (preds.next(), preds.next()) else { return false };
    let l = &ch.s.lists[k];
    let Some(b) = &l.back else { return false };
    lv.contains(&b.last_cell) || lv.iter().any(|v| *v != l.start && equal(ctx, ch.s, v, &b.last_cell))
}

/// Materializes the last cell of a doubly linked invariant, or of one that names its tail
/// (`lists_prev`), whose last cell provably contains `[addr, addr + size − 1]` (splitting on
/// emptiness first when that needs `len ≥ 1`, as `lists::materialize` does for the first
/// cell; the empty case states the convention for the last cell). `None` if no last cell can
/// contain it.
pub(super) fn materialize_last(ctx: &mut Ctx<'_>, s: &State, addr: &Var, size: u64) -> Option<Vec<State>> {
    for (i, l) in s.lists.iter().enumerate() {
        let (lc, at_convention) = match (&l.back, &l.tail) {
            (Some(b), _) => (&b.last_cell, Atom::cmp(&lin(&b.last_cell), Rel::Eq, &lin(&l.fields[b.field].first))),
            (None, Some(t)) => (t, Some(Atom::var_const(t, Rel::Eq, 0))),
            (None, None) => continue,
        };
        if let Some(out) = lists::materialize_cell(ctx, s, i, lc, (addr, size), vec![at_convention], take_last) {
            return Some(out);
        }
    }
    None
}

/// The state with the last cell of the (provably non-empty) invariant `i` (doubly linked or
/// naming its tail) materialized: a heap block at the last cell holding the fields' last
/// values (its recursive field the list's end: NULL or the segment's target), and the rest,
/// `len − 1` cells from the same start, a segment ending at that block with fresh last
/// values, whose last cell is the taken cell's `prev` when doubly linked (a singly linked
/// rest names no tail).
fn take_last(ctx: &mut Ctx<'_>, s: &State, i: usize) -> State {
    let mut st = s.clone();
    let mut l = st.lists.remove(i);
    let back = l.back.take();
    let Some(lc) = back.as_ref().map(|b| b.last_cell.clone()).or_else(|| l.tail.take()) else { return s.clone() };
    let back_field = back.as_ref().map(|b| b.field);
    st.add_atom(Atom::var_const(&l.len, Rel::Ge, 1));
    st.add_atom(Atom::var_const(&lc, Rel::Ge, 1));
    let end = ctx.fresh("end");
    st.add_atoms([Atom::cmp(&lin(&end), Rel::Eq, &plus(&lc, l.size as i128 - 1))]);
    st.add_atom(Atom::var_const(&end, Rel::Le, super::exec::ADDR_MAX));
    let id = ctx.fresh_alloc_id();
    st.allocs.push(Alloc { id, start: lc.clone(), end, kind: AllocKind::Heap, pristine: None });
    let len = ctx.fresh("len");
    st.add_atoms([Atom::cmp(&lin(&len), Rel::Eq, &plus(&l.len, -1))]);
    st.add_atom(Atom::var_const(&len, Rel::Ge, 0));
    let mut rest = ListInv { start: l.start.clone(), len, size: l.size, rec: l.rec, fields: vec![], back: None, tail: None };
    let mut prev_of_taken = None;
    for (k, f) in l.fields.iter().enumerate() {
        let value = match &f.last {
            Some(v) => v.clone(),
            None => {
                let z = ctx.fresh("null");
                st.add_atom(Atom::var_const(&z, Rel::Eq, 0));
                z
            }
        };
        let faddr = if f.off == 0 {
            lc.clone()
        } else {
            let a = ctx.fresh("addr");
            st.add_atoms([Atom::cmp(&lin(&a), Rel::Eq, &plus(&lc, f.off as i128))]);
            a
        };
        st.pt.push(PtEntry { addr: faddr, size: f.size, is_ptr: f.is_ptr, unsigned: f.unsigned, value: value.clone(), alloc: id });
        let last = if k == l.rec {
            lc.clone()
        } else {
            let v = ctx.fresh(if Some(k) == back_field { "prev" } else { "last" });
            st.add_atoms(lists::fresh_range(&v, f));
            // the taken cell follows the rest's (fresh, meaningless if the rest is empty) last
            st.add_atoms([f.step.and_then(|step| step.next_atom(&lin(&v), &lin(&value)))]);
            v
        };
        if let Some(bytes) = f.owns {
            super::lists_owned::own_block(ctx, &mut st, &value, bytes);
        }
        if Some(k) == back_field {
            prev_of_taken = Some(value);
        }
        rest.fields.push(ListField { last: Some(last), ..f.clone() });
    }
    if let Some(field) = back_field {
        let last_cell = prev_of_taken.unwrap_or_else(|| ctx.fresh("prev"));
        rest.back = Some(Back { field, last_cell });
    }
    tracing::debug!("lists: materialized the last cell of {:?}, rest {:?}", l, rest);
    st.lists.push(rest);
    st
}

/// The rest of a doubly linked invariant after its first cell `l.start` was taken
/// (`lists::take_first`) is doubly linked too: its first cell's `prev` is the taken cell,
/// its last cell the same (for an empty rest the convention: `l.start`, the last cell of a
/// one-cell list).
pub(super) fn rest_after_first(l: &ListInv, rest: &mut ListInv) {
    let Some(b) = &l.back else { return };
    if let Some(f) = rest.fields.get_mut(b.field) {
        f.first = l.start.clone();
        rest.back = Some(b.clone());
    }
}

/// The backward link of an empty invariant `l` that `lists::pad` adds to `s` for `lb` of
/// `other`: its last cell (= its first `prev` value) is the `prev` value of the cell a
/// segment leads to, else the value in `s` of the local that holds `lb`'s last cell in
/// `other` (the `tail` of a list built by appending: NULL before the first cell), else fresh.
/// Any choice is sound: an empty invariant describes no cell.
pub(super) fn pad_empty(ctx: &mut Ctx<'_>, s: &mut State, other: &State, lb: &ListInv, l: &mut ListInv) {
    let Some(b) = &lb.back else { return };
    let f = &lb.fields[b.field];
    let via_target = l.end().cloned().and_then(|t| {
        let cell = s.pt.iter().find(|p| p.is_ptr && p.size == f.size && lists::offset_in(s, &t, &p.addr) == Some(f.off)).map(|p| p.value.clone());
        cell.or_else(|| s.lists.iter().find(|m| m.start == t && m.back.as_ref().is_some_and(|mb| m.fields[mb.field].off == f.off)).map(|m| m.fields[m.back.as_ref().map_or(0, |mb| mb.field)].first.clone()))
    });
    let start_local = lists::local_of(ctx, other, &lb.start);
    let via_local = || {
        let (fi, x) = lists::local_of(ctx, other, &b.last_cell).filter(|h| Some(*h) != start_local)?;
        s.frames.get(fi).and_then(|fr| fr.lv.get(&x)).cloned()
    };
    let last_cell = via_target.or_else(via_local).unwrap_or_else(|| {
        let v = ctx.fresh("prev");
        s.add_atoms(lists::fresh_range(&v, f));
        v
    });
    l.fields[b.field].first = last_cell.clone();
    l.back = Some(Back { field: b.field, last_cell });
}

/// For every doubly linked segment of `other` ending at a NULL-terminated list (a backward
/// walk: the part not yet walked, then the walked cells), a NULL-terminated doubly linked
/// list of `s` held by the same local at its start or last cell becomes a segment ending at
/// NULL followed by an empty list at NULL (the walk before its first step): the same cells,
/// described as the merge can pair them. Returns whether anything changed.
pub(super) fn pad_null_end(ctx: &mut Ctx<'_>, s: &mut State, other: &State) -> bool {
    let mut changed = false;
    for lb in &other.lists {
        let (Some(bb), Some(t)) = (&lb.back, lb.end()) else { continue };
        let held = |ctx: &mut Ctx<'_>, st: &State, v: &Var| lists::local_of(ctx, st, v);
        let (hs, hl) = (held(ctx, other, &lb.start), held(ctx, other, &bb.last_cell));
        let mut found = None;
        for (k, la) in s.lists.iter().enumerate() {
            let Some(ba) = &la.back else { continue };
            if la.end().is_some() || ba.field != bb.field || la.size != lb.size || la.rec != lb.rec || la.fields.len() != lb.fields.len() {
                continue;
            }
            let same_start = hs.is_some() && held(ctx, s, &la.start) == hs;
            let same_last = hl.is_some() && held(ctx, s, &ba.last_cell) == hl;
            if same_start || same_last {
                found = Some(k);
                break;
            }
        }
        let Some(k) = found else { continue };
        let z = ctx.fresh("null");
        s.add_atom(Atom::var_const(&z, Rel::Eq, 0));
        let rec = s.lists[k].rec;
        s.lists[k].fields[rec].last = Some(z.clone());
        changed = true;
        let Some(lt) = other.lists.iter().find(|m| m.start == *t && m.end().is_none() && m.size == lb.size && m.rec == lb.rec) else { continue };
        let len = ctx.fresh("len");
        s.add_atom(Atom::var_const(&len, Rel::Eq, 0));
        let last_cell = s.lists[k].back.as_ref().map(|b| b.last_cell.clone()).unwrap_or_else(|| z.clone());
        let mut empty = ListInv { start: z, len, size: lt.size, rec: lt.rec, fields: vec![], back: None, tail: None };
        for (i, f) in lt.fields.iter().enumerate() {
            let first = ctx.fresh(if i == lt.rec { "next" } else { "first" });
            s.add_atoms(lists::fresh_range(&first, f));
            let last = (i != lt.rec).then(|| {
                let v = ctx.fresh("last");
                s.add_atoms(lists::fresh_range(&v, f));
                v
            });
            empty.fields.push(ListField { first, last, ..f.clone() });
        }
        if let Some(b) = &lt.back {
            empty.fields[b.field].first = last_cell.clone();
            empty.back = Some(Back { field: b.field, last_cell });
        }
        tracing::debug!("lists: NULL-terminated list {:?} seen as a segment ending at NULL and the empty {:?}", s.lists[k], empty);
        s.lists.push(empty);
    }
    changed
}

/// Instance check: a general invariant that is doubly linked needs an instance doubly
/// linked through the same field.
pub(super) fn covers(general: &ListInv, inst: &ListInv) -> bool {
    match (&general.back, &inst.back) {
        (None, _) => true,
        (Some(g), Some(h)) => g.field == h.field,
        (Some(_), None) => false,
    }
}

/// Whether a merge of the two keeps the backward link (both doubly linked the same way).
pub(super) fn same_back(a: &ListInv, b: &ListInv) -> bool {
    matches!((&a.back, &b.back), (Some(x), Some(y)) if x.field == y.field)
}

/// Merge pairing of two doubly linked invariants through the local that holds their last
/// cells (a backward walk whose list's start no local holds).
pub(super) fn paired_by_last(la: &ListInv, lb: &ListInv, inv_b: &BTreeMap<Var, Var>, mu_a: &Mu) -> bool {
    let (Some(ba), Some(bb)) = (&la.back, &lb.back) else { return false };
    same_back(la, lb) && inv_b.get(&bb.last_cell).and_then(|q| mu_a.get(q)) == Some(&ba.last_cell)
}

/// Names the last cell of every doubly linked invariant by a live local provably equal to it
/// (preferring one that does not also name the start: a one-cell list's start and last cell
/// are the same cell, `head` and `tail`; else the start's own local), so that merges pair it
/// through that local; a renaming by an entailed equality.
pub(super) fn name_last_cells(ctx: &mut Ctx<'_>, s: &mut State) {
    let lv: Vec<Var> = s.frames.iter().flat_map(|f| f.lv.values().cloned()).collect();
    for i in 0..s.lists.len() {
        let Some(b) = &s.lists[i].back else { continue };
        let (lc, start) = (b.last_cell.clone(), s.lists[i].start.clone());
        if lv.contains(&lc) && lc != start {
            continue;
        }
        // (else the start's own local: a one-cell list only one local holds)
        let other = lv.iter().find(|v| **v != start && equal(ctx, s, v, &lc)).cloned();
        let Some(v) = other.or_else(|| (lc != start && lv.contains(&start) && equal(ctx, s, &start, &lc)).then(|| start.clone())) else { continue };
        if let Some(b) = s.lists[i].back.as_mut() {
            b.last_cell = v.clone();
        }
        // the list that follows records this cell as its first `prev`: keep it named alike
        for m in &mut s.lists {
            if let Some(f) = m.back.as_ref().map(|b| b.field) {
                if m.fields[f].first == lc {
                    m.fields[f].first = v.clone();
                }
            }
        }
    }
}

/// Before a merge: where a doubly linked invariant of `other` has its start and last cell
/// held by two locals, a doubly linked invariant of `s` whose start and last cell the same
/// two locals provably hold is renamed to their variables (its start and last cell may be
/// one cell named by either local: a one-cell list before a list of two). A renaming by
/// entailed equalities; the merge then pairs the two through the locals. Returns whether
/// anything was renamed.
pub(super) fn name_like(ctx: &mut Ctx<'_>, s: &mut State, other: &State) -> bool {
    let mut changed = false;
    for lb in &other.lists {
        let Some(bb) = &lb.back else { continue };
        let value_in_s = |ctx: &mut Ctx<'_>, s: &State, v: &Var| {
            let (fi, x) = lists::local_of(ctx, other, v)?;
            s.frames.get(fi).and_then(|f| f.lv.get(&x)).cloned()
        };
        let (Some(h), Some(t)) = (value_in_s(ctx, s, &lb.start), value_in_s(ctx, s, &bb.last_cell)) else { continue };
        for k in 0..s.lists.len() {
            let la = &s.lists[k];
            let Some(ba) = &la.back else { continue };
            if ba.field != bb.field || (la.start == h && ba.last_cell == t) {
                continue;
            }
            let (start, lc) = (la.start.clone(), ba.last_cell.clone());
            if equal(ctx, s, &start, &h) && equal(ctx, s, &lc, &t) {
                tracing::debug!("lists: doubly linked list at {start:?} .. {lc:?} named {h:?} .. {t:?}");
                s.lists[k].start = h.clone();
                if let Some(b) = s.lists[k].back.as_mut() {
                    b.last_cell = t.clone();
                }
                changed = true;
                break;
            }
        }
    }
    changed
}

/// Merge candidates of a backward walk (beside ⟪a⟫ in `generalize::closure`): for a doubly
/// linked segment (the part not yet walked) and the list that starts at its target (the
/// walked cells), `len_seg + len_walked ≤ K` with `K` the sum of their constant length
/// bounds in `a` (the list's length before the walk: `len_seg ≤ 999 ∧ len_walked ≤ 1` after
/// one step of a list of at most 1000 cells). Likewise for a segment naming its tail (the
/// prefix a `prev` cursor walks, `lists_prev`) and the rest of its list. Candidates are
/// checked like every other.
pub(super) fn candidates(ctx: &mut Ctx<'_>, a: &State) -> Vec<Atom> {
    let mut out = vec![];
    for l in a.lists.iter().filter(|l| l.back.is_some() || l.tail.is_some()) {
        let Some(t) = l.end() else { continue };
        for m in a.lists.iter().filter(|m| m.start == *t) {
            let bound = |ctx: &mut Ctx<'_>, len: &Var| lists::length_bound(ctx, a, len).map(|b| -b.e.constant);
            let (Some(kl), Some(km)) = (bound(ctx, &l.len), bound(ctx, &m.len)) else { continue };
            let sum = lin(&l.len).add_scaled(1, &lin(&m.len));
            out.extend(sum.and_then(|e| Atom::cmp(&e, Rel::Le, &LinExpr::constant(kl + km))));
        }
    }
    out
}
