//! Unit tests of the bitvector rules (seed 004): the view heuristic, conversions between
//! views, wrap-around by case splits, overflow checks, the arithmetic intrinsics, the
//! projection through non-unit equations, and two end-to-end loops of the paper (Fig. 1 `f`
//! and `g`).

use super::bv;
use super::ctx::Ctx;
use super::facts::{Atom, Fact};
use super::state::State;
use crate::facts::views::{self, View};
use super::*;
use crate::ir::*;
use crate::logic::{LinExpr, Rel, Var};
use crate::facts::ModuleFacts;
use crate::smt::Budget;
use crate::verdict::{IntSemantics, Termination};
use std::time::Duration;

const U32MAX: i128 = (1 << 32) - 1;

fn l(v: u32) -> Operand {
    Operand::Local(ValueId(v))
}
fn c(bits: u32, v: i128) -> Operand {
    Operand::Int { bits, value: v }
}
fn ins(result: Option<u32>, op: Op) -> Instr {
    Instr { result: result.map(ValueId), op, loc: None }
}
fn decl(name: &str, ret: Type) -> Function {
    Function { name: name.into(), params: vec![], ret, blocks: vec![], num_values: 0, value_names: vec![], is_vararg: false, param_attrs: vec![], linkage: Linkage::External, address_taken: false, loc: None }
}
fn func(blocks: Vec<Block>) -> Function {
    Function { name: "main".into(), params: vec![], ret: Type::Int(32), blocks, num_values: 16, value_names: vec![None; 16], is_vararg: false, param_attrs: vec![], linkage: Linkage::External, address_taken: false, loc: None }
}
fn block(name: &str, instrs: Vec<Instr>, terminator: Terminator) -> Block {
    Block { name: name.into(), instrs, terminator, term_loc: None, loop_loc: None }
}
fn module(main: Function) -> Module {
    Module { source_name: "t.c".into(), pointer_bits: 64, functions: vec![main, decl("__VERIFIER_nondet_uint", Type::Int(32))], globals: vec![], annotations: Default::default(), malformed_annotations: vec![] }
}
fn bin(r: u32, op: BinOp, flags: ArithFlags, a: Operand, b: Operand) -> Instr {
    ins(Some(r), Op::Bin { op, flags, bits: 32, lhs: a, rhs: b })
}
fn icmp(r: u32, pred: IntPred, a: Operand, b: Operand) -> Instr {
    ins(Some(r), Op::ICmp { pred, bits: 32, lhs: a, rhs: b })
}
fn nondet(r: u32) -> Instr {
    ins(Some(r), Op::Call { callee: Callee::Direct(FuncId(1)), args: vec![], ret: Type::Int(32) })
}
fn ctx(m: &Module) -> Ctx<'_> {
    Ctx::new(m, Box::leak(Box::new(ModuleFacts::new(m))), IntSemantics::C, Budget::until(Instant::now() + Duration::from_secs(30), Duration::from_secs(10)))
}
fn var_in(s: &mut State, name: &str, lo: i128, hi: i128) -> Var {
    let v = Var::new(name);
    s.add_atom(Atom::var_const(&v, Rel::Ge, lo));
    s.add_atom(Atom::var_const(&v, Rel::Le, hi));
    v
}
fn empty() -> Module {
    module(func(vec![block("entry", vec![], Terminator::Ret(Some(c(32, 0))))]))
}
/// `e` evaluates to `val` in every model of `s` where `x = xv`.
fn forced(cx: &mut Ctx<'_>, s: &State, x: &Var, xv: i128, e: &LinExpr, val: i128) -> bool {
    let mut t = s.clone();
    t.add_atom(Atom::var_const(x, Rel::Eq, xv));
    let ne = Atom::cmp(e, Rel::Eq, &LinExpr::constant(val)).expect("atom");
    cx.entails(&t, &[ne])
}

