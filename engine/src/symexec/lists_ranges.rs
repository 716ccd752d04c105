//! Per-cell value ranges of a list invariant's integer fields (issue 10, session 10): every
//! cell's value of the field lies in `[lo, hi]` (constants), e.g. `0 ≤ value ≤ 99` when each
//! cell was consed with a value clamped to that range. A walk that sums or counts the values
//! is then bounded by `len·hi` (`sum + hi·len ≤ hi·B` for a list of at most `B` cells), which
//! is what a signed accumulator needs to be proved free of overflow.
//!
//! Meaning: `range = Some(r)` on a field of `start ↪^len [...]` says that each of the `len`
//! cells holds a value in `r`; for `len = 0` it says nothing, so the empty list may carry any
//! range. Where it comes from and goes (each a weakening or an exact step, see ARCHITECTURE.md
//! "Lists (seed 001)", *Session 10*): fold proves it of every member of a chain, materialization
//! states it of the taken cell and keeps it for the rest (a suffix), merge, instance and the
//! return widening keep the hull of both sides' ranges or a side's range against an empty list.

use super::ctx::Ctx;
use super::facts::{Atom, Fact};
use super::lists::{ListField, ListInv};
use super::state::State;
use crate::logic::{Int, LinExpr, Rel, Var};

/// Inclusive constant bounds of every cell's value of one field.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, serde::Serialize, serde::Deserialize)]
pub struct Range {
    pub lo: Int,
    pub hi: Int,
}

impl Range {
    /// The smallest range containing both.
    pub fn hull(self, o: Range) -> Range {
        Range { lo: self.lo.min(o.lo), hi: self.hi.max(o.hi) }
    }

    /// Whether every value in `o` lies in `self`.
    pub fn contains(self, o: Range) -> bool {
        self.lo <= o.lo && o.hi <= self.hi
    }

    /// `lo ≤ v ≤ hi`.
    pub fn atoms(self, v: &Var) -> [Atom; 2] {
        [Atom::var_const(v, Rel::Ge, self.lo), Atom::var_const(v, Rel::Le, self.hi)]
    }
}

/// The values a field of `size` bytes can hold at all (its view's range), `None` for pointers
/// and odd widths.
fn type_range(f_size: u64, is_ptr: bool, unsigned: bool) -> Option<Range> {
    let bits = u32::try_from(f_size * 8).ok().filter(|b| (1..=64).contains(b))?;
    if is_ptr {
        return None;
    }
    Some(if unsigned { Range { lo: 0, hi: (1 << bits) - 1 } } else { Range { lo: -(1 << (bits - 1)), hi: (1 << (bits - 1)) - 1 } })
}

/// The conjuncts of ⟨s⟩ a list's ranges contribute: for a non-empty list, its first and last
/// values lie in the range.
pub fn facts(l: &ListInv) -> Vec<Fact> {
    let mut out = vec![];
    let empty = Atom::var_const(&l.len, Rel::Le, 0);
    for f in &l.fields {
        let Some(r) = f.range else { continue };
        for v in std::iter::once(&f.first).chain(f.last.as_ref()) {
            out.extend(r.atoms(v).into_iter().map(|a| Fact::Or(vec![empty.clone(), a])));
        }
    }
    out
}

/// A member of a chain about to be folded, seen through one integer field: a concrete cell's
/// value, or a list invariant's range (`None`: it has none) and whether ⟨s⟩ proves it empty.
pub enum Member {
    Cell(Var),
    List { range: Option<Range>, empty: bool },
}

/// The tightest range (among the KB's constants and the members' own bounds) that ⟨s⟩ proves
/// of every cell of the concatenation of `members`, or `None` when some list member has no
/// range or the only range is the field's whole type.
pub fn chain_range(ctx: &mut Ctx<'_>, s: &State, members: &[Member], f: &ListField) -> Option<Range> {
    let whole = type_range(f.size, f.is_ptr, f.unsigned)?;
    let mut cells = vec![];
    let mut lists: Option<Range> = None;
    for m in members {
        match m {
            Member::Cell(v) => cells.push(v.clone()),
            Member::List { empty: true, .. } => {}
            Member::List { range: Some(r), .. } => lists = Some(lists.map_or(*r, |x| x.hull(*r))),
            Member::List { range: None, .. } => return None,
        }
    }
    if cells.is_empty() {
        return lists;
    }
    let mut ks: Vec<Int> = s.kb.iter().filter_map(|x| if let Fact::Atom(a) = x { Some(a.e.constant) } else { None }).flat_map(|k| [k, -k]).collect();
    ks.extend(lists.iter().flat_map(|r| [r.lo, r.hi]));
    ks.retain(|k| whole.lo <= *k && *k <= whole.hi);
    ks.sort_unstable();
    ks.dedup();
    let all = |ctx: &mut Ctx<'_>, rel: Rel, k: Int| ctx.entails(s, &cells.iter().map(|v| Atom::var_const(v, rel, k)).collect::<Vec<_>>());
    // `v ≤ k` is monotone in k: the smallest candidate at least the lists' `hi`
    let his: Vec<Int> = ks.iter().copied().filter(|k| lists.is_none_or(|r| r.hi <= *k)).collect();
    let hi = smallest(&his, |k| all(ctx, Rel::Le, k)).unwrap_or(whole.hi);
    let los: Vec<Int> = ks.iter().rev().copied().filter(|k| lists.is_none_or(|r| *k <= r.lo)).collect();
    let lo = smallest(&los, |k| all(ctx, Rel::Ge, k)).unwrap_or(whole.lo);
    let r = Range { lo, hi };
    (r != whole).then_some(r)
}

