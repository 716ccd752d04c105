//! Singly linked invariants that name their last cell (issue 10): a walk that keeps `prev`
//! one cell behind its cursor (`while (p && p->v != key) { prev = p; p = p->next; }`, then
//! `prev->next = p->next` to unlink, or `prev->next = new` to insert) has the walked prefix
//! `head … prev` with `prev->next = p`, and `prev = NULL` before the first step. Without a
//! name for the prefix's last cell the merge of the first arrival (no `prev` cell) with the
//! later ones (a concrete `prev` cell) dropped that cell, and the unlinking store and the
//! walk after it reached error states.
//!
//! Meaning of `tail = Some(lc)` on an invariant of cells `c_1 … c_len` without `back` (a
//! doubly linked invariant records its last cell in `Back` instead): `lc = c_len` when
//! `len ≥ 1`, and `lc = 0` (NULL) when `len = 0`. The convention for the empty list is what
//! the walk has before its first step (`prev = NULL`, the empty prefix), so one invariant
//! `seg(head, k, end = p, tail = prev)` describes every arrival at the walk's header.
//! Everything here states what this meaning implies, re-describes the same cells, or forgets:
//! - [`facts`]: the conjuncts of ⟨s⟩ (`len = 0 ⇔ lc = 0`, and [`last_cell_facts`], which
//!   doubly linked invariants share);
//! - [`chain_tail`] (fold): a chain whose last member is a concrete cell a live local holds,
//!   and which leads into a pinned member, records that cell as its tail; [`join_tail`] lets
//!   a chain take such a cell (pinned only by locals) as its last member;
//! - `lists_backward::materialize_last` takes the last cell of a tail-naming invariant as it
//!   does a doubly linked one's (the rest is a segment ending at the taken cell, no tail);
//! - [`name_tails`]: the tail is named by a live local equal to it, or forgotten when none
//!   holds it (a weakening);
//! - [`pad_tail`]: the empty segment `lists::pad` adds names its tail by the NULL the local
//!   holding the other state's tail has;
//! - [`aligned`], [`pair_by_local`], [`covers`]: instance check and merge keep a tail only
//!   where both sides have one, and pair list variables through the local holding them in
//!   both states.

use super::ctx::Ctx;
use super::facts::{Atom, Fact};
use super::lists::{self, equal, le, plus, Chains, End, Link, ListInv, Node};
use super::state::State;
use crate::logic::{LinExpr, Rel, Var};
use std::collections::BTreeSet;

fn lin(v: &Var) -> LinExpr {
    LinExpr::var(v)
}

fn or(atoms: Vec<Option<Atom>>) -> Option<Fact> {
    atoms.into_iter().collect::<Option<Vec<_>>>().map(Fact::Or)
}

/// The conjuncts of ⟨s⟩ for `lc`, the last cell of invariant `i` when it is non-empty (for
/// singly linked tails and doubly linked invariants alike): a one-cell list's last cell is its
/// start; a non-empty list's last cell is an address whose cell lies below the address
/// space's end, apart from the first cell when there are two or more, and outside every
/// allocation and every other invariant's first cell. Each follows from the cells being live,
/// pairwise disjoint heap blocks known to no AL entry.
pub(super) fn last_cell_facts(s: &State, i: usize, lc: &Var) -> Vec<Fact> {
    let l = &s.lists[i];
    let len = &l.len;
    let c = LinExpr::constant;
    let empty = || le(&lin(len), &c(0));
    let single = || le(&lin(len), &c(1));
    let last_byte = plus(lc, l.size as i128 - 1);
    let mut out = vec![
        or(vec![empty(), le(&c(2), &lin(len)), Atom::cmp(&lin(lc), Rel::Eq, &lin(&l.start))]),
        or(vec![empty(), le(&c(1), &lin(lc))]),
        or(vec![empty(), le(&last_byte, &c(super::exec::ADDR_MAX))]),
        or(vec![single(), Atom::cmp(&plus(&l.start, l.size as i128), Rel::Le, &lin(lc)), Atom::cmp(&plus(lc, l.size as i128), Rel::Le, &lin(&l.start))]),
    ];
    for a in &s.allocs {
        out.push(or(vec![empty(), Atom::cmp(&last_byte, Rel::Lt, &lin(&a.start)), Atom::cmp(&lin(&a.end), Rel::Lt, &lin(lc))]));
    }
    for (k, m) in s.lists.iter().enumerate() {
        if k != i {
            let other_last = plus(&m.start, m.size as i128 - 1);
            out.push(or(vec![empty(), le(&lin(&m.len), &c(0)), Atom::cmp(&last_byte, Rel::Lt, &lin(&m.start)), Atom::cmp(&other_last, Rel::Lt, &lin(lc))]));
        }
    }
    out.into_iter().flatten().collect()
}

/// The conjuncts of ⟨s⟩ of invariant `i`'s tail: NULL exactly when the list is empty (the
/// convention), and the facts of a last cell.
pub(super) fn facts(s: &State, i: usize) -> Vec<Fact> {
    let l = &s.lists[i];
    let (None, Some(lc)) = (&l.back, &l.tail) else { return vec![] };
    let mut out: Vec<Fact> = [or(vec![le(&LinExpr::constant(1), &lin(&l.len)), Atom::cmp(&lin(lc), Rel::Eq, &LinExpr::constant(0))])].into_iter().flatten().collect();
    out.extend(last_cell_facts(s, i, lc));
    out
}

/// The live locals' values of `s`.
fn live_values(s: &State) -> Vec<Var> {
    s.frames.iter().flat_map(|f| f.lv.values().cloned()).collect()
}

