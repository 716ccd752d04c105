//! Unit tests of `dead_slots`: the cells of a stack block whose `alloca` local is dead are
//! forgotten at a loop header; a block a live local holds keeps its cells.

use super::dead_slots;
use super::lists_tests::ctx;
use super::state::{Alloc, AllocKind, Frame, PtEntry, State};
use crate::ir::*;
use crate::logic::Var;

/// `main` whose only block returns local 1: local 1 is live at index 0, locals 0 and 2 dead.
fn module() -> Module {
    let mut m = super::lists_tests::module();
    m.functions[0].blocks[0].terminator = Terminator::Ret(Some(Operand::Local(ValueId(1))));
    m
}

/// Stack blocks `a` (id 1) and `b` (id 2) of frame 0, each holding one pointer cell; locals
/// 0 → `a`, 1 → `b`, 2 → `alias`.
fn state(alias: &str) -> State {
    let mut s = State { inputs_exact: true, ..State::default() };
    let lv = [(ValueId(0), Var::new("a")), (ValueId(1), Var::new("b")), (ValueId(2), Var::new(alias))].into_iter().collect();
    s.frames.push(Frame { func: FuncId(0), block: BlockId(0), prev: None, idx: 0, lv });
    for (id, name) in [(1, "a"), (2, "b")] {
        s.allocs.push(Alloc { id, start: Var::new(name), end: Var::new(format!("{name}_end")), kind: AllocKind::Stack(0), pristine: None });
        s.pt.push(PtEntry { addr: Var::new(name), size: 8, is_ptr: true, unsigned: false, value: Var::new(format!("{name}_val")), alloc: id });
    }
    s
}

#[test]
fn the_cells_of_a_dead_slot_are_forgotten_and_a_live_ones_kept() {
    let m = module();
    let ctx = ctx(&m);
    let mut s = state("other");
    assert_eq!(dead_slots::forget(&ctx, &mut s), 1);
    assert_eq!(s.pt.len(), 1);
    assert_eq!(s.pt[0].alloc, 2, "the live local's block keeps its cell");
    assert_eq!(s.allocs.len(), 2, "the dead slot stays allocated");
}

#[test]
fn a_slot_a_live_local_also_holds_keeps_its_cells() {
    let m = module();
    let ctx = ctx(&m);
    // local 0 (dead) and local 1 (live) both hold `a`'s start; `b`'s start is no local's
    let mut s = state("other");
    s.frames[0].lv.insert(ValueId(1), Var::new("a"));
    assert_eq!(dead_slots::forget(&ctx, &mut s), 0);
    assert_eq!(s.pt.len(), 2);
}
