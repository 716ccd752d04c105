//! Unit tests of `unreached_globals`: a query keeps the disjunctions of the global blocks its
//! atoms reach and loses those of globals it never reaches; entailments it can prove without
//! them still hold, and the ctx's ⟨s⟩ for the query carries no unreached global.

use super::facts::{Atom, Fact};
use super::lists_tests::ctx;
use super::state::{Alloc, AllocKind, State};
use super::unreached_globals::without_unreached;
use crate::ir::GlobalId;
use crate::logic::{LinExpr, Rel, Var};
use std::collections::BTreeSet;

fn v(n: &str) -> Var {
    Var::new(n)
}

/// A heap block `h`, globals `g` (reached: `p = g + 4`) and `k` (reached by nothing).
fn state() -> State {
    let mut s = State { inputs_exact: true, ..State::default() };
    s.allocs.push(Alloc { id: 1, start: v("h"), end: v("h_end"), kind: AllocKind::Heap, pristine: None });
    s.allocs.push(Alloc { id: 2, start: v("g"), end: v("g_end"), kind: AllocKind::Global(GlobalId(0)), pristine: None });
    s.allocs.push(Alloc { id: 3, start: v("k"), end: v("k_end"), kind: AllocKind::Global(GlobalId(1)), pristine: None });
    for (a, b, n) in [("h_end", "h", 15), ("g_end", "g", 7), ("k_end", "k", 7)] {
        s.add_atoms([Atom::cmp(&LinExpr::var(&v(a)), Rel::Eq, &LinExpr::var(&v(b)).add_scaled(1, &LinExpr::constant(n)).unwrap())]);
    }
    s.add_atoms([Atom::cmp(&LinExpr::var(&v("p")), Rel::Eq, &LinExpr::var(&v("g")).add_scaled(1, &LinExpr::constant(4)).unwrap())]);
    s
}

fn disjoint(a: &str, a_end: &str, b: &str, b_end: &str) -> Fact {
    Fact::Or(vec![
        Atom::cmp(&LinExpr::var(&v(a_end)), Rel::Lt, &LinExpr::var(&v(b))).unwrap(),
        Atom::cmp(&LinExpr::var(&v(b_end)), Rel::Lt, &LinExpr::var(&v(a))).unwrap(),
    ])
}

#[test]
fn disjunctions_of_unreached_globals_are_left_out_and_reached_ones_kept() {
    let s = state();
    let mut facts: Vec<Fact> = s.kb.clone();
    let hg = disjoint("h", "h_end", "g", "g_end");
    let hk = disjoint("h", "h_end", "k", "k_end");
    let gk = disjoint("g", "g_end", "k", "k_end");
    facts.extend([hg.clone(), hk.clone(), gk.clone()]);
    let focus: BTreeSet<Var> = [v("p"), v("h")].into_iter().collect();
    let kept = without_unreached(&s, facts.clone(), &focus);
    assert!(kept.contains(&hg), "`g` is reached through `p = g + 4`");
    assert!(!kept.contains(&hk) && !kept.contains(&gk), "`k` is reached by no atom: {kept:?}");
    assert!(kept.iter().filter(|f| matches!(f, Fact::Atom(_))).count() == s.kb.len(), "atoms are all kept");
    // a query about `k` keeps `k`'s disjunction with the heap block, not the one with `g`,
    // which that query does not reach
    let focus_k: BTreeSet<Var> = [v("k")].into_iter().collect();
    let kept_k = without_unreached(&s, facts, &focus_k);
    assert!(kept_k.contains(&hk) && !kept_k.contains(&gk), "{kept_k:?}");
}

#[test]
fn a_pointer_into_a_reached_global_is_still_proved_outside_the_heap_block() {
    let m = super::lists_tests::module();
    let mut cx = ctx(&m);
    let s = state();
    // p lies in g, which is disjoint from h: p is not h's start (needs the g–h disjunction)
    let ne = Atom::cmp(&LinExpr::var(&v("p")), Rel::Ne, &LinExpr::var(&v("h"))).unwrap();
    assert!(cx.entails(&s, &[ne]));
}

#[test]
fn merge_candidates_skip_the_globals_no_atom_relates_a_pointer_to() {
    let s = state();
    let mut facts: Vec<Fact> = s.kb.clone();
    facts.extend([disjoint("h", "h_end", "g", "g_end"), disjoint("h", "h_end", "k", "k_end"), disjoint("g", "g_end", "k", "k_end")]);
    let atoms = super::unreached_globals::atoms_only(&facts);
    // p = g + 4: g is p's block, k is apart (only the disjunctions mention both)
    let apart = super::unreached_globals::globals_apart(&s, &atoms, &v("p"));
    assert_eq!(apart, [3].into_iter().collect(), "{apart:?}");
    // a pointer no atom mentions is apart from both globals; the heap block is never skipped
    let q = super::unreached_globals::globals_apart(&s, &atoms, &v("q"));
    assert_eq!(q, [2, 3].into_iter().collect(), "{q:?}");
    // a global's own start is not apart from itself
    assert!(!super::unreached_globals::globals_apart(&s, &atoms, &v("k")).contains(&3));
}
