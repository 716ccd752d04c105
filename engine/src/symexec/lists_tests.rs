//! Unit tests of the list-invariant rules (`symexec::lists`): folding chains of heap cells,
//! the no-cycle and no-sharing conditions, materializing the first cell, and the conjuncts
//! the invariants add to ⟨s⟩.

use super::ctx::Ctx;
use super::facts::Atom;
use super::lists::{self, ListField, ListInv};
use super::lists_values::Step;
use super::state::{Alloc, AllocKind, Frame, PtEntry, State};
use crate::facts::ModuleFacts;
use crate::ir::*;
use crate::logic::{LinExpr, Rel, Var};
use crate::smt::Budget;
use crate::verdict::IntSemantics;
use std::time::{Duration, Instant};

pub(super) fn module() -> Module {
    let main = Function {
        name: "main".into(),
        params: vec![],
        ret: Type::Int(32),
        blocks: vec![Block { name: "entry".into(), instrs: vec![], terminator: Terminator::Ret(None), term_loc: None, loop_loc: None }],
        num_values: 4,
        value_names: vec![None; 4],
        is_vararg: false,
        param_attrs: vec![],
        linkage: Linkage::External,
        address_taken: false,
        loc: None,
    };
    Module { source_name: "t.c".into(), pointer_bits: 64, functions: vec![main], globals: vec![], annotations: Default::default(), malformed_annotations: vec![] }
}

pub(super) fn ctx(m: &Module) -> Ctx<'_> {
    Ctx::new(m, Box::leak(Box::new(ModuleFacts::new(m))), IntSemantics::C, Budget::until(Instant::now() + Duration::from_secs(30), Duration::from_secs(10)))
}

fn v(n: &str) -> Var {
    Var::new(n)
}

fn eq(a: &Var, b: &Var, k: i128) -> Atom {
    Atom::cmp(&LinExpr::var(a), Rel::Eq, &LinExpr::var(b).add_scaled(1, &LinExpr::constant(k)).expect("no overflow")).expect("atom")
}

/// A state whose local 0 is `head`, with a 16-byte heap cell per name in `cells`: value at
/// offset 0 (i32), next pointer at offset 8 holding `next[i]`.
pub(super) fn with_cells(cells: &[(&str, &str)]) -> State {
    let mut s = State { inputs_exact: true, ..State::default() };
    for (i, (start, next)) in cells.iter().enumerate() {
        let (start, end, naddr, val) = (v(start), v(&format!("{start}_end")), v(&format!("{start}_na")), v(&format!("{start}_val")));
        s.add_atom(eq(&end, &start, 15));
        s.add_atom(eq(&naddr, &start, 8));
        s.add_atom(Atom::var_const(&end, Rel::Le, super::exec::ADDR_MAX));
        let id = i as u32 + 1;
        s.allocs.push(Alloc { id, start: start.clone(), end, kind: AllocKind::Heap, pristine: None });
        s.pt.push(PtEntry { addr: start.clone(), size: 4, is_ptr: false, unsigned: false, value: val, alloc: id });
        s.pt.push(PtEntry { addr: naddr, size: 8, is_ptr: true, unsigned: false, value: v(next), alloc: id });
    }
    s.add_atom(Atom::var_const(&v("null"), Rel::Eq, 0));
    s
}

pub(super) fn with_head(mut s: State, head: &str) -> State {
    let mut lv = std::collections::BTreeMap::new();
    lv.insert(ValueId(0), v(head));
    s.frames.push(Frame { func: FuncId(0), block: BlockId(0), prev: None, idx: 0, lv });
    s
}

