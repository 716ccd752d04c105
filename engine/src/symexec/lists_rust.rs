//! List invariants held through memory: rustc keeps a local `Option<Box<Node>>` (the head of
//! a list, a cursor `&Option<Box<Node>>`) in a stack slot, not in a register, because its
//! address is taken (by the drop glue, by `&head`). The list rules of `lists.rs` name and
//! pair invariants through the *locals* that hold their starts; here the pointer cell of a
//! non-list block (a stack slot, a `&mut` block) plays that role:
//! - [`name_starts`]: an invariant's start that no local holds is renamed to the value of a
//!   pointer cell provably equal to it (the merge pairs PT entries by address and renames their
//!   values consistently, so both states' invariants then get one name);
//! - [`held_value`]: for `lists::pad`, the value in `s` of the cell that holds an invariant's
//!   start in `other` (the same address: a variable both states share, or a local's value).
//!
//! Both are renamings by entailed equalities (`start = value`), so neither changes what a
//! state means; the null niche of `Option<Box<_>>` is the pointer itself (NULL is `None`),
//! so the list rules' NULL end is `None`'s representation with no further translation.

use super::ctx::Ctx;
use super::lists::equal;
use super::state::State;
use crate::logic::Var;
use std::collections::BTreeSet;

/// Renames the start of each invariant that no local holds to the value of a pointer cell
/// in memory provably equal to it (the first such cell; cells in blocks only, list cells are
/// in no block).
pub(super) fn name_starts(ctx: &mut Ctx<'_>, s: &mut State) {
    let lv: BTreeSet<Var> = s.frames.iter().flat_map(|f| f.lv.values().cloned()).collect();
    for i in 0..s.lists.len() {
        let start = s.lists[i].start.clone();
        if lv.contains(&start) {
            continue;
        }
        let taken: BTreeSet<Var> = s.lists.iter().map(|l| l.start.clone()).collect();
        let cells: Vec<Var> = s.pt.iter().filter(|p| p.is_ptr && !taken.contains(&p.value)).map(|p| p.value.clone()).collect();
        if cells.contains(&start) {
            continue;
        }
        if let Some(v) = cells.into_iter().find(|v| equal(ctx, s, v, &start)) {
            tracing::debug!("lists: start {start:?} named by the memory cell holding {v:?}");
            s.lists[i].start = v;
        }
    }
    name_targets(ctx, s, &lv);
}

/// Names the target of each segment that no local holds by a local provably equal to it (the
/// cursor of a walk: the walked prefix's last `next` value is the cell the cursor stands on,
/// but fold names the target by that field's variable). Merges pair a target through the
/// locals as they pair starts; the renaming is by an entailed equality.
fn name_targets(ctx: &mut Ctx<'_>, s: &mut State, lv: &BTreeSet<Var>) {
    for i in 0..s.lists.len() {
        let Some(t) = s.lists[i].end().cloned() else { continue };
        if lv.contains(&t) {
            continue;
        }
        if let Some(v) = lv.iter().find(|v| equal(ctx, s, v, &t)).cloned() {
            tracing::debug!("lists: target {t:?} of the segment at {:?} named by the local holding {v:?}", s.lists[i].start);
            let rec = s.lists[i].rec;
            s.lists[i].fields[rec].last = Some(v);
        }
    }
}

/// The value in `s` of the pointer cell that holds `start` in `other`: an entry of `other`'s
/// PT whose value is `start`, at an address that is a variable `s` shares or the value of a
/// local (then that local's value in `s`), matched with `s`'s entry of the same size there.
pub(super) fn held_value(ctx: &mut Ctx<'_>, other: &State, s: &State, start: &Var) -> Option<Var> {
    let holders: Vec<Var> = other.pt.iter().filter(|p| p.is_ptr && p.value == *start).map(|p| p.addr.clone()).collect();
    for addr in holders {
        let here = if s.pt.iter().any(|q| q.addr == addr) {
            Some(addr.clone())
        } else {
            let local = other.frames.iter().enumerate().find_map(|(i, f)| f.lv.iter().find(|(_, w)| **w == addr).map(|(x, _)| (i, *x)));
            local.and_then(|(i, x)| s.frames.get(i).and_then(|f| f.lv.get(&x)).cloned())
        };
        let Some(here) = here else { continue };
        if let Some(q) = s.pt.iter().find(|q| q.is_ptr && q.size == 8 && q.addr == here) {
            return Some(q.value.clone());
        }
        // the address may be named differently but provably equal
        let cands: Vec<(Var, Var)> = s.pt.iter().filter(|q| q.is_ptr && q.size == 8).map(|q| (q.addr.clone(), q.value.clone())).collect();
        if let Some((_, v)) = cands.into_iter().find(|(a, _)| equal(ctx, s, a, &here)) {
            return Some(v);
        }
    }
    None
}

/// Whether two invariants of a merge start at one variable that neither state renames and
/// that a pointer cell at one address holds in both (a list head in a stack slot, the walked
/// prefix of `while let Some(n) = cur { cur = &n.next }` from `&head`): the merge keeps the
/// variable, so pairing them is a renaming-free match. Pairing any two unrenamed equal starts
/// made other walks diverge (session 9); a holding cell both states share is the Rust case.
pub(super) fn held_alike(a: &State, b: &State, start_a: &Var, start_b: &Var) -> bool {
    start_a == start_b && a.pt.iter().any(|p| p.is_ptr && p.value == *start_a && b.pt.iter().any(|q| q.is_ptr && q.addr == p.addr && q.value == *start_b))
}

