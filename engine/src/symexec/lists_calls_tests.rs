//! Unit tests of list invariants across calls (`symexec::lists_calls`): handing invariants
//! to a recursive callee's entry, folding a return state's own cells, and pairing two return
//! states' invariants in a widening.

use super::facts::{Atom, Fact};
use super::generalize::Mu;
use super::lists::{ListField, ListInv};
use super::lists_calls::{self, Side};
use super::state::{Alloc, AllocKind, Frame, PtEntry, State};
use crate::ir::*;
use crate::logic::{LinExpr, Rel, Var};
use std::collections::{BTreeMap, BTreeSet};
use super::lists_tests::{ctx, module};

fn v(n: &str) -> Var {
    Var::new(n)
}

fn list(start: &str, len: &str) -> ListInv {
    ListInv {
        start: v(start),
        len: v(len),
        size: 16,
        rec: 1,
        fields: vec![
            ListField { off: 0, size: 4, is_ptr: false, unsigned: false, first: v(&format!("{len}_f0")), last: Some(v(&format!("{len}_l0"))), step: None, range: None, owns: None },
            ListField { off: 8, size: 8, is_ptr: true, unsigned: false, first: v(&format!("{len}_next")), last: None, step: None, range: None, owns: None },
        ],
        back: None,
        tail: None,
    }
}

fn frame(func: u32, locals: &[&str]) -> Frame {
    let lv: BTreeMap<ValueId, Var> = locals.iter().enumerate().map(|(i, x)| (ValueId(i as u32), v(x))).collect();
    Frame { func: FuncId(func), block: BlockId(0), prev: None, idx: 0, lv }
}

/// A 16-byte heap cell `start` (value at 0, next pointer at 8 holding `next`).
fn cell(s: &mut State, id: u32, start: &str, next: &str) {
    let (st, end, na) = (v(start), v(&format!("{start}_end")), v(&format!("{start}_na")));
    s.add_atom(Atom::cmp(&LinExpr::var(&end), Rel::Eq, &LinExpr::var(&st).add_scaled(1, &LinExpr::constant(15)).expect("sum")).expect("atom"));
    s.add_atom(Atom::cmp(&LinExpr::var(&na), Rel::Eq, &LinExpr::var(&st).add_scaled(1, &LinExpr::constant(8)).expect("sum")).expect("atom"));
    s.add_atom(Atom::var_const(&end, Rel::Le, super::exec::ADDR_MAX));
    s.add_atom(Atom::var_const(&st, Rel::Ge, 1));
    s.allocs.push(Alloc { id, start: st.clone(), end, kind: AllocKind::Heap, pristine: None });
    s.pt.push(PtEntry { addr: st.clone(), size: 4, is_ptr: false, unsigned: false, value: v(&format!("{start}_val")), alloc: id });
    s.pt.push(PtEntry { addr: na, size: 8, is_ptr: true, unsigned: false, value: v(next), alloc: id });
}

#[test]
fn a_list_an_argument_points_to_moves_into_the_callee_and_the_others_stay() {
    let m = module();
    let mut cx = ctx(&m);
    // the caller holds two lists; the callee's parameter is the start of the first
    let mut full = State { frames: vec![frame(0, &["a", "b"]), frame(0, &["a"])], ..State::default() };
    full.lists = vec![list("a", "la"), list("b", "lb")];
    let mut caller = full.clone();
    caller.frames.pop();
    let mut abs = full.clone();
    abs.frames.remove(0);
    assert_eq!(lists_calls::hand_to_callee(&mut cx, &full, &mut caller, &mut abs), 1);
    assert_eq!(abs.lists.iter().map(|l| l.start.clone()).collect::<Vec<_>>(), vec![v("a")]);
    assert_eq!(caller.lists.iter().map(|l| l.start.clone()).collect::<Vec<_>>(), vec![v("b")], "the caller keeps no copy of what it handed over");
}

