//! Unit tests of the whole-cycle fold (`symexec::lists_cyclic`), of one variable per list
//! position (`symexec::lists_positions`), of the value candidates a cyclic search needs, and
//! of the two rules that keep a cons-built list's step until its cycle is closed.

use super::facts::Atom;
use super::lists;
use super::lists_tests::{ctx, inv, module, valued, with_head, with_locals};
use super::lists_values::Step;
use super::state::State;
use crate::logic::{LinExpr, Rel, Var};

fn v(n: &str) -> Var {
    Var::new(n)
}

/// 16-byte heap cells (i32 value at 0 equal to the given constant, next pointer at 8), the
/// local 0 pointing to `local`.
fn cycle(cells: &[(&str, &str, i128)], local: &str) -> State {
    with_head(valued(cells), local)
}

#[test]
fn a_cycle_whose_values_rise_by_one_from_the_cursor_folds_whole_back_to_the_cursor() {
    let m = module();
    let mut cx = ctx(&m);
    let mut s = cycle(&[("c1", "c2", 0), ("c2", "c3", 1), ("c3", "c1", 2)], "c1");
    assert!(lists::fold(&mut cx, &mut s));
    assert_eq!(s.lists.len(), 1);
    assert!(s.allocs.is_empty() && s.pt.is_empty(), "every cell of the cycle is in the segment");
    let l = &s.lists[0];
    assert_eq!((l.start.clone(), l.end().cloned()), (v("c1"), Some(v("c1"))), "a segment from the cursor back to it");
    assert_eq!(l.fields[0].step, Some(Step::By(1)));
    assert!(cx.entails(&s, &[Atom::var_const(&l.len, Rel::Eq, 3), Atom::var_const(&l.fields[0].first, Rel::Eq, 0)]));
    let last = l.fields[0].last.clone().expect("last value");
    assert!(cx.entails(&s, &[Atom::var_const(&last, Rel::Eq, 2)]), "the last value is the cell before the wrap-around");
}

#[test]
fn a_cycle_that_wraps_between_cursor_and_end_keeps_the_cursor_cell_and_a_segment_of_the_rest() {
    let m = module();
    let mut cx = ctx(&m);
    // values 1, 2, 0 from the cursor: the step is broken inside the chain (2 → 0), so no
    // relation holds of the whole cycle and the old shape stays: c1 concrete, seg(c2, 2, c1)
    let mut s = cycle(&[("c1", "c2", 1), ("c2", "c3", 2), ("c3", "c1", 0)], "c1");
    assert!(lists::fold(&mut cx, &mut s));
    assert_eq!(s.lists.len(), 1);
    let l = &s.lists[0];
    assert_eq!((l.start.clone(), l.end().cloned()), (v("c2"), Some(v("c1"))));
    assert_eq!(s.allocs.len(), 1, "the cursor's cell stays concrete");
}

#[test]
fn materializing_the_whole_cycle_leaves_the_rest_as_a_segment_back_to_the_taken_cell() {
    let m = module();
    let mut cx = ctx(&m);
    let mut s = cycle(&[("c1", "c2", 0), ("c2", "c3", 1), ("c3", "c1", 2)], "c1");
    assert!(lists::fold(&mut cx, &mut s));
    let states = lists::materialize(&mut cx, &s, &v("c1"), 4).expect("first cell");
    assert_eq!(states.len(), 1, "three cells: no emptiness split");
    let t = &states[0];
    assert_eq!(t.allocs.len(), 1);
    assert_eq!(t.allocs[0].start, v("c1"), "the cursor's cell is concrete again");
    let rest = &t.lists[0];
    assert_eq!(rest.end(), Some(&v("c1")), "the rest still ends at the taken cell: the cycle is kept");
    assert!(cx.entails(t, &[Atom::var_const(&rest.len, Rel::Eq, 2), Atom::var_const(&rest.fields[0].first, Rel::Eq, 1)]));
}

#[test]
fn separating_positions_gives_a_one_cell_lists_first_and_last_values_their_own_equal_variables() {
    let m = module();
    let mut cx = ctx(&m);
    let mut s = cycle(&[("c1", "null", 7)], "c1");
    assert!(lists::fold(&mut cx, &mut s));
    let f = s.lists[0].fields[0].clone();
    assert_eq!(f.last.as_ref(), Some(&f.first), "fold names a single cell's value once");
    assert!(super::lists_positions::separate(&mut cx, &mut s));
    let g = s.lists[0].fields[0].clone();
    let last = g.last.clone().expect("last value");
    assert_ne!(last, g.first);
    assert!(cx.entails(&s, &[Atom::var_const(&last, Rel::Eq, 7), Atom::var_const(&g.first, Rel::Eq, 7)]), "an equivalence");
    assert!(!super::lists_positions::separate(&mut cx, &mut s), "nothing left to separate");
}

