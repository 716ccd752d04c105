//! Unit tests of the doubly linked list rules (`symexec::lists_backward`): folding a chain
//! linked both ways, the last cell a local holds, materializing the last cell, the rest after
//! the first cell, the conjuncts of ⟨s⟩ and the NULL-terminated list seen as a segment.

use super::facts::Atom;
use super::lists::{self, ListField, ListInv};
use super::lists_backward::{self, Back};
use super::lists_tests::{ctx, module};
use super::state::{Alloc, AllocKind, Frame, PtEntry, State};
use crate::ir::*;
use crate::logic::{LinExpr, Rel, Var};

fn v(n: &str) -> Var {
    Var::new(n)
}

fn eq(a: &Var, b: &Var, k: i128) -> Atom {
    Atom::cmp(&LinExpr::var(a), Rel::Eq, &LinExpr::var(b).add_scaled(1, &LinExpr::constant(k)).expect("no overflow")).expect("atom")
}

/// 24-byte heap cells `(start, next, prev)`: i32 value at 0, next at 8, prev at 16.
fn with_cells(cells: &[(&str, &str, &str)]) -> State {
    let mut s = State { inputs_exact: true, ..State::default() };
    for (i, (start, next, prev)) in cells.iter().enumerate() {
        let (end, na, pa, val) = (v(&format!("{start}_end")), v(&format!("{start}_na")), v(&format!("{start}_pa")), v(&format!("{start}_val")));
        let start = v(start);
        s.add_atom(eq(&end, &start, 23));
        s.add_atom(eq(&na, &start, 8));
        s.add_atom(eq(&pa, &start, 16));
        s.add_atom(Atom::var_const(&start, Rel::Ge, 1));
        s.add_atom(Atom::var_const(&end, Rel::Le, super::exec::ADDR_MAX));
        let id = i as u32 + 1;
        s.allocs.push(Alloc { id, start: start.clone(), end, kind: AllocKind::Heap, pristine: None });
        s.pt.push(PtEntry { addr: start.clone(), size: 4, is_ptr: false, unsigned: false, value: val, alloc: id });
        s.pt.push(PtEntry { addr: na, size: 8, is_ptr: true, unsigned: false, value: v(next), alloc: id });
        s.pt.push(PtEntry { addr: pa, size: 8, is_ptr: true, unsigned: false, value: v(prev), alloc: id });
    }
    s.add_atom(Atom::var_const(&v("null"), Rel::Eq, 0));
    s
}

pub(super) fn with_locals(mut s: State, locals: &[&str]) -> State {
    let lv = locals.iter().enumerate().map(|(i, x)| (ValueId(i as u32), v(x))).collect();
    s.frames.push(Frame { func: FuncId(0), block: BlockId(0), prev: None, idx: 0, lv });
    s
}

/// A doubly linked invariant of 24-byte cells: value `f0 .. l0`, next `next .. end`, prev
/// `p0 .. pl`, last cell `lc`.
fn dll(start: &str, len: &str, next: &str, end: Option<&str>, (p0, pl): (&str, &str), lc: &str) -> ListInv {
    ListInv {
        start: v(start),
        len: v(len),
        size: 24,
        rec: 1,
        fields: vec![
            ListField { off: 0, size: 4, is_ptr: false, unsigned: false, first: v(&format!("{len}_f0")), last: Some(v(&format!("{len}_l0"))), step: None, range: None, owns: None },
            ListField { off: 8, size: 8, is_ptr: true, unsigned: false, first: v(next), last: end.map(v), step: None, range: None, owns: None },
            ListField { off: 16, size: 8, is_ptr: true, unsigned: false, first: v(p0), last: Some(v(pl)), step: None, range: None, owns: None },
        ],
        back: Some(Back { field: 2, last_cell: v(lc) }),
        tail: None,
    }
}

#[test]
fn a_chain_linked_both_ways_folds_into_a_doubly_linked_invariant() {
    let m = module();
    let mut cx = ctx(&m);
    // c1 ⇄ c2 ⇄ c3, NULL at both ends, the head local at c1
    let mut s = with_locals(with_cells(&[("c1", "c2", "null"), ("c2", "c3", "c1"), ("c3", "null", "c2")]), &["c1"]);
    assert!(lists::fold(&mut cx, &mut s));
    assert_eq!(s.lists.len(), 1);
    let l = &s.lists[0];
    let b = l.back.as_ref().expect("doubly linked");
    assert_eq!((l.fields[b.field].off, b.last_cell.clone()), (16, v("c3")));
    assert_eq!(l.fields[b.field].first, v("null"), "the first cell's prev");
    assert!(cx.entails(&s, &[Atom::var_const(&l.len, Rel::Eq, 3)]));
}