#[test]
fn a_null_terminated_chain_folds_into_one_invariant_of_its_length() {
    let m = module();
    let mut cx = ctx(&m);
    let mut s = with_head(with_cells(&[("c1", "c2"), ("c2", "null")]), "c1");
    assert!(lists::fold(&mut cx, &mut s));
    assert_eq!(s.lists.len(), 1);
    assert!(s.allocs.is_empty() && s.pt.is_empty(), "folded cells leave AL and PT");
    let l = &s.lists[0];
    assert_eq!((l.start.clone(), l.size, l.fields[l.rec].off), (v("c1"), 16, 8));
    assert!(cx.entails(&s, &[Atom::var_const(&l.len, Rel::Eq, 2)]));
    // first = value of c1, last = value of c2
    assert_eq!(l.fields[0].first, v("c1_val"));
    assert_eq!(l.fields[0].last, Some(v("c2_val")));
}

#[test]
fn a_cycle_no_local_points_into_is_never_folded() {
    let m = module();
    let mut cx = ctx(&m);
    let mut s = with_cells(&[("c1", "c2"), ("c2", "c1")]);
    assert!(!lists::fold(&mut cx, &mut s));
    assert!(s.lists.is_empty());
    assert_eq!(s.allocs.len(), 2);
}

#[test]
fn a_cycle_through_the_cell_a_local_points_to_becomes_a_segment_back_to_that_cell() {
    let m = module();
    let mut cx = ctx(&m);
    // c1 → c2 → c3 → c1, the local at c1: c2 → c3 folds into seg(c2, 2, end = c1), c1 stays
    let mut s = with_head(with_cells(&[("c1", "c2"), ("c2", "c3"), ("c3", "c1")]), "c1");
    assert!(lists::fold(&mut cx, &mut s));
    assert_eq!(s.lists.len(), 1);
    let l = &s.lists[0];
    assert_eq!((l.start.clone(), l.end().cloned()), (v("c2"), Some(v("c1"))));
    assert!(cx.entails(&s, &[Atom::var_const(&l.len, Rel::Eq, 2)]));
    assert_eq!(s.allocs.len(), 1, "the cell the local points to stays concrete");
}

#[test]
fn a_chain_with_a_live_reference_to_a_later_cell_splits_there() {
    let m = module();
    let mut cx = ctx(&m);
    // the local points to c2, the second cell of c1 → c2 → NULL: c1 → c2 never becomes one
    // list (the local would point into it); c2 starts a list of its own and c1 (unreferenced)
    // is at most a segment ending at c2
    let mut s = with_head(with_cells(&[("c1", "c2"), ("c2", "null")]), "c2");
    lists::fold(&mut cx, &mut s);
    assert!(s.lists.iter().any(|l| l.start == v("c2") && l.end().is_none()), "c2 starts a NULL-terminated list");
    for l in s.lists.iter().filter(|l| l.start == v("c1")) {
        assert_eq!(l.end(), Some(&v("c2")), "c1 can only be a segment ending at c2");
    }
}

/// An invariant of 16-byte cells (i32 value `first .. last` at 0, next pointer at 8 whose
/// first value is `next`), NULL-terminated or a segment ending at `end`.
pub(super) fn inv(start: &str, len: &str, (first, last): (&str, &str), next: &str, end: Option<&str>) -> ListInv {
    ListInv {
        start: v(start),
        len: v(len),
        size: 16,
        rec: 1,
        fields: vec![
            ListField { off: 0, size: 4, is_ptr: false, unsigned: false, first: v(first), last: Some(v(last)), step: None, range: None, owns: None },
            ListField { off: 8, size: 8, is_ptr: true, unsigned: false, first: v(next), last: end.map(v), step: None, range: None, owns: None },
        ],
        back: None,
        tail: None,
    }
}

fn one_list(start: &str, len: &str, next: &str) -> State {
    let mut s = with_head(State { inputs_exact: true, ..State::default() }, start);
    s.lists.push(inv(start, len, ("f0", "l0"), next, None));
    s
}

