//! Unit tests of the payload blocks owned by list cells (`symexec::lists_owned`): folding
//! cells whose `data` field points to a block of their own, the cases that own nothing
//! (shared, reused or freed payloads), materializing a cell with its payload, and how merge
//! and the instance check keep the attribute.

use super::facts::Atom;
use super::lists::{self, ListField};
use super::lists_backward_tests::with_locals;
use super::lists_owned;
use super::lists_tests::{ctx, module};
use super::state::{Alloc, AllocKind, PtEntry, State};
use crate::logic::{LinExpr, Rel, Var};

fn v(n: &str) -> Var {
    Var::new(n)
}

fn eq(a: &Var, b: &Var, k: i128) -> Atom {
    Atom::cmp(&LinExpr::var(a), Rel::Eq, &LinExpr::var(b).add_scaled(1, &LinExpr::constant(k)).expect("no overflow")).expect("atom")
}

fn block(s: &mut State, id: u32, start: &str, size: i128) {
    let (start, end) = (v(start), v(&format!("{start}_end")));
    s.add_atom(eq(&end, &start, size - 1));
    s.add_atom(Atom::var_const(&start, Rel::Ge, 1));
    s.add_atom(Atom::var_const(&end, Rel::Le, super::exec::ADDR_MAX));
    s.allocs.push(Alloc { id, start, end, kind: AllocKind::Heap, pristine: None });
}

/// 16-byte cells `(start, next, data)` of free_all's shape: the data pointer at 0, next at 8;
/// `blocks` are heap blocks `(start, size)` with an i32 written at offset 0 of each.
fn with_cells(cells: &[(&str, &str, &str)], blocks: &[(&str, i128)]) -> State {
    let mut s = State { inputs_exact: true, ..State::default() };
    let mut id = 0;
    for (start, next, data) in cells {
        id += 1;
        block(&mut s, id, start, 16);
        let na = v(&format!("{start}_na"));
        s.add_atom(eq(&na, &v(start), 8));
        s.pt.push(PtEntry { addr: v(start), size: 8, is_ptr: true, unsigned: false, value: v(data), alloc: id });
        s.pt.push(PtEntry { addr: na, size: 8, is_ptr: true, unsigned: false, value: v(next), alloc: id });
    }
    for (start, size) in blocks {
        id += 1;
        block(&mut s, id, start, *size);
        s.pt.push(PtEntry { addr: v(start), size: 4, is_ptr: false, unsigned: false, value: v(&format!("{start}_val")), alloc: id });
    }
    s.add_atom(Atom::var_const(&v("null"), Rel::Eq, 0));
    s
}

fn data_field(s: &State) -> &ListField {
    let l = s.lists.iter().find(|l| l.start == v("c1")).expect("a list from c1");
    assert_eq!(l.fields[l.rec].off, 8, "the recursive field is next, not the payload pointer");
    l.fields.iter().find(|f| f.off == 0).expect("the data field")
}