#[test]
fn heuristic_unsigned_predicates_make_a_class_unsigned_and_signed_evidence_wins() {
    // x = nondet; y = x + 1 (no nsw); c = icmp ult y, 10   ⇒ {x, y} unsigned
    // a = nondet; b = add nsw a, 1; d = icmp ult b, 10      ⇒ {a, b} signed (nsw wins)
    let f = func(vec![block(
        "entry",
        vec![
            nondet(0),
            bin(1, BinOp::Add, ArithFlags::default(), l(0), c(32, 1)),
            icmp(2, IntPred::Ult, l(1), c(32, 10)),
            nondet(3),
            bin(4, BinOp::Add, ArithFlags { nsw: true, ..Default::default() }, l(3), c(32, 1)),
            icmp(5, IntPred::Ult, l(4), c(32, 10)),
            ins(Some(6), Op::Alloca { elem_size: 4, count: c(32, 1), count_bits: 32 }),
        ],
        Terminator::Ret(Some(c(32, 0))),
    )]);
    let m = module(f);
    let vs = views::infer_module(&m);
    assert_eq!(views::of(&vs[0], ValueId(0)), View::Unsigned);
    assert_eq!(views::of(&vs[0], ValueId(1)), View::Unsigned);
    assert_eq!(views::of(&vs[0], ValueId(3)), View::Signed);
    assert_eq!(views::of(&vs[0], ValueId(4)), View::Signed);
    assert_eq!(views::of(&vs[0], ValueId(6)), View::Unsigned, "pointers are addresses");
    // under Math every value is signed
    let cx = Ctx::new(&m, Box::leak(Box::new(ModuleFacts::new(&m))), IntSemantics::Math, Budget::until(Instant::now() + Duration::from_secs(5), Duration::from_secs(10)));
    assert_eq!(cx.view(FuncId(0), ValueId(0)), View::Signed);
}

#[test]
fn constants_are_reduced_into_the_view() {
    assert_eq!(bv::normalize(-1, 32, View::Unsigned), U32MAX);
    assert_eq!(bv::normalize(U32MAX, 32, View::Signed), -1);
    assert_eq!(bv::normalize(128, 8, View::Signed), -128);
    assert_eq!(bv::normalize(300, 8, View::Unsigned), 44);
    assert_eq!(bv::normalize(3, 1, View::Signed), 1);
}

#[test]
fn conversion_splits_only_when_the_sign_bit_is_undecided() {
    let m = empty();
    let mut cx = ctx(&m);
    let mut s = State::default();
    let x = var_in(&mut s, "x", 0, U32MAX);
    let e = LinExpr::var(&x);
    let outs = bv::convert(&mut cx, s.clone(), &e, 32, View::Unsigned, View::Signed);
    assert_eq!(outs.len(), 2);
    // the high half maps to x − 2^32
    let hi = outs.iter().find(|(_, v)| *v != e).expect("wrapped case");
    assert!(forced(&mut cx, &hi.0, &x, U32MAX, &hi.1, -1));
    // a small x needs no split
    let mut small = s;
    small.add_atom(Atom::var_const(&x, Rel::Le, 100));
    let outs = bv::convert(&mut cx, small, &e, 32, View::Unsigned, View::Signed);
    assert_eq!(outs.len(), 1);
    assert_eq!(outs[0].1, e);
}