/// The last cell of member `n` when it certainly has one: a concrete cell's start, or the
/// tail of a provably non-empty list member.
fn last_cell_of(ctx: &mut Ctx<'_>, ch: &Chains<'_>, n: Node) -> Option<Var> {
    match n {
        Node::Cell(k) => Some(ch.cs[k].start.clone()),
        Node::List(k) => {
            let l = &ch.s.lists[k];
            let t = l.tail.clone()?;
            ctx.entails(ch.s, &[Atom::var_const(&l.len, Rel::Ge, 1)]).then_some(t)
        }
    }
}

/// The tail a folded chain records (fold, `lists::build`): the last cell of its last member
/// (a concrete cell, or a non-empty list member's tail) when a live local holds it and the
/// chain is a segment leading into a member that stays outside (the walked prefix before
/// the cursor's list); `None` for a doubly linked chain (its `Back` names the last cell) and
/// otherwise.
pub(super) fn chain_tail(ctx: &mut Ctx<'_>, ch: &Chains<'_>, chain: &[Node], end: End, doubly: bool) -> Option<Var> {
    if doubly || end == End::Null {
        return None;
    }
    let start = last_cell_of(ctx, ch, *chain.last()?)?;
    let lv = live_values(ch.s);
    (lv.contains(&start) || lv.iter().any(|v| equal(ctx, ch.s, v, &start))).then_some(start)
}

/// Fold of a chain that runs into `n`, a member pinned only by the locals that hold it (the
/// `prev` cursor's cell, concrete or already folded into a one-cell list naming it as its
/// tail): when `n` links to a pinned member, the chain takes `n` as its last member and ends
/// at that member, recording `n`'s last cell as its tail (it stays reachable through the
/// tail). `None` when that does not fold into an invariant with a tail.
pub(super) fn join_tail(ctx: &mut Ctx<'_>, ch: &Chains<'_>, chain: &[Node], n: Node, (nodes, links): (&[Node], &[Option<Link>]), pinned: &BTreeSet<Node>) -> Option<State> {
    last_cell_of(ctx, ch, n)?;
    let at = nodes.iter().position(|m| *m == n)?;
    let Some(Link::To(m)) = links[at] else { return None };
    if !pinned.contains(&m) || chain.contains(&m) || m == n {
        return None;
    }
    let mut with = chain.to_vec();
    with.push(n);
    let st = lists::build(ctx, ch, &with, End::At(m))?;
    st.lists.last().is_some_and(|l| l.tail.is_some()).then_some(st)
}

/// Names every tail by a live local holding it (syntactically, else provably; a renaming by
/// an entailed equality), preferring one that is not the start's variable (a one-cell list
/// that `head` and `prev` both hold: the merge pairs the tail through `prev`), and forgets
/// the tails no live local holds (a weakening: the cells stay in the invariant).
pub(super) fn name_tails(ctx: &mut Ctx<'_>, s: &mut State) {
    let lv = live_values(s);
    for i in 0..s.lists.len() {
        let Some(t) = s.lists[i].tail.clone() else { continue };
        if s.lists[i].back.is_some() {
            s.lists[i].tail = None;
            continue;
        }
        let start = s.lists[i].start.clone();
        if lv.contains(&t) && t != start {
            continue;
        }
        let other = lv.iter().find(|v| **v != start && equal(ctx, s, v, &t)).cloned();
        s.lists[i].tail = other.or_else(|| lv.contains(&t).then_some(t));
    }
}

/// The tail of the empty segment `l` that `lists::pad` adds to `s` for `lb` of `other`: the
/// value in `s` of a local that holds `lb`'s tail in `other`, if ⟨s⟩ proves it NULL (the
/// `prev` of a walk before its first step); otherwise `l` gets no tail. An empty invariant
/// describes no cell, so any NULL satisfies the convention.
pub(super) fn pad_tail(ctx: &mut Ctx<'_>, s: &State, other: &State, lb: &ListInv, l: &mut ListInv) {
    let (None, Some(t)) = (&lb.back, &lb.tail) else { return };
    for (fi, f) in other.frames.iter().enumerate() {
        for (x, w) in &f.lv {
            if w != t && !equal(ctx, other, w, t) {
                continue;
            }
            let Some(va) = s.frames.get(fi).and_then(|g| g.lv.get(x)) else { continue };
            if lists::is_null(ctx, s, va) {
                l.tail = Some(va.clone());
                return;
            }
        }
    }
}

/// Copies of `a` and `b` whose variables correspond position by position: a tail only where
/// both have one, a backward link only where both have the same one.
pub(super) fn aligned(a: &ListInv, b: &ListInv) -> (ListInv, ListInv) {
    let (mut x, mut y) = (a.clone(), b.clone());
    if x.tail.is_none() || y.tail.is_none() {
        x.tail = None;
        y.tail = None;
    }
    if !super::lists_backward::same_back(a, b) {
        x.back = None;
        y.back = None;
    }
    (x, y)
}

/// Instance check: a general invariant that names its tail needs an instance that does.
pub(super) fn covers(general: &ListInv, inst: &ListInv) -> bool {
    general.tail.is_none() || inst.tail.is_some()
}

/// The merged variable of a local whose value is `x` in the first merged state and `y` in
/// the second (`locals`: a's value, b's value, merged value of every local both have), if
/// there is one: the merge names list variables by the local that holds them in both states
/// (a variable two locals share in one state, `head` and `prev` on a walk's first cell, is
/// renamed for only one of them).
pub(super) fn pair_by_local(locals: &[(Var, Var, Var)], x: &Var, y: &Var) -> Option<Var> {
    locals.iter().find(|(a, b, _)| a == x && b == y).map(|(_, _, m)| m.clone())
}