#[test]
fn a_caller_without_lists_hands_nothing_and_keeps_its_cells() {
    let m = module();
    let mut cx = ctx(&m);
    let mut full = State { frames: vec![frame(0, &["c"]), frame(0, &["c"])], ..State::default() };
    full.add_atom(Atom::var_const(&v("null"), Rel::Eq, 0));
    cell(&mut full, 1, "c", "null");
    let mut caller = full.clone();
    caller.frames.pop();
    let mut abs = full.clone();
    abs.frames.remove(0);
    assert_eq!(lists_calls::hand_to_callee(&mut cx, &full, &mut caller, &mut abs), 0);
    assert!(abs.lists.is_empty());
    assert_eq!((caller.allocs.len(), abs.allocs.len()), (1, 1), "no fold happens for a caller without invariants");
}

#[test]
fn a_return_state_folds_the_callees_own_cells_but_not_the_entrys() {
    let m = module();
    let mut cx = ctx(&m);
    // c1 (the entry's block, id 1) → c2 (the callee's own, id 2) → NULL
    let mut s = State { frames: vec![frame(0, &["c1"])], ..State::default() };
    s.add_atom(Atom::var_const(&v("null"), Rel::Eq, 0));
    cell(&mut s, 1, "c1", "c2");
    cell(&mut s, 2, "c2", "null");
    lists_calls::fold_at_return(&mut cx, &mut s, &BTreeSet::from([1]));
    assert_eq!(s.allocs.iter().map(|a| (a.id, a.kind)).collect::<Vec<_>>(), vec![(1, AllocKind::Heap)], "the entry's block stays concrete (kind restored)");
    assert_eq!(s.lists.len(), 1);
    assert_eq!(s.lists[0].start, v("c2"));
    assert!(cx.entails(&s, &[Atom::var_const(&s.lists[0].len, Rel::Eq, 1)]));
}

#[test]
fn a_widening_pairs_lists_at_one_start_and_an_absent_list_with_a_proved_null_start() {
    let m = module();
    let mut cx = ctx(&m);
    // same start r: one list with fresh variables where the two differ
    let (a, b) = (vec![list("r", "l1")], vec![list("r", "l2")]);
    let (mut mu_a, mut mu_b) = (Mu::new(), Mu::new());
    let (mut xa, mut xb) = (vec![], vec![]);
    let out = lists_calls::widen(&mut cx, Side { lists: &a, facts: &[], mu: &mut mu_a }, Side { lists: &b, facts: &[], mu: &mut mu_b }, &mut xa, &mut xb);
    assert_eq!(out.len(), 1);
    assert_eq!(out[0].start, v("r"));
    assert_eq!(mu_a.get(&v("l1")), Some(&out[0].len));
    assert_eq!(mu_b.get(&v("l2")), Some(&out[0].len));
    // the other side has no list at r but proves r = 0: the empty list (length 0 there)
    let null_r = vec![Fact::Atom(Atom::var_const(&v("r"), Rel::Eq, 0))];
    let (mut mu_a, mut mu_b) = (Mu::new(), Mu::new());
    let (mut xa, mut xb) = (vec![], vec![]);
    let out = lists_calls::widen(&mut cx, Side { lists: &a, facts: &[], mu: &mut mu_a }, Side { lists: &[], facts: &null_r, mu: &mut mu_b }, &mut xa, &mut xb);
    assert_eq!(out.len(), 1);
    assert_eq!(xb, vec![Fact::Atom(Atom::var_const(&out[0].len, Rel::Eq, 0))]);
    assert!(xa.is_empty());
    // without that proof the list is dropped (the caller forgets those cells)
    let (mut mu_a, mut mu_b) = (Mu::new(), Mu::new());
    let (mut xa, mut xb) = (vec![], vec![]);
    let out = lists_calls::widen(&mut cx, Side { lists: &a, facts: &[], mu: &mut mu_a }, Side { lists: &[], facts: &[], mu: &mut mu_b }, &mut xa, &mut xb);
    assert!(out.is_empty());
}