#[test]
fn the_first_cell_materializes_only_when_the_list_is_provably_non_empty() {
    let m = module();
    let mut cx = ctx(&m);
    let mut s = one_list("p", "n", "q");
    s.add_atom(eq(&v("a"), &v("p"), 8));
    // p may be NULL (the empty list): the state splits into the empty list (p = 0, where the
    // access is the caller's error) and a non-empty one with its first cell materialized
    let split = lists::materialize(&mut cx, &s, &v("a"), 8).expect("split on emptiness");
    assert_eq!(split.len(), 2);
    assert!(split[0].lists.is_empty() && cx.entails(&split[0], &[Atom::var_const(&v("p"), Rel::Eq, 0)]));
    assert!(cx.entails(&split[1], &[Atom::var_const(&v("n"), Rel::Ge, 1)]) && split[1].allocs.len() == 1);
    s.add_atom(Atom::var_const(&v("p"), Rel::Ne, 0));
    let mut t = lists::materialize(&mut cx, &s, &v("a"), 8).expect("p ≠ 0 ⇒ n ≥ 1");
    assert_eq!(t.len(), 1, "no split when the list is provably non-empty");
    let t = t.remove(0);
    assert_eq!(t.allocs.len(), 1);
    assert!(t.pt.iter().any(|e| e.value == v("q") && e.is_ptr), "the next field holds the first next value");
    let rest = &t.lists[0];
    assert_eq!(rest.start, v("q"));
    assert!(cx.entails(&t, &[Atom::cmp(&LinExpr::var(&rest.len), Rel::Eq, &LinExpr::var(&v("n")).add_scaled(1, &LinExpr::constant(-1)).expect("e")).expect("a")]));
    // an access beyond the first cell is not materialized
    let mut far = s.clone();
    far.add_atom(eq(&v("b"), &v("p"), 16));
    assert!(lists::materialize(&mut cx, &far, &v("b"), 8).is_none());
}

#[test]
fn the_invariant_relates_start_length_and_the_first_next_pointer() {
    let m = module();
    let mut cx = ctx(&m);
    let s = one_list("p", "n", "q");
    // len = 0 ⇔ start = 0
    let mut t = s.clone();
    t.add_atom(Atom::var_const(&v("p"), Rel::Eq, 0));
    assert!(cx.entails(&t, &[Atom::var_const(&v("n"), Rel::Eq, 0)]));
    // a non-NULL first next pointer means at least two cells (seed 001's rule 4)
    let mut t = s.clone();
    t.add_atom(Atom::var_const(&v("p"), Rel::Ne, 0));
    t.add_atom(Atom::var_const(&v("q"), Rel::Ne, 0));
    assert!(cx.entails(&t, &[Atom::var_const(&v("n"), Rel::Ge, 2)]));
    // one cell: first and last values agree, and its next pointer is NULL
    let mut t = s.clone();
    t.add_atom(Atom::var_const(&v("n"), Rel::Eq, 1));
    assert!(cx.entails(&t, &[eq(&v("f0"), &v("l0"), 0), Atom::var_const(&v("q"), Rel::Eq, 0)]));
    // and nothing more: a long list's first and last values are unrelated
    let mut t = s;
    t.add_atom(Atom::var_const(&v("n"), Rel::Ge, 2));
    assert!(!cx.entails(&t, &[eq(&v("f0"), &v("l0"), 0)]));
}

pub(super) fn with_locals(mut s: State, names: &[&str]) -> State {
    let lv = names.iter().enumerate().map(|(i, n)| (ValueId(i as u32), v(n))).collect();
    s.frames.push(Frame { func: FuncId(0), block: BlockId(0), prev: None, idx: 0, lv });
    s
}

#[test]
fn a_chain_up_to_a_cell_a_local_points_to_folds_into_a_segment_ending_there() {
    let m = module();
    let mut cx = ctx(&m);
    // head → c2 → tail, the local `tail` points to the last cell (append at the end)
    let mut s = with_locals(with_cells(&[("h", "c2"), ("c2", "t"), ("t", "null")]), &["h", "t"]);
    assert!(lists::fold(&mut cx, &mut s));
    let seg = s.lists.iter().find(|l| l.start == v("h")).expect("a segment from h");
    assert_eq!(seg.end(), Some(&v("t")), "the segment ends at the cell the local holds");
    assert!(cx.entails(&s, &[Atom::var_const(&seg.len, Rel::Eq, 2)]));
    assert!(s.allocs.iter().any(|a| a.start == v("t")) || s.lists.iter().any(|l| l.start == v("t")), "the pinned cell stays outside the segment");
}