/// The first element of `ks` for which the monotone `holds` is true (false, …, false, true, …).
pub(super) fn smallest(ks: &[Int], mut holds: impl FnMut(Int) -> bool) -> Option<Int> {
    let last = *ks.last()?;
    if !holds(last) {
        return None;
    }
    let (mut lo, mut hi) = (0usize, ks.len() - 1);
    while lo < hi {
        let mid = (lo + hi) / 2;
        if holds(ks[mid]) {
            hi = mid;
        } else {
            lo = mid + 1;
        }
    }
    Some(ks[hi])
}

/// The range of a merged (or widened) field from the two sides' fields: the hull where both
/// have one, one side's where the other side's list is empty (`a_empty`, `b_empty`). With
/// `widen` (the graph's widening after some merges at one position), an end where `b` goes
/// beyond `a` (the ancestor) moves to the end of the field's type instead (a bound that creeps
/// by one per merge, `0 ≤ value ≤ k` of a list consed with a counter, would not converge).
pub fn merge_range(fa: &ListField, a_empty: bool, fb: &ListField, b_empty: bool, widen: bool) -> Option<Range> {
    match (fa.range, fb.range) {
        (Some(x), Some(y)) if widen => {
            let whole = type_range(fa.size, fa.is_ptr, fa.unsigned)?;
            let r = Range { lo: if y.lo < x.lo { whole.lo } else { x.lo }, hi: if y.hi > x.hi { whole.hi } else { x.hi } };
            (r != whole).then_some(r)
        }
        (Some(x), Some(y)) => Some(x.hull(y)),
        (Some(x), None) if b_empty => Some(x),
        (None, Some(y)) if a_empty => Some(y),
        _ => None,
    }
}

/// Whether `general`'s range covers the instance's (syntactically; the caller accepts an
/// instance list it proves empty otherwise).
pub fn range_covers(general: Option<Range>, inst: Option<Range>) -> bool {
    match (general, inst) {
        (None, _) => true,
        (Some(g), Some(i)) => g.contains(i),
        (Some(_), None) => false,
    }
}

/// Merge candidates (an extension of ⟪a⟫, each kept only when both states entail it) that bound
/// an accumulator `y` beside a list with a value range by the cells still to come: `y +
/// hi·len ≤ Y + hi·B` (for `hi > 0`) and `y + lo·len ≥ Y' + lo·B` (for `lo < 0`), where `B` is
/// the list's constant length bound and `Y`, `Y'` the tightest constant bounds of `y` among
/// the KB's constants: entailed by ⟨a⟩ by construction. A walk that adds each cell's value to
/// `y` and takes the cell off the list keeps both.
pub fn candidates(ctx: &mut Ctx<'_>, a: &State, ys: &[Var]) -> Vec<Atom> {
    let mut out = vec![];
    let mut consts: Vec<Int> = a.kb.iter().filter_map(|x| if let Fact::Atom(t) = x { Some(t.e.constant) } else { None }).flat_map(|k| [k, -k]).filter(|k| k.abs() < 1 << 40).collect();
    consts.sort_unstable();
    consts.dedup();
    for l in &a.lists {
        let ranges: Vec<Range> = l.fields.iter().filter_map(|f| f.range).collect();
        if ranges.is_empty() {
            continue;
        }
        let Some(bound) = super::lists::length_bound(ctx, a, &l.len).map(|b| -b.e.constant) else { continue };
        let len = LinExpr::var(&l.len);
        for y in ys {
            let ye = LinExpr::var(y);
            let upper = smallest(&consts, |k| ctx.entails(a, &[Atom::var_const(y, Rel::Le, k)]));
            let lowers: Vec<Int> = consts.iter().rev().copied().collect();
            let lower = smallest(&lowers, |k| ctx.entails(a, &[Atom::var_const(y, Rel::Ge, k)]));
            for r in &ranges {
                if let (true, Some(u)) = (r.hi > 0, upper) {
                    let k = r.hi.checked_mul(bound).and_then(|x| x.checked_add(u));
                    out.extend(k.and_then(|k| Atom::cmp(&ye.add_scaled(r.hi, &len)?, Rel::Le, &LinExpr::constant(k))));
                }
                if let (true, Some(w)) = (r.lo < 0, lower) {
                    let k = r.lo.checked_mul(bound).and_then(|x| x.checked_add(w));
                    out.extend(k.and_then(|k| Atom::cmp(&LinExpr::constant(k), Rel::Le, &ye.add_scaled(r.lo, &len)?)));
                }
            }
        }
    }
    out
}
