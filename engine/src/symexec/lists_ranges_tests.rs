//! Unit tests of per-cell value ranges of list invariants (`symexec::lists_ranges`): what fold
//! proves, what ⟨s⟩ says for empty and non-empty lists, materialization, the instance check,
//! merging, and the accumulator candidates.

use super::facts::Atom;
use super::generalize::Mu;
use super::lists::{self, ListInv};
use super::lists_ranges::{self, Range};
use super::ctx::Ctx;
use super::lists_tests::{inv, module, with_cells, with_head};
use crate::ir::Module;
use super::state::State;
use crate::logic::{LinExpr, Rel, Var};

fn v(n: &str) -> Var {
    Var::new(n)
}

/// A context whose folds give list invariants value ranges (`ListValueRanges::On`).
fn ctx(m: &Module) -> Ctx<'_> {
    let mut cx = super::lists_tests::ctx(m);
    cx.list_value_ranges = true;
    cx
}

fn ranged(start: &str, len: &str, r: Option<Range>) -> ListInv {
    let mut l = inv(start, len, ("f0", "l0"), "q", None);
    l.fields[0].range = r;
    l
}

#[test]
fn fold_proves_the_tightest_range_of_the_cells_among_the_kb_constants() {
    let m = module();
    let mut cx = ctx(&m);
    let mut s = with_head(with_cells(&[("c1", "c2"), ("c2", "null")]), "c1");
    for c in ["c1_val", "c2_val"] {
        s.add_atom(Atom::var_const(&v(c), Rel::Ge, 0));
        s.add_atom(Atom::var_const(&v(c), Rel::Le, 99));
    }
    assert!(lists::fold(&mut cx, &mut s));
    assert_eq!(s.lists[0].fields[0].range, Some(Range { lo: 0, hi: 99 }));
    assert_eq!(s.lists[0].fields[1].range, None, "pointers carry no range");
}

#[test]
fn without_ranges_fold_gives_none_but_counts_the_integer_field() {
    let m = module();
    let mut cx = super::lists_tests::ctx(&m);
    let mut s = with_head(with_cells(&[("c1", "c2"), ("c2", "null")]), "c1");
    for c in ["c1_val", "c2_val"] {
        s.add_atom(Atom::var_const(&v(c), Rel::Ge, 0));
        s.add_atom(Atom::var_const(&v(c), Rel::Le, 99));
    }
    assert!(lists::fold(&mut cx, &mut s));
    assert_eq!(s.lists[0].fields[0].range, None, "the first attempt folds as before ranges");
    assert_eq!(cx.list_int_fields, 1, "the integer field makes a second attempt worth trying");
}

#[test]
fn a_cell_with_an_unbounded_value_gives_no_range() {
    let m = module();
    let mut cx = ctx(&m);
    let mut s = with_head(with_cells(&[("c1", "c2"), ("c2", "null")]), "c1");
    s.add_atom(Atom::var_const(&v("c1_val"), Rel::Le, 99));
    assert!(lists::fold(&mut cx, &mut s));
    // c2's value is any i32, c1's at most 99: only the type's lower end holds of both
    assert_eq!(s.lists[0].fields[0].range, None);
}

#[test]
fn a_range_constrains_the_first_and_last_values_of_a_non_empty_list_only() {
    let m = module();
    let mut cx = ctx(&m);
    let mut s = with_head(State { inputs_exact: true, ..State::default() }, "p");
    s.lists.push(ranged("p", "n", Some(Range { lo: 0, hi: 99 })));
    let bounded = [Atom::var_const(&v("f0"), Rel::Le, 99), Atom::var_const(&v("l0"), Rel::Ge, 0)];
    let mut empty = s.clone();
    empty.add_atom(Atom::var_const(&v("n"), Rel::Eq, 0));
    assert!(!cx.entails(&empty, &bounded[..1]), "the empty list's values describe no cell");
    s.add_atom(Atom::var_const(&v("n"), Rel::Ge, 1));
    assert!(cx.entails(&s, &bounded));
}