/// (cells, payload blocks, locals, the data field's expected `owns`, blocks left in AL)
type Case<'a> = (&'a [(&'a str, &'a str, &'a str)], &'a [(&'a str, i128)], &'a [&'a str], Option<u64>, usize);

#[test]
fn cells_owning_payloads_fold_with_their_blocks() {
    let m = module();
    let mut cx = ctx(&m);
    let cases: &[Case] = &[
        // one cell whose payload has the cell's size (free_all_yes): next is the recursive field
        (&[("c1", "null", "d1")], &[("d1", 16)], &["c1"], Some(16), 0),
        (&[("c1", "c2", "d1"), ("c2", "null", "d2")], &[("d1", 4), ("d2", 4)], &["c1"], Some(4), 0),
        // payloads of different sizes: no constant size, kept concrete
        (&[("c1", "c2", "d1"), ("c2", "null", "d2")], &[("d1", 4), ("d2", 8)], &["c1"], None, 2),
        // a local holds the second payload: it is shared
        (&[("c1", "c2", "d1"), ("c2", "null", "d2")], &[("d1", 4), ("d2", 4)], &["c1", "d2"], None, 2),
        // both cells point to one block: not a block of each cell's own
        (&[("c1", "c2", "d1"), ("c2", "null", "d1")], &[("d1", 4)], &["c1"], None, 1),
        // the second cell's payload was freed (no block): nothing owned
        (&[("c1", "c2", "d1"), ("c2", "null", "d2")], &[("d1", 4)], &["c1"], None, 1),
    ];
    for (cells, blocks, locals, owns, left) in cases {
        let mut s = with_locals(with_cells(cells, blocks), locals);
        assert!(lists::fold(&mut cx, &mut s), "{cells:?} folds");
        assert_eq!(data_field(&s).owns, *owns, "{cells:?} {blocks:?} {locals:?}");
        assert_eq!(s.allocs.len(), *left, "{cells:?} {blocks:?} {locals:?}: blocks left");
        if owns.is_some() {
            assert!(s.pt.is_empty(), "the payloads' contents are forgotten");
        }
    }
}

#[test]
fn materializing_a_cell_brings_back_its_payload_block() {
    let m = module();
    let mut cx = ctx(&m);
    let mut s = with_locals(with_cells(&[("c1", "c2", "d1"), ("c2", "null", "d2")], &[("d1", 4), ("d2", 4)]), &["c1"]);
    assert!(lists::fold(&mut cx, &mut s));
    let ms = lists::materialize(&mut cx, &s, &v("c1"), 8).expect("the first cell");
    assert_eq!(ms.len(), 1, "the list has two cells: no split");
    let st = &ms[0];
    let d = st.pt.iter().find(|p| p.addr == v("c1") && p.is_ptr).expect("the data field").value.clone();
    let pay = st.allocs.iter().find(|a| a.start == d).expect("the payload block is live again");
    assert!(cx.entails(st, &[eq(&pay.end, &d, 3)]), "of 4 bytes");
    // disjoint from the cell it belongs to
    assert!(cx.entails(st, &[Atom::cmp(&LinExpr::var(&d), Rel::Ne, &LinExpr::var(&v("c1"))).expect("atom")]));
    // the rest still owns its payloads
    let rest = &st.lists[0];
    assert_eq!(rest.fields.iter().find(|f| f.off == 0).and_then(|f| f.owns), Some(4));
    // freeing the payload (what `free` does to a block) and folding again: the cell's data
    // pointer dangles, so the new list owns nothing and no block reappears
    let mut freed = st.clone();
    freed.allocs.retain(|a| a.start != d);
    freed.pt.retain(|p| p.alloc != pay.id);
    lists::fold(&mut cx, &mut freed);
    for l in &freed.lists {
        assert!(l.fields.iter().all(|f| f.owns.is_none()), "{l:?}");
    }
}

#[test]
fn merge_and_instance_keep_owned_payloads_only_where_both_sides_own_them() {
    // (a owns, a empty, b owns, b empty, merged)
    let merges =
        [(Some(16), false, Some(16), false, Some(16)), (Some(16), false, None, false, None), (Some(16), false, Some(8), false, None), (None, true, Some(8), false, Some(8)), (Some(8), false, None, true, Some(8)), (None, false, None, false, None)];
    for (a, ae, b, be, want) in merges {
        assert_eq!(lists_owned::merge_owns(a, ae, b, be), want, "{a:?} {ae} {b:?} {be}");
    }
    let field = |owns| ListField { off: 0, size: 8, is_ptr: true, unsigned: false, first: v("f"), last: Some(v("l")), step: None, range: None, owns };
    // (general, instance, covered)
    let covers = [(None, Some(4), true), (Some(4), Some(4), true), (Some(4), None, false), (Some(4), Some(8), false), (None, None, true)];
    for (g, h, want) in covers {
        assert_eq!(lists_owned::owns_cover(&[field(g)], &[field(h)]), want, "{g:?} {h:?}");
    }
}

#[test]
fn a_block_holding_a_pointer_is_no_payload() {
    let m = module();
    let mut cx = ctx(&m);
    // c1 → c2 → NULL whose 12-byte data blocks hold a pointer each at offset 4 (records
    // linking elsewhere): no data buffers, nothing owned
    let mut s = with_locals(with_cells(&[("c1", "c2", "d1"), ("c2", "null", "d2")], &[("d1", 12), ("d2", 12)]), &["c1"]);
    for (id, start) in [(3, "d1"), (4, "d2")] {
        let a = v(&format!("{start}_pa"));
        s.add_atom(eq(&a, &v(start), 4));
        s.pt.push(PtEntry { addr: a, size: 8, is_ptr: true, unsigned: false, value: v("null"), alloc: id });
    }
    assert!(lists::fold(&mut cx, &mut s));
    let l = s.lists.iter().find(|l| l.start == v("c1") && l.fields[l.rec].off == 8).expect("c1 → c2 folds through next");
    assert!(l.fields.iter().all(|f| f.owns.is_none()), "{l:?}");
    // (the blocks, records linking through their own pointer, may become lists of their own)
    assert!(s.lists.iter().all(|l| l.fields.iter().all(|f| f.owns.is_none())));
}
