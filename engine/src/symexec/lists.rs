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
//! NULL (every invariant is NULL-terminated, hence acyclic). `len = 0` iff `start = 0` (the
//! empty list: the paper's invariants have `len ≥ 1`; allowing 0 lets the rest of a list
//! whose first cell was taken stay one invariant whether or not it is empty).

use super::ctx::Ctx;
use super::facts::{ARel, Atom, Fact};
use super::generalize::{apply, Mu};
use super::state::{Alloc, AllocKind, PtEntry, State};
use crate::logic::{LinExpr, Rel, Var};
use std::collections::{BTreeMap, BTreeSet};

/// One field of the cells of a list invariant.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct ListField {
    pub off: u64,
    pub size: u64,
    pub is_ptr: bool,
    pub unsigned: bool,
    /// Value in the first cell.
    pub first: Var,
    /// Value in the last cell (`None` for the recursive field: it is NULL there).
    pub last: Option<Var>,
}

/// A list invariant (see the module documentation).
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct ListInv {
    pub start: Var,
    pub len: Var,
    /// Size of every cell in bytes.
    pub size: u64,
    /// Index of the recursive field in `fields`.
    pub rec: usize,
    pub fields: Vec<ListField>,
}

impl ListInv {
    /// Every variable of the invariant.
    pub fn vars(&self) -> Vec<Var> {
        let mut v = vec![self.start.clone(), self.len.clone()];
        for f in &self.fields {
            v.push(f.first.clone());
            v.extend(f.last.clone());
        }
        v
    }

    pub fn rename(&self, f: &dyn Fn(&Var) -> Var) -> ListInv {
        let mut l = self.clone();
        l.start = f(&l.start);
        l.len = f(&l.len);
        for x in &mut l.fields {
            x.first = f(&x.first);
            x.last = x.last.as_ref().map(f);
        }
        l
    }

    /// Same cell size, recursive field and field layout.
    fn same_shape(&self, o: &ListInv) -> bool {
        self.size == o.size
            && self.rec == o.rec
            && self.fields.len() == o.fields.len()
            && self.fields.iter().zip(&o.fields).all(|(a, b)| (a.off, a.size, a.is_ptr, a.unsigned) == (b.off, b.size, b.is_ptr, b.unsigned))
    }

    fn rec_field(&self) -> &ListField {
        &self.fields[self.rec]
    }
}

fn le(a: &LinExpr, b: &LinExpr) -> Option<Atom> {
    Atom::cmp(a, Rel::Le, b)
}

fn plus(v: &Var, c: i128) -> LinExpr {
    LinExpr::var(v).add_scaled(1, &LinExpr::constant(c)).unwrap_or_else(|| LinExpr::var(v))
}