#[test]
fn unsigned_increment_wraps_by_two_exact_cases_and_no_split_without_wrap() {
    let m = empty();
    let mut cx = ctx(&m);
    let mut s = State::default();
    let x = var_in(&mut s, "x", 0, U32MAX);
    let e = LinExpr::var(&x).add_scaled(1, &LinExpr::constant(1)).expect("e");
    let outs = bv::wrap_into(&mut cx, s.clone(), e.clone(), 32, View::Unsigned);
    assert_eq!(outs.len(), 2, "r = x + 1 or r = x + 1 − 2^32");
    let wrapped = outs.iter().find(|(_, v)| *v != e).expect("wrap case");
    assert!(forced(&mut cx, &wrapped.0, &x, U32MAX, &wrapped.1, 0));
    // no fresh variables in the split cases
    assert!(outs.iter().all(|(_, v)| v.coeffs.keys().all(|k| *k == x)));
    // x < umax: no split
    let mut below = s.clone();
    below.add_atom(Atom::var_const(&x, Rel::Le, U32MAX - 1));
    assert_eq!(bv::wrap_into(&mut cx, below, e, 32, View::Unsigned).len(), 1);
    // 3·x may wrap twice: exact fresh-multiple encoding, one state
    let e3 = LinExpr::var(&x).scale(3).expect("3x");
    let outs = bv::wrap_into(&mut cx, s, e3, 32, View::Unsigned);
    assert_eq!(outs.len(), 1);
    assert!(forced(&mut cx, &outs[0].0, &x, U32MAX, &outs[0].1, U32MAX - 2));
}

#[test]
fn signed_decrement_wraps_at_the_minimum() {
    let m = empty();
    let mut cx = ctx(&m);
    let mut s = State::default();
    let x = var_in(&mut s, "x", -128, 127);
    let e = LinExpr::var(&x).add_scaled(1, &LinExpr::constant(-1)).expect("e");
    let outs = bv::wrap_into(&mut cx, s, e.clone(), 8, View::Signed);
    assert_eq!(outs.len(), 2);
    let wrapped = outs.iter().find(|(_, v)| *v != e).expect("wrap case");
    assert!(forced(&mut cx, &wrapped.0, &x, -128, &wrapped.1, 127));
}

#[test]
fn nsw_and_nuw_overflow_are_undefined_in_c_and_ignored_in_wrap() {
    let m = empty();
    let mut s = State::default();
    let x = var_in(&mut s, "x", 0, U32MAX);
    let a = LinExpr::var(&x);
    let one = LinExpr::constant(1);
    let mut cx = ctx(&m);
    let nuw = ArithFlags { nuw: true, ..Default::default() };
    let o = bv::binop(&mut cx, s.clone(), BinOp::Add, nuw, 32, View::Unsigned, &a, &one);
    assert_eq!(o.ub.len(), 1);
    assert!(o.ub[0].1.contains("unsigned overflow"));
    assert_eq!(o.branches.len(), 1, "the no-overflow case continues without a wrap split");
    // nsw on an unsigned view: the signed reading is checked (after conversion)
    let nsw = ArithFlags { nsw: true, ..Default::default() };
    let o = bv::binop(&mut cx, s.clone(), BinOp::Add, nsw, 32, View::Unsigned, &a, &one);
    assert!(o.ub.iter().any(|(_, r)| r.contains("signed overflow")));
    let mut cw = Ctx::new(&m, Box::leak(Box::new(ModuleFacts::new(&m))), IntSemantics::Wrap, Budget::until(Instant::now() + Duration::from_secs(30), Duration::from_secs(10)));
    let o = bv::binop(&mut cw, s, BinOp::Add, nuw, 32, View::Unsigned, &a, &one);
    assert!(o.ub.is_empty());
    assert_eq!(o.branches.len(), 2);
}

#[test]
fn with_overflow_gives_the_wrapped_value_and_the_bit() {
    let m = empty();
    let mut cx = ctx(&m);
    let mut s = State::default();
    let x = var_in(&mut s, "x", 0, U32MAX);
    let outs = bv::with_overflow(&mut cx, s.clone(), BinOp::Add, 32, View::Unsigned, &LinExpr::var(&x), &LinExpr::constant(1));
    assert_eq!(outs.len(), 2);
    for (st, v, f) in &outs {
        let bit = f.constant;
        assert!(f.is_constant());
        if bit == 1 {
            assert!(forced(&mut cx, st, &x, U32MAX, v, 0));
        } else {
            assert!(forced(&mut cx, st, &x, 5, v, 6));
        }
    }
    // smul by a constant that always fits: no overflow, one state
    let mut small = State::default();
    let y = var_in(&mut small, "y", -10, 10);
    let outs = bv::with_overflow(&mut cx, small, BinOp::Mul, 32, View::Signed, &LinExpr::var(&y), &LinExpr::constant(3));
    assert_eq!(outs.len(), 1);
    assert_eq!(outs[0].2, LinExpr::constant(0));
}