#[test]
fn separating_positions_renames_a_whole_cycles_target_apart_from_its_start() {
    let m = module();
    let mut cx = ctx(&m);
    let mut s = cycle(&[("c1", "c2", 0), ("c2", "c1", 1)], "c1");
    assert!(lists::fold(&mut cx, &mut s));
    assert_eq!(s.lists[0].end(), Some(&v("c1")));
    assert!(super::lists_positions::separate(&mut cx, &mut s));
    let t = s.lists[0].end().cloned().expect("target");
    assert_ne!(t, v("c1"));
    assert!(cx.entails(&s, &[Atom::cmp(&LinExpr::var(&t), Rel::Eq, &LinExpr::var(&v("c1"))).expect("atom")]));
}

#[test]
fn value_candidates_include_the_last_cells_value() {
    let m = module();
    let mut cx = ctx(&m);
    let mut s = cycle(&[("c1", "c2", 0), ("c2", "c3", 1), ("c3", "c1", 2)], "c1");
    assert!(lists::fold(&mut cx, &mut s));
    let key = v("key");
    s.add_atom(Atom::var_const(&key, Rel::Eq, 2));
    let cands = super::lists_values::candidates(&mut cx, &s, std::slice::from_ref(&key));
    let l = &s.lists[0];
    // key ≤ first + (len − 1): the searched value is at most the last cell's
    let last_pos = LinExpr::var(&l.fields[0].first).add_scaled(1, &LinExpr::var(&l.len)).and_then(|e| e.add_scaled(-1, &LinExpr::constant(1))).expect("expr");
    let want = Atom::cmp(&LinExpr::var(&key), Rel::Le, &last_pos).expect("atom");
    assert!(cands.contains(&want), "{cands:?}");
    assert!(cx.entails(&s, &[want]));
}

#[test]
fn an_empty_segment_padded_before_a_list_takes_that_lists_first_value() {
    let m = module();
    let mut cx = ctx(&m);
    // after two conses in front of `last`: seg(h, n, end = t) + list(t, 1), locals h and t;
    // before the first: h = t = x, the one-cell list at x holding g (= 0)
    let mut other = with_locals(State { inputs_exact: true, ..State::default() }, &["h", "t"]);
    other.lists.push(inv("h", "n", ("f0", "f0_last"), "q", Some("t")));
    other.lists.push(inv("t", "one", ("g0", "g0"), "r", None));
    let mut s = with_locals(State { inputs_exact: true, ..State::default() }, &["x", "x"]);
    s.lists.push(inv("x", "len_x", ("g", "g"), "nx", None));
    s.add_atom(Atom::var_const(&v("len_x"), Rel::Eq, 1));
    s.add_atom(Atom::var_const(&v("g"), Rel::Eq, 0));
    assert!(lists::pad(&mut cx, &mut s, &other));
    let seg = s.lists.iter().find(|l| l.end().is_some()).expect("an empty segment x .. x");
    assert!(cx.entails(&s, &[Atom::var_const(&seg.len, Rel::Eq, 0)]));
    assert!(cx.entails(&s, &[Atom::var_const(&seg.fields[0].first, Rel::Eq, 0)]), "its first value is the target list's: `g = first + c·len` holds");
}

#[test]
fn value_candidates_include_the_value_before_the_first_cell() {
    let m = module();
    let mut cx = ctx(&m);
    // a list consed with a rising counter: values 2, 1, 0 from the first cell, counter k = 3
    let mut s = with_head(valued(&[("c1", "c2", 2), ("c2", "c3", 1), ("c3", "null", 0)]), "c1");
    assert!(lists::fold(&mut cx, &mut s));
    assert_eq!(s.lists[0].fields[0].step, Some(Step::By(-1)));
    let k = v("k");
    s.add_atom(Atom::var_const(&k, Rel::Eq, 3));
    let cands = super::lists_values::candidates(&mut cx, &s, std::slice::from_ref(&k));
    // k = first + 1: the value the next cell consed in front will hold
    let before = LinExpr::var(&s.lists[0].fields[0].first).add_scaled(1, &LinExpr::constant(1)).expect("expr");
    let want = Atom::cmp(&LinExpr::var(&k), Rel::Eq, &before).expect("atom");
    assert!(cands.contains(&want), "{cands:?}");
    assert!(cx.entails(&s, &[want]));
}