#[test]
fn materialization_states_the_range_of_the_taken_cell_and_keeps_it_for_the_rest() {
    let m = module();
    let mut cx = ctx(&m);
    let mut s = with_head(State { inputs_exact: true, ..State::default() }, "p");
    s.lists.push(ranged("p", "n", Some(Range { lo: -10, hi: 10 })));
    s.add_atom(Atom::var_const(&v("p"), Rel::Ne, 0));
    let t = lists::materialize(&mut cx, &s, &v("p"), 4).expect("non-empty").remove(0);
    let cell = t.pt.iter().find(|e| !e.is_ptr).expect("value cell").value.clone();
    assert!(t.kb.iter().any(|f| f.vars().contains(&cell)), "the taken cell's range is in the KB");
    assert!(cx.entails(&t, &[Atom::var_const(&cell, Rel::Ge, -10), Atom::var_const(&cell, Rel::Le, 10)]));
    assert_eq!(t.lists[0].fields[0].range, Some(Range { lo: -10, hi: 10 }), "the rest is a suffix");
}

#[test]
fn the_instance_check_needs_the_general_range_to_cover_the_instances() {
    let m = module();
    let mut cx = ctx(&m);
    let mut general = with_head(State { inputs_exact: true, ..State::default() }, "p");
    general.lists.push(ranged("p", "n", Some(Range { lo: 0, hi: 9 })));
    let mut wide = with_head(State { inputs_exact: true, ..State::default() }, "p");
    wide.lists.push(ranged("p", "n", Some(Range { lo: 0, hi: 99 })));
    wide.add_atom(Atom::var_const(&v("n"), Rel::Ge, 1));
    assert!(!lists::instance(&mut cx, &general, &wide, &mut Mu::new()));
    let mut narrow = wide.clone();
    narrow.lists[0].fields[0].range = Some(Range { lo: 2, hi: 5 });
    assert!(lists::instance(&mut cx, &general, &narrow, &mut Mu::new()));
    // an empty instance list has every range
    let mut empty = wide;
    empty.kb.clear();
    empty.add_atom(Atom::var_const(&v("n"), Rel::Eq, 0));
    assert!(lists::instance(&mut cx, &general, &empty, &mut Mu::new()));
}

#[test]
fn merging_keeps_the_hull_or_the_range_against_an_empty_list() {
    let a = ranged("p", "n", Some(Range { lo: 0, hi: 0 })).fields[0].clone();
    let b = ranged("p", "n", Some(Range { lo: 1, hi: 99 })).fields[0].clone();
    let none = ranged("p", "n", None).fields[0].clone();
    assert_eq!(lists_ranges::merge_range(&a, false, &b, false, false), Some(Range { lo: 0, hi: 99 }));
    assert_eq!(lists_ranges::merge_range(&none, true, &b, false, false), Some(Range { lo: 1, hi: 99 }));
    assert_eq!(lists_ranges::merge_range(&none, false, &b, false, false), None, "a side with cells but no range");
    // widening: the end b moves beyond a's goes to the type's end
    assert_eq!(lists_ranges::merge_range(&a, false, &b, false, true), Some(Range { lo: 0, hi: i32::MAX as i128 }));
    assert_eq!(lists_ranges::merge_range(&b, false, &a, false, true), Some(Range { lo: i32::MIN as i128, hi: 99 }));
    assert!(lists_ranges::range_covers(Some(Range { lo: 0, hi: 99 }), Some(Range { lo: 0, hi: 0 })));
    assert!(!lists_ranges::range_covers(Some(Range { lo: 0, hi: 9 }), None));
}

#[test]
fn an_accumulator_beside_a_ranged_list_is_bounded_by_the_cells_to_come() {
    let m = module();
    let mut cx = ctx(&m);
    let mut s = super::lists_tests::with_head(State { inputs_exact: true, ..State::default() }, "p");
    s.frames[0].lv.insert(crate::ir::ValueId(1), v("sum"));
    s.lists.push(ranged("p", "n", Some(Range { lo: -10, hi: 99 })));
    s.add_atom(Atom::var_const(&v("n"), Rel::Le, 1000));
    s.add_atom(Atom::var_const(&v("sum"), Rel::Eq, 0));
    let cands = lists_ranges::candidates(&mut cx, &s, &[v("sum")]);
    let sum = LinExpr::var(&v("sum"));
    let up = Atom::cmp(&sum.add_scaled(99, &LinExpr::var(&v("n"))).expect("e"), Rel::Le, &LinExpr::constant(99_000)).expect("a");
    let down = Atom::cmp(&LinExpr::constant(-10_000), Rel::Le, &sum.add_scaled(-10, &LinExpr::var(&v("n"))).expect("e")).expect("a");
    assert!(cands.contains(&up), "{cands:?}");
    assert!(cands.contains(&down), "{cands:?}");
    assert!(cx.entails(&s, &cands), "every candidate holds in the state it comes from");
}