#[test]
fn saturating_subtraction_clamps_at_zero() {
    let m = empty();
    let mut cx = ctx(&m);
    let mut s = State::default();
    let x = var_in(&mut s, "x", 0, U32MAX);
    let outs = bv::saturating(&mut cx, s, BinOp::Sub, 32, View::Unsigned, &LinExpr::var(&x), &LinExpr::constant(1));
    assert_eq!(outs.len(), 2);
    assert!(outs.iter().any(|(_, v)| *v == LinExpr::constant(0)));
}

#[test]
fn unsigned_masks_and_complements_are_exact() {
    let m = empty();
    let mut cx = ctx(&m);
    let mut s = State::default();
    let x = var_in(&mut s, "x", 0, U32MAX);
    let a = LinExpr::var(&x);
    let o = bv::binop(&mut cx, s.clone(), BinOp::And, ArithFlags::default(), 32, View::Unsigned, &a, &LinExpr::constant(255));
    let br = &o.branches[0];
    assert!(forced(&mut cx, &br.state, &x, 0x1234, &br.value, 0x34));
    let o = bv::binop(&mut cx, s, BinOp::Xor, ArithFlags::default(), 32, View::Unsigned, &a, &LinExpr::constant(U32MAX));
    assert_eq!(o.branches[0].value, LinExpr::constant(U32MAX).add_scaled(-1, &a).expect("not"));
}

#[test]
fn projection_eliminates_variables_of_non_unit_equations() {
    // x' = 2·x ∧ x ≥ 1 with x dead: keeps x' ≥ 2 (before, every fact on x' was lost)
    let mut s = State::default();
    let x = Var::new("x");
    let xp = Var::new("xp");
    s.add_atom(Atom::var_const(&x, Rel::Ge, 1));
    s.add_atom(Atom::cmp(&LinExpr::var(&xp), Rel::Eq, &LinExpr::var(&x).scale(2).expect("2x")).expect("eq"));
    s.frames.push(Frame { func: FuncId(0), block: BlockId(0), prev: None, idx: 0, lv: [(ValueId(0), xp.clone())].into_iter().collect() });
    generalize::project_kb(&mut s, crate::config::ProjectionLimits::default());
    let want = Atom::var_const(&xp, Rel::Ge, 2);
    assert!(s.kb.contains(&Fact::Atom(want)), "{:?}", s.kb);
    assert!(s.kb.iter().all(|f| !f.vars().contains(&x)));
}

/// Seed 004, Fig. 1: `g` (`while (j > 0) j++`, unsigned) terminates by wrap-around;
/// `f` (`j = 0; while (j <= x) j++`) does not for x = UINT_MAX.
fn paper_loop(g: bool) -> Module {
    let (init, cond) = if g {
        (l(0), icmp(2, IntPred::Ugt, l(1), c(32, 0)))
    } else {
        (c(32, 0), icmp(2, IntPred::Ule, l(1), l(0)))
    };
    let f = func(vec![
        block("entry", vec![nondet(0)], Terminator::Br(BlockId(1))),
        block(
            "cond",
            vec![ins(Some(1), Op::Phi { ty: Type::Int(32), incoming: vec![(init, BlockId(0)), (l(3), BlockId(2))] }), cond],
            Terminator::CondBr { cond: l(2), then_block: BlockId(2), else_block: BlockId(3) },
        ),
        block("body", vec![bin(3, BinOp::Add, ArithFlags::default(), l(1), c(32, 1))], Terminator::Br(BlockId(1))),
        block("exit", vec![], Terminator::Ret(Some(c(32, 0)))),
    ]);
    module(f)
}

