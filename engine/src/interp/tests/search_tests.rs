//! The witness search: portfolio runs confirmed by replay.

use super::builder::*;
use crate::interp::{search_witness, SearchBudget, WitnessKind};
use crate::ir::*;
use crate::verdict::IntSemantics::*;
use std::time::{Duration, Instant};

fn budget() -> SearchBudget {
    SearchBudget { deadline: Instant::now() + Duration::from_secs(20), max_runs: 50, max_steps_per_run: 20_000, run: super::run_limits() }
}

/// `x = nondet(); while (x > 0) { if (x == 7) x = 7; else x = x - 1; }`: every x >= 7
/// counts down to 7 and stays there.
fn countdown_to_seven() -> Module {
    let mut f = FnBuilder::new("main", &[], i32t());
    let e = f.block("entry");
    let h = f.block("header");
    let body = f.block("body");
    let exit = f.block("exit");
    let x0 = f.push(e, call(1, vec![], i32t()));
    f.term(e, Terminator::Br(h));
    let x = f.phi(h, i32t(), vec![]);
    let pos = f.push(h, icmp(IntPred::Sgt, 32, x.clone(), c(32, 0)));
    f.term(h, Terminator::CondBr { cond: pos, then_block: body, else_block: exit });
    let is7 = f.push(body, icmp(IntPred::Eq, 32, x.clone(), c(32, 7)));
    let dec = f.push(body, nsw(BinOp::Sub, 32, x.clone(), c(32, 1)));
    let next = f.push(body, Op::Select { cond: is7, then_value: c(32, 7), else_value: dec, ty: i32t() });
    f.term(body, Terminator::Br(h));
    f.set_phi(h, &x, vec![(x0, e), (next, body)]);
    f.term(exit, Terminator::Ret(Some(c(32, 0))));
    module(vec![f.finish(), decl("__VERIFIER_nondet_int", &[], i32t())])
}

#[test]
fn search_finds_a_replayed_lasso() {
    let w = search_witness(&countdown_to_seven(), &crate::facts::ModuleFacts::new(&countdown_to_seven()), FuncId(0), C, &budget()).expect("a lasso");
    assert!(matches!(w.kind, WitnessKind::Lasso(_)));
    assert!(w.inputs[0].1 >= 7, "{:?}", w.inputs);
    let nt = w.to_nontermination().expect("non-termination evidence");
    assert_eq!(nt.inputs, w.inputs);
}

#[test]
fn search_finds_a_violation_and_nothing_in_a_safe_program() {
    // a = malloc(4); a[nondet()] = 0;
    let mut f = FnBuilder::new("main", &[], i32t());
    let e = f.block("entry");
    let a = f.push(e, call(2, vec![c(64, 16)], Type::Ptr));
    let i = f.push(e, call(1, vec![], i32t()));
    let p = f.push(e, Op::PtrAdd { base: a, offset: 0, indices: vec![GepIndex { value: i, bits: 32, scale: 4 }], inbounds: true });
    f.push_void(e, Op::Store { ty: i32t(), value: c(32, 0), ptr: p, size: 4 });
    f.term(e, Terminator::Ret(Some(c(32, 0))));
    let m = module(vec![f.finish(), decl("__VERIFIER_nondet_int", &[], i32t()), decl("malloc", &[Type::Int(64)], Type::Ptr)]);
    let w = search_witness(&m, &crate::facts::ModuleFacts::new(&m), FuncId(0), C, &budget()).expect("a violation");
    let v = w.to_violation().expect("violation evidence");
    assert_eq!(v.kind, "invalid-write");
    assert!(!(0..4).contains(&w.inputs[0].1));

    // x = nondet(); return x > 5 ? 1 : 0;  has neither.
    let mut g = FnBuilder::new("main", &[], i32t());
    let e = g.block("entry");
    let x = g.push(e, call(1, vec![], i32t()));
    let gt = g.push(e, icmp(IntPred::Sgt, 32, x, c(32, 5)));
    let r = g.push(e, Op::Select { cond: gt, then_value: c(32, 1), else_value: c(32, 0), ty: i32t() });
    g.term(e, Terminator::Ret(Some(r)));
    let safe = module(vec![g.finish(), decl("__VERIFIER_nondet_int", &[], i32t())]);
    assert!(search_witness(&safe, &crate::facts::ModuleFacts::new(&safe), FuncId(0), C, &budget()).is_none());
}

#[test]
fn lassos_after_signed_overflow_are_not_reported() {
    // x = nondet(); y = x + INT_MAX (nsw, unused); if (x > 0) while (1) {}  — every looping
    // run has overflowed first (C-level UB), so no NO witness may come out.
    let mut f = FnBuilder::new("main", &[], i32t());
    let e = f.block("entry");
    let h = f.block("header");
    let exit = f.block("exit");
    let x = f.push(e, call(1, vec![], i32t()));
    let _y = f.push(e, nsw(BinOp::Add, 32, x.clone(), c(32, i32::MAX as i128)));
    let pos = f.push(e, icmp(IntPred::Sgt, 32, x, c(32, 0)));
    f.term(e, Terminator::CondBr { cond: pos, then_block: h, else_block: exit });
    f.term(h, Terminator::Br(h));
    f.term(exit, Terminator::Ret(Some(c(32, 0))));
    let m = module(vec![f.finish(), decl("__VERIFIER_nondet_int", &[], i32t())]);
    assert!(search_witness(&m, &crate::facts::ModuleFacts::new(&m), FuncId(0), C, &budget()).is_none());
    // Under Wrap the same runs are fine witnesses.
    let w = search_witness(&m, &crate::facts::ModuleFacts::new(&m), FuncId(0), Wrap, &budget()).expect("a lasso under wrap");
    assert!(w.inputs[0].1 > 0);
}
