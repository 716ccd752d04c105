//! Unit tests of the singly linked invariants that name their last cell
//! (`symexec::lists_prev`): folding the cell a `prev` cursor holds as the tail, the
//! conjuncts of ⟨s⟩, materializing the tail cell, and the alignment of instance and merge.

use super::facts::Atom;
use super::lists::{self, ListInv};
use super::lists_backward_tests::with_locals;
use super::lists_prev;
use super::lists_tests::{ctx, inv, module, with_cells};
use super::state::State;
use crate::logic::{LinExpr, Rel, Var};

fn v(n: &str) -> Var {
    Var::new(n)
}

fn eq(a: &Var, b: &Var, k: i128) -> Atom {
    Atom::cmp(&LinExpr::var(a), Rel::Eq, &LinExpr::var(b).add_scaled(1, &LinExpr::constant(k)).expect("no overflow")).expect("atom")
}

/// A segment of 16-byte cells from `h` with `n` cells ending at `t`, naming its tail `lc`.
fn seg_with_tail(lc: &str) -> ListInv {
    let mut l = inv("h", "n", ("f0", "l0"), "q", Some("t"));
    l.tail = Some(v(lc));
    l
}

#[test]
fn the_cell_a_prev_cursor_holds_ends_the_walked_prefix_as_its_tail() {
    let m = module();
    let mut cx = ctx(&m);
    // head → c1 → c2 (prev) → c3 (p) → NULL: the prefix c1, c2 folds with tail c2, ending at c3
    let mut s = with_locals(with_cells(&[("c1", "c2"), ("c2", "c3"), ("c3", "null")]), &["c1", "c2", "c3"]);
    assert!(lists::fold(&mut cx, &mut s));
    let l = s.lists.iter().find(|l| l.start == v("c1")).expect("the prefix from head");
    assert_eq!((l.end().cloned(), l.tail.clone()), (Some(v("c3")), Some(v("c2"))));
    assert!(cx.entails(&s, &[Atom::var_const(&l.len, Rel::Eq, 2)]));
    assert!(s.lists.iter().all(|l| l.start != v("c2")), "the prev cell is inside the prefix");
}

#[test]
fn a_cell_held_only_by_a_local_before_null_is_no_tail() {
    let m = module();
    let mut cx = ctx(&m);
    // head → c1 → c2 (held by a local) → NULL: the append shape stays as before (c2 is
    // joined as no list's tail, it starts a list of its own)
    let mut s = with_locals(with_cells(&[("c1", "c2"), ("c2", "null")]), &["c1", "c2"]);
    lists::fold(&mut cx, &mut s);
    assert!(s.lists.iter().all(|l| l.tail != Some(v("c2"))));
    assert!(s.lists.iter().any(|l| l.start == v("c2")));
}

#[test]
fn the_tail_is_null_exactly_when_the_list_is_empty() {
    let m = module();
    let mut cx = ctx(&m);
    let mut s = with_locals(State { inputs_exact: true, ..State::default() }, &["h", "lc", "t"]);
    s.lists.push(seg_with_tail("lc"));
    let mut null_tail = s.clone();
    null_tail.add_atom(Atom::var_const(&v("lc"), Rel::Eq, 0));
    assert!(cx.entails(&null_tail, &[Atom::var_const(&v("n"), Rel::Eq, 0)]), "prev = NULL: the prefix is empty");
    let mut empty = s.clone();
    empty.add_atom(Atom::var_const(&v("n"), Rel::Eq, 0));
    assert!(cx.entails(&empty, &[Atom::var_const(&v("lc"), Rel::Eq, 0)]));
    let mut one = s;
    one.add_atom(Atom::var_const(&v("n"), Rel::Eq, 1));
    assert!(cx.entails(&one, &[eq(&v("lc"), &v("h"), 0)]), "one cell: the tail is the first cell");
}

#[test]
fn a_store_into_the_tail_cell_materializes_it_and_leaves_a_segment_ending_there() {
    let m = module();
    let mut cx = ctx(&m);
    let mut s = with_locals(State { inputs_exact: true, ..State::default() }, &["h", "lc", "t"]);
    s.lists.push(seg_with_tail("lc"));
    s.add_atom(Atom::var_const(&v("lc"), Rel::Ge, 1));
    s.add_atom(eq(&v("a"), &v("lc"), 8));
    let out = lists::materialize(&mut cx, &s, &v("a"), 8).expect("prev->next lies in the tail cell");
    assert_eq!(out.len(), 1, "prev ≠ NULL proves the prefix non-empty: no split");
    let st = &out[0];
    assert!(st.allocs.iter().any(|a| a.start == v("lc")), "the tail cell is a heap block");
    let next = st.pt.iter().find(|p| p.is_ptr).expect("its next field");
    assert_eq!(next.value, v("t"), "its next is the segment's target");
    let rest = &st.lists[0];
    assert_eq!((rest.start.clone(), rest.end().cloned(), rest.tail.clone()), (v("h"), Some(v("lc")), None));
    assert!(cx.entails(st, &[eq(&rest.len, &v("n"), -1)]));
}

#[test]
fn instance_and_merge_keep_a_tail_only_where_both_sides_have_one() {
    let with = seg_with_tail("lc");
    let without = inv("h", "n", ("f0", "l0"), "q", Some("t"));
    let (a, b) = lists_prev::aligned(&with, &without);
    assert!(a.tail.is_none() && b.tail.is_none());
    assert_eq!(a.vars().len(), b.vars().len(), "the variables correspond position by position");
    assert!(lists_prev::covers(&without, &with));
    assert!(!lists_prev::covers(&with, &without));
    let locals = [(v("x"), v("y"), v("m"))];
    assert_eq!(lists_prev::pair_by_local(&locals, &v("x"), &v("y")), Some(v("m")));
    assert_eq!(lists_prev::pair_by_local(&locals, &v("y"), &v("x")), None);
}