#[test]
fn a_chain_whose_prev_pointers_skip_a_cell_is_not_doubly_linked() {
    let m = module();
    let mut cx = ctx(&m);
    // c3's prev is c1, not its predecessor c2
    let mut s = with_locals(with_cells(&[("c1", "c2", "null"), ("c2", "c3", "c1"), ("c3", "null", "c1")]), &["c1"]);
    assert!(lists::fold(&mut cx, &mut s));
    assert!(s.lists.iter().all(|l| l.back.is_none()), "{:?}", s.lists);
}

#[test]
fn the_cell_a_local_holds_at_the_end_of_a_doubly_linked_chain_joins_it_as_its_last_cell() {
    let m = module();
    let mut cx = ctx(&m);
    // head at c1, tail at c3: one list from c1 whose last cell is c3 (tail stays reachable)
    let mut s = with_locals(with_cells(&[("c1", "c2", "null"), ("c2", "c3", "c1"), ("c3", "null", "c2")]), &["c1", "c3"]);
    assert!(lists::fold(&mut cx, &mut s));
    assert_eq!(s.lists.len(), 1, "{:?}", s.lists);
    assert_eq!(s.lists[0].back.as_ref().map(|b| b.last_cell.clone()), Some(v("c3")));
    assert!(s.allocs.is_empty());
}

#[test]
fn a_singly_linked_chain_keeps_the_cell_a_local_holds_outside() {
    let m = module();
    let mut cx = ctx(&m);
    // c3's prev field does not lead back to c2: the chain is not doubly linked, so the
    // tail cell stays the target of a segment
    let mut s = with_locals(with_cells(&[("c1", "c2", "null"), ("c2", "c3", "c1"), ("c3", "null", "null")]), &["c1", "c3"]);
    lists::fold(&mut cx, &mut s);
    assert!(s.lists.iter().all(|l| l.start != v("c1") || l.end() == Some(&v("c3"))), "{:?}", s.lists);
}

#[test]
fn an_access_in_the_last_cell_materializes_it_and_leaves_a_segment_ending_there() {
    let m = module();
    let mut cx = ctx(&m);
    let mut s = with_locals(State { inputs_exact: true, ..State::default() }, &["h", "t"]);
    s.lists.push(dll("h", "n", "q", None, ("null", "pl"), "t"));
    s.add_atom(Atom::var_const(&v("null"), Rel::Eq, 0));
    s.add_atom(Atom::var_const(&v("n"), Rel::Ge, 2));
    s.add_atom(eq(&v("a"), &v("t"), 16));
    let out = lists::materialize(&mut cx, &s, &v("a"), 8).expect("the access lies in the last cell");
    assert_eq!(out.len(), 1, "non-empty: no split");
    let st = &out[0];
    assert!(st.allocs.iter().any(|a| a.start == v("t")), "the last cell is a block");
    let prev = st.pt.iter().find(|p| p.is_ptr && p.value == v("pl")).expect("its prev holds the list's last prev value");
    assert_eq!(prev.alloc, st.allocs[0].id);
    let rest = &st.lists[0];
    assert_eq!((rest.start.clone(), rest.end().cloned()), (v("h"), Some(v("t"))), "the rest ends at the taken cell");
    assert_eq!(rest.back.as_ref().map(|b| b.last_cell.clone()), Some(v("pl")), "its last cell is the taken cell's prev");
    assert!(cx.entails(st, &[eq(&rest.len, &v("n"), -1)]));
}

#[test]
fn an_access_in_the_last_cell_of_a_possibly_empty_list_splits_on_emptiness() {
    let m = module();
    let mut cx = ctx(&m);
    let mut s = with_locals(State { inputs_exact: true, ..State::default() }, &["h", "t"]);
    s.lists.push(dll("h", "n", "q", None, ("null", "pl"), "t"));
    s.add_atom(Atom::var_const(&v("null"), Rel::Eq, 0));
    let out = lists::materialize(&mut cx, &s, &v("t"), 4).expect("under len ≥ 1 the access lies in the last cell");
    assert_eq!(out.len(), 2);
    // the empty case: its last cell is its first prev value, NULL
    assert!(cx.entails(&out[0], &[Atom::var_const(&v("t"), Rel::Eq, 0)]));
}