#[test]
fn a_segment_and_the_cell_behind_it_join_into_a_longer_segment() {
    let m = module();
    let mut cx = ctx(&m);
    // seg(h, n, end = c) and c → t with t pinned: one segment h .. t of length n + 1
    let mut s = with_locals(with_cells(&[("c", "t"), ("t", "null")]), &["h", "t"]);
    s.lists.push(ListInv {
        start: v("h"),
        len: v("n"),
        size: 16,
        rec: 1,
        fields: vec![
            ListField { off: 0, size: 4, is_ptr: false, unsigned: false, first: v("f0"), last: Some(v("l0")), step: None, range: None, owns: None },
            ListField { off: 8, size: 8, is_ptr: true, unsigned: false, first: v("q"), last: Some(v("c")), step: None, range: None, owns: None },
        ],
        back: None,
        tail: None,
    });
    assert!(lists::fold(&mut cx, &mut s));
    let seg = s.lists.iter().find(|l| l.start == v("h")).expect("one segment from h");
    assert_eq!(seg.end(), Some(&v("t")));
    let n1 = LinExpr::var(&v("n")).add_scaled(1, &LinExpr::constant(1)).expect("e");
    assert!(cx.entails(&s, &[Atom::cmp(&LinExpr::var(&seg.len), Rel::Eq, &n1).expect("a")]));
    assert!(s.allocs.iter().all(|a| a.start != v("c")), "the cell in between is folded");
}

#[test]
fn a_segment_relates_its_start_length_and_end() {
    let m = module();
    let mut cx = ctx(&m);
    let mut s = one_list("p", "n", "q");
    s.lists[0].fields[1].last = Some(v("t"));
    // length 0: the start is the end
    let mut t = s.clone();
    t.add_atom(Atom::var_const(&v("n"), Rel::Eq, 0));
    assert!(cx.entails(&t, &[eq(&v("p"), &v("t"), 0)]));
    // length 1: the first cell's next pointer is the end, not NULL
    let mut t = s.clone();
    t.add_atom(Atom::var_const(&v("n"), Rel::Eq, 1));
    assert!(cx.entails(&t, &[eq(&v("q"), &v("t"), 0)]));
    assert!(!cx.entails(&t, &[Atom::var_const(&v("q"), Rel::Eq, 0)]));
    // a segment is no NULL-terminated list: a non-NULL next pointer says nothing more
    let mut t = s;
    t.add_atom(Atom::var_const(&v("p"), Rel::Ne, 0));
    t.add_atom(Atom::var_const(&v("q"), Rel::Ne, 0));
    assert!(!cx.entails(&t, &[Atom::var_const(&v("n"), Rel::Ge, 2)]));
}

#[test]
fn padding_adds_an_empty_list_only_where_the_local_holds_the_empty_list() {
    let m = module();
    let mut cx = ctx(&m);
    let other = one_list("p", "n", "q");
    // the same local is NULL here: an empty invariant of the same shape is added
    let mut s = with_head(State { inputs_exact: true, ..State::default() }, "z");
    s.add_atom(Atom::var_const(&v("z"), Rel::Eq, 0));
    assert!(lists::pad(&mut cx, &mut s, &other));
    assert_eq!(s.lists.len(), 1);
    assert_eq!(s.lists[0].start, v("z"));
    assert!(cx.entails(&s, &[Atom::var_const(&s.lists[0].len, Rel::Eq, 0)]));
    // the local may be non-NULL: nothing is added (that would claim cells that may not exist)
    let mut s = with_head(State { inputs_exact: true, ..State::default() }, "z");
    assert!(!lists::pad(&mut cx, &mut s, &other));
    assert!(s.lists.is_empty());
}