#[test]
fn paper_g_terminates_only_because_of_unsigned_wraparound() {
    let m = paper_loop(true);
    let a = super::tests::prove(&m, IntSemantics::C, 30);
    assert!(matches!(a.termination, Termination::Yes(_)), "{:?}", a.termination);
}

#[test]
fn paper_f_is_not_proved_terminating() {
    let m = paper_loop(false);
    let a = super::tests::prove(&m, IntSemantics::C, 20);
    assert!(!matches!(a.termination, Termination::Yes(_)), "{:?}", a.termination);
}

#[test]
fn uadd_with_overflow_and_extractvalue_are_exact() {
    // v, o = uadd.with.overflow(x, 1); (o ∧ v ≠ 0) ∨ (¬o ∧ v = 0) is unreachable
    let agg_ty = Type::Aggregate { size: 8 };
    let ev = |r: u32, i: u32, ty: Type| ins(Some(r), Op::ExtractValue { agg: l(1), indices: vec![i], ty });
    let f = func(vec![
        block(
            "entry",
            vec![
                nondet(0),
                ins(Some(1), Op::Call { callee: Callee::Direct(FuncId(2)), args: vec![l(0), c(32, 1)], ret: agg_ty.clone() }),
                ev(2, 0, Type::Int(32)),
                ev(3, 1, Type::Int(1)),
            ],
            Terminator::CondBr { cond: l(3), then_block: BlockId(1), else_block: BlockId(2) },
        ),
        block("ovf", vec![icmp(4, IntPred::Ne, l(2), c(32, 0))], Terminator::CondBr { cond: l(4), then_block: BlockId(3), else_block: BlockId(4) }),
        block("no_ovf", vec![icmp(5, IntPred::Eq, l(2), c(32, 0))], Terminator::CondBr { cond: l(5), then_block: BlockId(3), else_block: BlockId(4) }),
        block("bad", vec![], Terminator::Unreachable),
        block("exit", vec![], Terminator::Ret(Some(c(32, 0)))),
    ]);
    let mut m = module(f);
    m.functions.push(decl("llvm.uadd.with.overflow.i32", agg_ty));
    let a = super::tests::prove(&m, IntSemantics::C, 30);
    assert_eq!(a.memory_safety, MemorySafety::Proved, "{:?}", a.termination);
    assert!(matches!(a.termination, Termination::Yes(_)));
}

#[test]
fn parity_of_even_masks_survives_loops_and_is_lost_by_odd_steps() {
    // r = x & -2; phi p = [r, p − 2] is even; q = [r, q − 1] is not; and = x & 12 has 4 | and
    let f = func(vec![
        block(
            "entry",
            vec![nondet(0), bin(1, BinOp::And, ArithFlags::default(), l(0), c(32, -2)), bin(6, BinOp::And, ArithFlags::default(), l(0), c(32, 12))],
            Terminator::Br(BlockId(1)),
        ),
        block(
            "loop",
            vec![
                ins(Some(2), Op::Phi { ty: Type::Int(32), incoming: vec![(l(1), BlockId(0)), (l(3), BlockId(1))] }),
                bin(3, BinOp::Sub, ArithFlags::default(), l(2), c(32, 2)),
                ins(Some(4), Op::Phi { ty: Type::Int(32), incoming: vec![(l(1), BlockId(0)), (l(5), BlockId(1))] }),
                bin(5, BinOp::Sub, ArithFlags::default(), l(4), c(32, 1)),
            ],
            Terminator::Br(BlockId(1)),
        ),
    ]);
    let tz = crate::facts::parity::analyze(&f);
    assert_eq!(tz[0], 0);
    assert_eq!(tz[1], 1);
    assert_eq!(tz[2], 1);
    assert_eq!(tz[3], 1);
    assert_eq!(tz[4], 0);
    assert_eq!(tz[6], 2);
}