/// The conjuncts of ⟨s⟩ contributed by the list invariants: lengths and starts (`len = 0` iff
/// `start = 0`), the recursive field of the first cell is NULL iff `len = 1` (seed 001's
/// `v_ℓ ≥ 2` rule, both directions for NULL-terminated lists), first = last values when
/// `len = 1`, and the first cell disjoint from every allocation and every other invariant's
/// first cell.
pub fn state_facts(s: &State) -> Vec<Fact> {
    let mut out = vec![];
    let c = |k: i128| LinExpr::constant(k);
    for (i, l) in s.lists.iter().enumerate() {
        let (st, len) = (LinExpr::var(&l.start), LinExpr::var(&l.len));
        let empty = le(&len, &c(0));
        let nonempty = le(&c(1), &len);
        out.push(Fact::Atom(Atom::var_const(&l.len, Rel::Ge, 0)));
        out.push(Fact::Atom(Atom::var_const(&l.start, Rel::Ge, 0)));
        out.extend(empty.clone().zip(le(&c(1), &st)).map(|(a, b)| Fact::Or(vec![a, b])));
        out.extend(nonempty.clone().zip(le(&st, &c(0))).map(|(a, b)| Fact::Or(vec![a, b])));
        let last_byte = plus(&l.start, l.size as i128 - 1);
        out.extend(empty.clone().zip(le(&last_byte, &c(super::exec::ADDR_MAX))).map(|(a, b)| Fact::Or(vec![a, b])));
        let single = le(&len, &c(1));
        let several = le(&c(2), &len);
        let next = LinExpr::var(&l.rec_field().first);
        out.extend(single.clone().zip(le(&c(1), &next)).map(|(a, b)| Fact::Or(vec![a, b])));
        if let (Some(sv), Some(em), Some(null)) = (several.clone(), empty.clone(), Atom::cmp(&next, Rel::Eq, &c(0))) {
            out.push(Fact::Or(vec![sv, em, null]));
        }
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
/// `len − 1`, fresh first values, the same last values). `None` if no invariant's first cell
/// provably contains the access: the caller reports the access as unsafe.
pub fn materialize(ctx: &mut Ctx<'_>, s: &State, addr: &Var, size: u64) -> Option<State> {
    for (i, l) in s.lists.iter().enumerate() {
        let lo = le(&LinExpr::var(&l.start), &LinExpr::var(addr))?;
        let hi = le(&plus(addr, size as i128 - 1), &plus(&l.start, l.size as i128 - 1))?;
        let nonempty = Atom::var_const(&l.len, Rel::Ge, 1);
        if !ctx.entails(s, &[lo, hi, nonempty.clone()]) {
            continue;
        }
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
            st.pt.push(PtEntry { addr: faddr, size: f.size, is_ptr: f.is_ptr, unsigned: f.unsigned, value: f.first.clone(), alloc: id });
        }
        // the rest: len − 1 cells starting at the first cell's recursive field
        let len = ctx.fresh("len");
        st.add_atoms([Atom::cmp(&LinExpr::var(&len), Rel::Eq, &plus(&l.len, -1))]);
        st.add_atom(Atom::var_const(&len, Rel::Ge, 0));
        let mut rest = ListInv { start: l.rec_field().first.clone(), len, size: l.size, rec: l.rec, fields: vec![] };
        for (k, f) in l.fields.iter().enumerate() {
            let first = if k == l.rec {
                ctx.fresh("next")
            } else {
                ctx.fresh("first")
            };
            st.add_atoms(fresh_range(&first, f));
            rest.fields.push(ListField { first, ..f.clone() });
        }
        tracing::debug!("lists: materialized the first cell of {:?}, rest {:?}", l, rest);
        st.lists.push(rest);
        return Some(st);
    }
    None
}

/// Range facts of a fresh field value (pointers are addresses; integers in their view).
fn fresh_range(v: &Var, f: &ListField) -> Vec<Option<Atom>> {
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
fn block_size(s: &State, a: &Alloc) -> Option<u64> {
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
fn offset_in(s: &State, start: &Var, addr: &Var) -> Option<u64> {
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
struct Cell {
    id: u32,
    start: Var,
    size: u64,
    fields: Vec<(u64, PtEntry)>,
}

fn cells(s: &State) -> Vec<Cell> {
    let mut out = vec![];
    'blocks: for a in s.allocs.iter().filter(|a| a.kind == AllocKind::Heap) {
        let Some(size) = block_size(s, a) else { continue };
        let mut fields = vec![];
        for p in s.pt.iter().filter(|p| p.alloc == a.id) {
            let Some(off) = offset_in(s, &a.start, &p.addr) else { continue 'blocks };
            fields.push((off, p.clone()));
        }
        fields.sort_by_key(|(o, _)| *o);
        out.push(Cell { id: a.id, start: a.start.clone(), size, fields });
    }
    out
}

/// Where a recursive field's value leads.
enum Link {
    Cell(usize),
    List(usize),
    Null,
}

/// Folds chains of concrete heap cells into list invariants (done at generalization points,
/// before the instance check and merging; a sound abstraction: the folded state represents
/// every concrete state the original one does). A chain is a sequence of distinct heap
/// blocks of one constant size, linked through the pointer field at one offset, that ends in
/// NULL or in the start of a list invariant of the same shape, and whose first block is
/// linked from no other candidate block; its blocks and their PT entries leave AL/PT. A single
/// block ending in NULL is folded only when exactly one of its pointer fields is NULL (the
/// recursive field is then unambiguous). Invariants of length 0 are dropped. Returns whether
/// anything changed.
pub fn fold(ctx: &mut Ctx<'_>, s: &mut State) -> bool {
    let mut changed = false;
    let before = s.lists.len();
    let lists = std::mem::take(&mut s.lists);
    for l in lists {
        if !ctx.entails(s, &[Atom::var_const(&l.len, Rel::Eq, 0)]) {
            s.lists.push(l);
        }
    }
    changed |= s.lists.len() != before;
    name_starts(ctx, s);
    while let Some(next) = fold_one(ctx, s) {
        *s = next;
        changed = true;
    }
    name_starts(ctx, s);
    changed
}

/// Names every invariant's start by a local equal to it where there is one (merges match
/// invariants through the locals that point to them; any variable equal to the start
/// denotes the same invariant).
fn name_starts(ctx: &mut Ctx<'_>, s: &mut State) {
    let lv: Vec<Var> = s.frames.iter().flat_map(|f| f.lv.values().cloned()).collect();
    for i in 0..s.lists.len() {
        let start = s.lists[i].start.clone();
        if lv.contains(&start) {
            continue;
        }
        let taken: BTreeSet<Var> = s.lists.iter().map(|l| l.start.clone()).collect();
        for v in &lv {
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

fn is_null(ctx: &mut Ctx<'_>, s: &State, v: &Var) -> bool {
    ctx.entails(s, &[Atom::var_const(v, Rel::Eq, 0)])
}

fn fold_one(ctx: &mut Ctx<'_>, s: &State) -> Option<State> {
    let cs = cells(s);
    if cs.is_empty() {
        return None;
    }
    let offsets: BTreeSet<u64> = cs.iter().flat_map(|c| c.fields.iter().filter(|(_, p)| p.is_ptr).map(|(o, _)| *o)).collect();
    for off in offsets {
        // the link of every candidate through the pointer field at `off`
        let link = |ctx: &mut Ctx<'_>, c: &Cell| -> Option<Link> {
            let (_, p) = c.fields.iter().find(|(o, p)| *o == off && p.is_ptr)?;
            if let Some(k) = cs.iter().position(|d| d.start == p.value && d.size == c.size) {
                return Some(Link::Cell(k));
            }
            let same_shape = |l: &ListInv| l.size == c.size && l.rec_field().off == off;
            if let Some(k) = s.lists.iter().position(|l| l.start == p.value && same_shape(l)) {
                return Some(Link::List(k));
            }
            for (k, l) in s.lists.iter().enumerate().filter(|(_, l)| same_shape(l)) {
                let eq = Atom::cmp(&LinExpr::var(&l.start), Rel::Eq, &LinExpr::var(&p.value));
                if eq.is_some_and(|eq| ctx.entails(s, &[eq])) {
                    return Some(Link::List(k));
                }
            }
            is_null(ctx, s, &p.value).then_some(Link::Null)
        };
        let links: Vec<Option<Link>> = cs.iter().map(|c| link(ctx, c)).collect();
        let targeted: BTreeSet<usize> = links.iter().filter_map(|l| if let Some(Link::Cell(k)) = l { Some(*k) } else { None }).collect();
        for h in 0..cs.len() {
            if targeted.contains(&h) || links[h].is_none() {
                continue;
            }
            let mut chain = vec![h];
            let end = loop {
                let cur = *chain.last().unwrap_or(&h);
                match &links[cur] {
                    Some(Link::Cell(k)) if !chain.contains(k) => chain.push(*k),
                    Some(Link::List(k)) => break Some(Some(*k)),
                    Some(Link::Null) => break Some(None),
                    _ => break None,
                }
            };
            let Some(tail) = end else { continue };
            if chain.len() == 1 && tail.is_none() {
                let c = &cs[h];
                let nulls = c.fields.iter().filter(|(_, p)| p.is_ptr && is_null(ctx, s, &p.value)).count();
                if nulls != 1 {
                    continue;
                }
            }
            if let Some(next) = build(ctx, s, &cs, &chain, tail, off) {
                return Some(next);
            }
        }
    }
    None
}

/// The state with the cells of `chain` (and the invariant `tail`, if any) folded into one
/// list invariant with the recursive field at `off`.
fn build(ctx: &mut Ctx<'_>, s: &State, cs: &[Cell], chain: &[usize], tail: Option<usize>, off: u64) -> Option<State> {
    let size = cs[chain[0]].size;
    // fields: the layout every cell (and the tail) has
    let layout = |c: &Cell| -> BTreeSet<(u64, u64, bool, bool)> { c.fields.iter().map(|(o, p)| (*o, p.size, p.is_ptr, p.unsigned)).collect() };
    let mut common = layout(&cs[chain[0]]);
    for &k in &chain[1..] {
        let other = layout(&cs[k]);
        common.retain(|x| other.contains(x));
    }
    if let Some(t) = tail {
        let l = &s.lists[t];
        let other: BTreeSet<_> = l.fields.iter().map(|f| (f.off, f.size, f.is_ptr, f.unsigned)).collect();
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
    // no sharing: only the first cell may be referenced from outside the chain (a local, a
    // stored pointer); a reference to a later cell or to the tail's start (e.g. the cursor of
    // a traversal) would be lost by folding, so such chains stay concrete
    let ids: BTreeSet<u32> = chain.iter().map(|&c| cs[c].id).collect();
    let mut inner: BTreeSet<Var> = chain[1..].iter().map(|&c| cs[c].start.clone()).collect();
    if let Some(t) = tail {
        inner.insert(s.lists[t].start.clone());
    }
    let lv: Vec<Var> = s.frames.iter().flat_map(|f| f.lv.values().cloned()).collect();
    let mut in_lv = lv.iter().any(|v| inner.contains(v));
    'refs: for v in &lv {
        for w in &inner {
            if in_lv {
                break 'refs;
            }
            let eq = Atom::cmp(&LinExpr::var(v), Rel::Eq, &LinExpr::var(w));
            in_lv = eq.is_some_and(|eq| ctx.entails(s, &[eq]));
        }
    }
    let in_pt = s.pt.iter().any(|p| inner.contains(&p.value) && !(ids.contains(&p.alloc) && p.is_ptr && offset_in(s, &s.alloc_by_id(p.alloc).map(|a| a.start.clone()).unwrap_or_else(|| p.addr.clone()), &p.addr) == Some(off)));
    let in_lists = s.lists.iter().enumerate().any(|(k, l)| Some(k) != tail && l.fields.iter().any(|f| inner.contains(&f.first) || f.last.as_ref().is_some_and(|x| inner.contains(x))));
    if in_lv || in_pt || in_lists {
        return None;
    }
    let mut st = s.clone();
    let value_of = |c: &Cell, x: &(u64, u64, bool, bool)| c.fields.iter().find(|(o, p)| (*o, p.size, p.is_ptr, p.unsigned) == *x).map(|(_, p)| p.value.clone());
    let first_cell = &cs[chain[0]];
    let tail_inv = tail.map(|t| s.lists[t].clone());
    let tail_nonempty = tail_inv.as_ref().is_some_and(|l| ctx.entails(s, &[Atom::var_const(&l.len, Rel::Ge, 1)]));
    let last_cell = &cs[*chain.last()?];
    let mut fields = vec![];
    for (i, x) in fields_ok.iter().enumerate() {
        let first = value_of(first_cell, x)?;
        let last = if i == rec {
            None
        } else {
            match &tail_inv {
                None => Some(value_of(last_cell, x)?),
                Some(l) if tail_nonempty => l.fields.iter().find(|f| (f.off, f.size, f.is_ptr, f.unsigned) == *x).and_then(|f| f.last.clone()),
                Some(_) => {
                    let v = ctx.fresh("last");
                    Some(v)
                }
            }
        };
        fields.push(ListField { off: x.0, size: x.1, is_ptr: x.2, unsigned: x.3, first, last });
    }
    let len = ctx.fresh("len");
    let k = chain.len() as i128;
    let len_e = match &tail_inv {
        Some(l) => plus(&l.len, k),
        None => LinExpr::constant(k),
    };
    st.add_atoms([Atom::cmp(&LinExpr::var(&len), Rel::Eq, &len_e)]);
    st.add_atom(Atom::var_const(&len, Rel::Ge, 1));
    st.add_atom(Atom::var_const(&first_cell.start, Rel::Ge, 1));
    st.allocs.retain(|a| !ids.contains(&a.id));
    st.pt.retain(|p| !ids.contains(&p.alloc));
    if let Some(t) = tail {
        st.lists.remove(t);
    }
    st.lists.push(ListInv { start: first_cell.start.clone(), len, size, rec, fields });
    tracing::debug!("lists: folded {} cell(s){} into {:?}", chain.len(), if tail.is_some() { " and a list" } else { "" }, st.lists.last());
    Some(st)
}

/// Instance check (g6): every invariant of `general` has one of the same shape in `inst`
/// whose variables `mu` can be extended to (binding is syntactic; the KB entailment checks the
/// rest). Returns false if some invariant finds no partner.
pub fn instance(general: &State, inst: &State, mu: &mut Mu) -> bool {
    let mut used = BTreeSet::new();
    for g in &general.lists {
        let found = inst.lists.iter().enumerate().find(|(k, h)| {
            !used.contains(k) && g.same_shape(h) && g.vars().iter().zip(h.vars()).all(|(a, b)| mu.get(a).is_none_or(|x| *x == b))
        });
        let Some((k, h)) = found else { return false };
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
pub fn merge(ctx: &mut Ctx<'_>, a: &State, b: &State, inv_a: &mut BTreeMap<Var, Var>, inv_b: &mut BTreeMap<Var, Var>, mu_a: &mut Mu) -> (Vec<ListInv>, Vec<Var>) {
    let mut out = vec![];
    let mut fresh = vec![];
    let mut used = BTreeSet::new();
    for la in &a.lists {
        let sa = inv_a.get(&la.start).cloned();
        let found = b.lists.iter().enumerate().find(|(k, lb)| {
            !used.contains(k) && la.same_shape(lb) && sa.is_some() && inv_b.get(&lb.start) == sa.as_ref()
        });
        let Some((k, lb)) = found else { continue };
        used.insert(k);
        let mut vars = vec![];
        for (x, y) in la.vars().into_iter().zip(lb.vars()) {
            let v = match (inv_a.get(&x).cloned(), inv_b.get(&y).cloned()) {
                (Some(p), Some(q)) if p == q => p,
                (None, None) if x == y => x.clone(),
                _ => {
                    let hint = x.name().rsplit_once('_').map(|p| p.0).unwrap_or("l").to_string();
                    let v = ctx.fresh(&hint);
                    inv_a.insert(x.clone(), v.clone());
                    inv_b.insert(y.clone(), v.clone());
                    mu_a.insert(v.clone(), x.clone());
                    fresh.push(x.clone());
                    v
                }
            };
            vars.push(v);
        }
        let ren: BTreeMap<Var, Var> = la.vars().into_iter().zip(vars).collect();
        out.push(la.rename(&|v| apply(&ren, v)));
    }
    (out, fresh)
}