/// Whether a call of `f` from `s` runs in place although `f` is a non-recursive callee this
/// analysis summarizes: `s` holds list invariants, which a non-recursive summary cannot take
/// (its entry drops them and every access to their cells is an error there). Executing a
/// non-recursive callee in place is what the fallback analysis does for every call, so the
/// choice is exact; rustc's drop glue of an `Option<Box<Node>>` list (a loop after
/// `frontend::rust_list_drop`) is the case: it frees the list the caller built.
pub(super) fn runs_in_place(ctx: &Ctx<'_>, s: &State, f: crate::ir::FuncId) -> bool {
    !s.lists.is_empty() && ctx.summarizes_non_recursive(f)
}

/// Whether calls of `f` run in place in every attempt, whatever the caller's state: rustc's
/// drop glue of an `Option<Box<Node>>` list (the loop `frontend::rust_list_drop` makes of it).
/// Its argument is a list the caller holds; before the first merge of the loop that builds
/// the list there is no invariant yet (the unwinding path of `Box::new` drops the old head
/// while the list is one concrete cell), so [`runs_in_place`] alone sent those calls through
/// summaries and made the first attempt a summarizing one that the in-place attempt then
/// repeated. Executing a non-recursive callee in place is exact (it is what the fallback
/// analysis does for every call), so this choice costs time at most, never a verdict.
pub(super) fn always_in_place(f: &crate::ir::Function) -> bool {
    crate::frontend::is_list_drop_loop(f)
}

/// Drops the KB facts of a merged state that relate a list's length to an address (a block's
/// start or end, a pointer held in memory or in an invariant). Projection combines `len ≤ x`
/// with `x ≤ end` into `len ≤ end`; such facts hold by accident of the first iterations and
/// fail one per iteration, so a walk's header needs one merge per accident and the limit ends
/// it (the Rust walk `while let Some(n) = cur`, whose cursor and head live in stack slots).
/// Dropping facts is a weakening: the merged state still generalizes both sides.
pub(super) fn drop_length_address_facts(s: &mut State) -> usize {
    if s.lists.is_empty() {
        return 0;
    }
    let lens: BTreeSet<Var> = s.lists.iter().map(|l| l.len.clone()).collect();
    let mut addrs: BTreeSet<Var> = s.allocs.iter().flat_map(|a| [a.start.clone(), a.end.clone()]).collect();
    addrs.extend(s.pt.iter().flat_map(|p| if p.is_ptr { vec![p.addr.clone(), p.value.clone()] } else { vec![p.addr.clone()] }));
    for l in &s.lists {
        addrs.insert(l.start.clone());
        for f in l.fields.iter().filter(|f| f.is_ptr) {
            addrs.insert(f.first.clone());
            addrs.extend(f.last.clone());
        }
    }
    let before = s.kb.len();
    s.kb.retain(|f| {
        let vs = f.vars();
        !(vs.iter().any(|v| lens.contains(v)) && vs.iter().any(|v| addrs.contains(v)))
    });
    before - s.kb.len()
}

/// The field of an invariant as the merge compares it (offset, size, pointer, view).
fn key(f: &super::lists::ListField) -> (u64, u64, bool, bool) {
    (f.off, f.size, f.is_ptr, f.unsigned)
}

/// Restricts `l` to the fields whose keys are in `keep` (the recursive field is always kept).
fn restrict(l: &mut super::lists::ListInv, keep: &BTreeSet<(u64, u64, bool, bool)>) {
    let rec = key(l.rec_field());
    l.fields.retain(|f| keep.contains(&key(f)));
    l.rec = l.fields.iter().position(|f| key(f) == rec).unwrap_or(0);
}

/// Copies of the two states of a merge in which each invariant that has, in the other state,
/// an invariant of the same cells and recursive field but other fields (a cell consed with a
/// field stored in the other integer view, say) keeps only the fields both have: forgetting
/// a field of an invariant is a weakening, so the merge of the copies still generalizes both
/// states (μ of the merge maps to variables the originals have). `None` when nothing differs.
pub(super) fn common_fields(a: &State, b: &State) -> Option<(State, State)> {
    let (mut a2, mut b2) = (a.clone(), b.clone());
    let mut changed = false;
    for i in 0..a2.lists.len() {
        let la = &a2.lists[i];
        let rec = key(la.rec_field());
        let kin = |l: &super::lists::ListInv| l.size == la.size && key(l.rec_field()) == rec && l.end().is_some() == la.end().is_some();
        if b2.lists.iter().any(|lb| lb.same_shape(la)) {
            continue;
        }
        let partners: Vec<usize> = (0..b2.lists.len()).filter(|&k| kin(&b2.lists[k])).collect();
        let [k] = partners.as_slice() else { continue };
        let keys_a: BTreeSet<_> = la.fields.iter().map(key).collect();
        let keys_b: BTreeSet<_> = b2.lists[*k].fields.iter().map(key).collect();
        let keep: BTreeSet<_> = keys_a.intersection(&keys_b).cloned().collect();
        restrict(&mut a2.lists[i], &keep);
        restrict(&mut b2.lists[*k], &keep);
        tracing::debug!("lists: merging invariants at {:?} / {:?} on their common fields {:?}", a2.lists[i].start, b2.lists[*k].start, keep);
        changed = true;
    }
    changed.then_some((a2, b2))
}