/// `with_cells` with the cells' values fixed: `c_val = k`.
pub(super) fn valued(cells: &[(&str, &str, i128)]) -> State {
    let pairs: Vec<(&str, &str)> = cells.iter().map(|(a, b, _)| (*a, *b)).collect();
    let mut s = with_cells(&pairs);
    for (c, _, k) in cells {
        s.add_atom(Atom::var_const(&v(&format!("{c}_val")), Rel::Eq, *k));
    }
    s
}

#[test]
fn a_chain_of_values_growing_by_one_folds_with_that_step() {
    let m = module();
    let mut cx = ctx(&m);
    let mut s = with_head(valued(&[("c1", "c2", 0), ("c2", "c3", 1), ("c3", "null", 2)]), "c1");
    assert!(lists::fold(&mut cx, &mut s));
    let l = s.lists[0].clone();
    assert_eq!(l.fields[0].step, Some(Step::By(1)));
    assert_eq!(l.fields[1].step, None, "pointers get no relation");
    // last = first + (len − 1)
    let last = l.fields[0].last.clone().expect("last value");
    assert!(cx.entails(&s, &[Atom::cmp(&LinExpr::var(&last), Rel::Eq, &LinExpr::var(&l.fields[0].first).add_scaled(1, &LinExpr::var(&l.len)).and_then(|e| e.add_scaled(-1, &LinExpr::constant(1))).expect("expr")).expect("atom")]));
}

#[test]
fn sorted_values_fold_as_ascending_and_unrelated_values_get_no_relation() {
    let m = module();
    let mut cx = ctx(&m);
    let mut up = with_head(valued(&[("c1", "c2", 3), ("c2", "c3", 3), ("c3", "null", 9)]), "c1");
    assert!(lists::fold(&mut cx, &mut up));
    assert_eq!(up.lists[0].fields[0].step, Some(Step::Up));
    let mut none = with_head(valued(&[("c1", "c2", 5), ("c2", "c3", 1), ("c3", "null", 9)]), "c1");
    assert!(lists::fold(&mut cx, &mut none));
    assert_eq!(none.lists[0].fields[0].step, None);
}

#[test]
fn a_materialized_first_cell_relates_its_value_to_the_rest() {
    let m = module();
    let mut cx = ctx(&m);
    let mut s = with_head(valued(&[("c1", "c2", 0), ("c2", "c3", 1), ("c3", "null", 2)]), "c1");
    assert!(lists::fold(&mut cx, &mut s));
    let states = lists::materialize(&mut cx, &s, &v("c1"), 4).expect("first cell");
    assert_eq!(states.len(), 1, "the list has 3 cells: no emptiness split");
    let t = &states[0];
    let rest = &t.lists[0];
    assert_eq!(rest.fields[0].step, Some(Step::By(1)));
    // the rest starts with the value 1 and has 2 cells
    assert!(cx.entails(t, &[Atom::var_const(&rest.fields[0].first, Rel::Eq, 1), Atom::var_const(&rest.len, Rel::Eq, 2)]));
}

#[test]
fn a_relation_holds_in_the_state_facts_only_for_non_empty_lists() {
    let m = module();
    let mut cx = ctx(&m);
    let mut s = one_list("h", "n", "nx");
    s.lists[0].fields[0].step = Some(Step::By(1));
    let (first, last) = (v("f0"), v("l0"));
    // n ≥ 1: l0 = f0 + n − 1 follows; with n = 0 nothing does
    let mut some = s.clone();
    some.add_atom(Atom::var_const(&v("n"), Rel::Eq, 3));
    some.add_atom(Atom::var_const(&first, Rel::Eq, 4));
    assert!(cx.entails(&some, &[Atom::var_const(&last, Rel::Eq, 6)]));
    let mut none = s.clone();
    none.add_atom(Atom::var_const(&v("n"), Rel::Eq, 0));
    none.add_atom(Atom::var_const(&first, Rel::Eq, 4));
    assert!(!cx.entails(&none, &[Atom::var_const(&last, Rel::Eq, 3)]));
}