#[test]
fn an_access_outside_the_first_and_last_cells_materializes_nothing() {
    let m = module();
    let mut cx = ctx(&m);
    let mut s = with_locals(State { inputs_exact: true, ..State::default() }, &["h", "t", "x"]);
    s.lists.push(dll("h", "n", "q", None, ("null", "pl"), "t"));
    s.add_atom(Atom::var_const(&v("null"), Rel::Eq, 0));
    s.add_atom(Atom::var_const(&v("n"), Rel::Ge, 3));
    // x is the last cell's prev: inside the list, neither its first nor its last cell
    assert!(lists::materialize(&mut cx, &s, &v("pl"), 8).is_none());
}

#[test]
fn the_rest_after_the_first_cell_is_doubly_linked_back_to_it() {
    let m = module();
    let mut cx = ctx(&m);
    let mut s = with_locals(State { inputs_exact: true, ..State::default() }, &["h", "t"]);
    s.lists.push(dll("h", "n", "q", None, ("null", "pl"), "t"));
    s.add_atom(Atom::var_const(&v("null"), Rel::Eq, 0));
    s.add_atom(Atom::var_const(&v("n"), Rel::Ge, 2));
    let out = lists::materialize(&mut cx, &s, &v("h"), 4).expect("first cell");
    let rest = &out[0].lists[0];
    let b = rest.back.as_ref().expect("still doubly linked");
    assert_eq!((rest.fields[b.field].first.clone(), b.last_cell.clone()), (v("h"), v("t")));
}

#[test]
fn the_last_cell_facts_follow_from_the_length() {
    let m = module();
    let mut cx = ctx(&m);
    let mut s = with_locals(State { inputs_exact: true, ..State::default() }, &["h"]);
    s.lists.push(dll("h", "n", "q", None, ("p0", "pl"), "lc"));
    let mut one = s.clone();
    one.add_atom(Atom::var_const(&v("n"), Rel::Eq, 1));
    assert!(cx.entails(&one, &[eq(&v("lc"), &v("h"), 0)]), "one cell: the last is the first");
    let mut none = s.clone();
    none.add_atom(Atom::var_const(&v("n"), Rel::Eq, 0));
    assert!(cx.entails(&none, &[eq(&v("lc"), &v("p0"), 0)]), "empty: the convention");
    let mut two = s;
    two.add_atom(Atom::var_const(&v("n"), Rel::Ge, 2));
    assert!(cx.entails(&two, &[Atom::var_const(&v("pl"), Rel::Ge, 1)]), "the last cell's prev is a cell");
    assert!(!cx.entails(&two, &[eq(&v("lc"), &v("h"), 0)]));
}

#[test]
fn a_null_terminated_list_is_padded_into_a_segment_ending_at_null_and_an_empty_list() {
    let m = module();
    let mut cx = ctx(&m);
    // before the walk's first step: list(h) whose last cell p holds; after it: the part not
    // yet walked, seg(h, end = w) whose last cell p holds, and the walked list(w)
    let mut a = with_locals(State { inputs_exact: true, ..State::default() }, &["h", "p"]);
    a.lists.push(dll("h", "n", "q", None, ("null", "pl"), "p"));
    a.add_atom(Atom::var_const(&v("null"), Rel::Eq, 0));
    let mut b = with_locals(State { inputs_exact: true, ..State::default() }, &["h", "p"]);
    b.lists.push(dll("h", "m", "q2", Some("w"), ("null", "pl2"), "p"));
    b.lists.push(dll("w", "k", "q3", None, ("p", "pl3"), "lw"));
    assert!(lists_backward::pad_null_end(&mut cx, &mut a, &b));
    assert_eq!(a.lists.len(), 2);
    let seg = &a.lists[0];
    let z = seg.end().cloned().expect("a segment now");
    assert!(cx.entails(&a, &[Atom::var_const(&z, Rel::Eq, 0)]), "ending at NULL");
    let empty = &a.lists[1];
    assert_eq!(empty.start, z);
    assert!(cx.entails(&a, &[Atom::var_const(&empty.len, Rel::Eq, 0)]));
    assert_eq!(empty.back.as_ref().map(|b| b.last_cell.clone()), Some(v("p")));
}