/// A segment `h .. t` of length `n` and the NULL-terminated list at `t` of length `m`
/// (a walked prefix and the rest, or a list built by appending and its last cell).
fn segment_then_list(locals: &[&str]) -> State {
    let mut s = with_locals(State { inputs_exact: true, ..State::default() }, locals);
    s.lists.push(inv("h", "n", ("f0", "f0_last"), "q", Some("t")));
    s.lists.push(inv("t", "m", ("g0", "g0_last"), "r", None));
    s
}

#[test]
fn a_segment_and_the_list_it_leads_to_join_once_no_local_holds_the_join() {
    let m = module();
    let mut cx = ctx(&m);
    // no concrete cell at all: seg(h, n, end = t) + list(t, m) is list(h, n + m)
    let mut s = segment_then_list(&["h"]);
    assert!(lists::fold(&mut cx, &mut s));
    assert_eq!(s.lists.len(), 1, "{:?}", s.lists);
    let l = &s.lists[0];
    assert_eq!((l.start.clone(), l.end()), (v("h"), None), "one NULL-terminated list from h");
    let sum = LinExpr::var(&v("n")).add_scaled(1, &LinExpr::var(&v("m"))).expect("e");
    assert!(cx.entails(&s, &[Atom::cmp(&LinExpr::var(&l.len), Rel::Eq, &sum).expect("a")]));
}

#[test]
fn a_segment_stays_apart_from_the_list_a_local_still_points_into() {
    let m = module();
    let mut cx = ctx(&m);
    // the cursor `t` of a walk pins the rest: the walked prefix stays a segment
    let mut s = segment_then_list(&["h", "t"]);
    lists::fold(&mut cx, &mut s);
    assert_eq!(s.lists.len(), 2, "{:?}", s.lists);
    assert!(s.lists.iter().any(|l| l.start == v("h") && l.end() == Some(&v("t"))));
}

#[test]
fn a_provably_empty_list_materializes_no_phantom_cell() {
    let m = module();
    let mut cx = ctx(&m);
    // with `len = 0`, assuming `len ≥ 1` is unsatisfiable and would "prove" that any address
    // lies in the first cell: the access must stay an error of the caller instead
    let mut s = one_list("p", "n", "q");
    s.add_atom(Atom::var_const(&v("n"), Rel::Eq, 0));
    s.add_atom(eq(&v("a"), &v("x"), 8));
    assert!(lists::materialize(&mut cx, &s, &v("a"), 8).is_none());
}

#[test]
fn an_integer_local_never_names_a_list_start() {
    // main(i32 %0, ptr %1): a counter that is 0 where the list is empty must not name the
    // start (merges would tie the start to the counter and lose the pointer to the list)
    let mut m = module();
    m.functions[0].params = vec![(ValueId(0), Type::Int(32)), (ValueId(1), Type::Ptr)];
    let mut cx = ctx(&m);
    let mut s = State { inputs_exact: true, ..State::default() };
    let mut lv = std::collections::BTreeMap::new();
    lv.insert(ValueId(0), v("count"));
    lv.insert(ValueId(1), v("h"));
    s.frames.push(Frame { func: FuncId(0), block: BlockId(0), prev: None, idx: 0, lv });
    s.lists.push(inv("s0", "n", ("f0", "l0"), "q", None));
    // (a non-empty list: a provably empty one is dropped by fold, session 12)
    for x in ["count", "h"] {
        s.add_atoms([Atom::cmp(&LinExpr::var(&v(x)), Rel::Eq, &LinExpr::var(&v("s0")))]);
    }
    s.add_atom(Atom::var_const(&v("s0"), Rel::Ge, 1));
    lists::fold(&mut cx, &mut s);
    assert_eq!(s.lists[0].start, v("h"), "{:?}", s.lists);
}
