//! Integer operations per semantics, through whole runs (poison becomes UB only when used).

use super::builder::*;
use crate::interp::{kind, Outcome};
use crate::ir::*;
use crate::verdict::IntSemantics::{self, *};

/// Runs `f(a, b) = a op b` on `bits`-wide integers.
fn eval(op: BinOp, flags: ArithFlags, bits: u32, a: i128, b: i128, sem: IntSemantics) -> Outcome {
    let mut f = FnBuilder::new("f", &[Type::Int(bits), Type::Int(bits)], Type::Int(bits));
    let e = f.block("entry");
    let (x, y) = (f.param(0), f.param(1));
    let r = f.push(e, Op::Bin { op, flags, bits, lhs: x, rhs: y });
    f.term(e, Terminator::Ret(Some(r)));
    run_with(&module(vec![f.finish()]), sem, &[a, b], vec![]).outcome
}

const NONE: ArithFlags = ArithFlags { nsw: false, nuw: false, exact: false, disjoint: false };
const NSW: ArithFlags = ArithFlags { nsw: true, nuw: false, exact: false, disjoint: false };
const NUW: ArithFlags = ArithFlags { nsw: false, nuw: true, exact: false, disjoint: false };
const EXACT: ArithFlags = ArithFlags { nsw: false, nuw: false, exact: true, disjoint: false };
const MAX32: i128 = i32::MAX as i128;
const MIN32: i128 = i32::MIN as i128;

fn ret(v: i128) -> Outcome {
    Outcome::Returned(Some(v))
}

fn is_ub(o: &Outcome) -> bool {
    violation_kind(o) == Some(kind::UNDEFINED_BEHAVIOUR)
}

/// A `Math` value `v` of width `bits` (outside the range: built by exact `nsw` operations,
/// since constants and entry arguments are canonical).
fn value_of(f: &mut FnBuilder, e: BlockId, bits: u32, v: i128) -> Operand {
    let (lo, hi) = (-(1i128 << (bits - 1)), (1i128 << (bits - 1)) - 1);
    if (lo..=hi).contains(&v) {
        return c(bits, v);
    }
    let unit = 1i128 << (bits - 2);
    let (q, r) = (v.div_euclid(unit), v.rem_euclid(unit));
    let m = f.push(e, nsw(BinOp::Mul, bits, c(bits, q), c(bits, unit)));
    f.push(e, nsw(BinOp::Add, bits, m, c(bits, r)))
}

/// `op` on the `Math` values `a` and `b` of width `bits` (the result returned as `ret` bits).
fn math_op(bits: u32, ret_bits: u32, a: i128, b: i128, op: impl FnOnce(&mut FnBuilder, BlockId, Operand, Operand) -> Operand) -> Outcome {
    let mut f = FnBuilder::new("f", &[], Type::Int(ret_bits));
    let e = f.block("entry");
    let (x, y) = (value_of(&mut f, e, bits, a), value_of(&mut f, e, bits, b));
    let r = op(&mut f, e, x, y);
    f.term(e, Terminator::Ret(Some(r)));
    run_with(&module(vec![f.finish()]), Math, &[], vec![]).outcome
}

fn m_bin(op: BinOp, bits: u32, a: i128, b: i128) -> Outcome {
    math_op(bits, bits, a, b, |f, e, x, y| f.push(e, bin(op, bits, x, y)))
}

fn m_cmp(pred: IntPred, bits: u32, a: i128, b: i128) -> Outcome {
    math_op(bits, 32, a, b, |f, e, x, y| {
        let t = f.push(e, icmp(pred, bits, x, y));
        f.push(e, Op::Select { cond: t, then_value: c(32, 1), else_value: c(32, 0), ty: i32t() })
    })
}

fn m_zext(from: u32, to: u32, a: i128) -> Outcome {
    math_op(from, to, a, 0, |f, e, x, _| f.push(e, Op::Cast { op: CastOp::ZExt, from_bits: from, to_bits: to, value: x }))
}

#[test]
fn flagless_arithmetic_wraps_in_every_mode() {
    for sem in [C, Wrap, Math] {
        assert_eq!(eval(BinOp::Add, NONE, 32, MAX32, 1, sem), ret(MIN32), "{sem:?}");
        assert_eq!(eval(BinOp::Sub, NONE, 32, MIN32, 1, sem), ret(MAX32), "{sem:?}");
        assert_eq!(eval(BinOp::Sub, NONE, 32, 0, 1, sem), ret(-1), "{sem:?}");
    }
    for sem in [C, Wrap] {
        assert_eq!(eval(BinOp::Mul, NONE, 8, 16, 16, sem), ret(0), "{sem:?}");
    }
}

/// `Math`: a flag-less result `e ≥ 2^w` is kept (no upper bound), below it C's wrapped value.
#[test]
fn math_flagless_results_are_not_reduced_from_above() {
    assert_eq!(eval(BinOp::Mul, NONE, 8, 16, 16, Math), ret(256));
    assert_eq!(eval(BinOp::Mul, NONE, 8, 16, 15, Math), ret(-16), "240 < 2^8 wraps to its canonical form");
    assert_eq!(m_bin(BinOp::Mul, 64, 1 << 62, 4), ret(1 << 64));
    assert_eq!(m_bin(BinOp::Add, 64, 1 << 64, 5), ret((1 << 64) + 5), "operand beyond the width");
    assert_eq!(m_bin(BinOp::Sub, 64, 1 << 64, 1), ret(-1), "2^64 − 1 < 2^64: C's value");
    assert_eq!(eval(BinOp::Shl, NONE, 32, 3, 31, Math), ret(3 << 31));
    assert_eq!(eval(BinOp::Shl, NONE, 32, 1, 31, Math), ret(MIN32));
    // unsigned division and shifts read unsigned (ũ) and reduce their result the same way
    assert_eq!(eval(BinOp::UDiv, NONE, 32, -1, 1, Math), ret(-1));
    assert_eq!(m_bin(BinOp::UDiv, 32, 1 << 40, 2), ret(1 << 39));
    assert_eq!(m_bin(BinOp::URem, 32, (1 << 40) + 7, 1 << 36), ret(7));
    assert_eq!(m_bin(BinOp::LShr, 32, 1 << 40, 4), ret(1 << 36));
    assert_eq!(eval(BinOp::LShr, NONE, 32, -1, 0, Math), ret(-1));
    // a divisor whose unsigned reading is 0 divides by zero
    assert!(is_ub(&m_bin(BinOp::UDiv, 32, 5, -(1 << 32))));
    assert_eq!(m_bin(BinOp::SDiv, 32, 5, -(1 << 32)), ret(0));
}

/// The unsigned countdown `for (unsigned i = n; i >= 0; i--)`: `i - 1` at 0 wraps to −1, whose
/// unsigned reading is `2^32 − 1 ≥ 0`; a value of 2^33 counts down without wrapping.
#[test]
fn math_unsigned_countdown_wraps_below_zero() {
    assert_eq!(eval(BinOp::Add, NONE, 32, 0, -1, Math), ret(-1));
    assert_eq!(cmp(IntPred::Uge, 32, -1, 0, Math), ret(1));
    assert_eq!(cmp(IntPred::Ugt, 32, -1, MAX32, Math), ret(1));
    assert_eq!(m_bin(BinOp::Add, 32, 1 << 33, -1), ret((1 << 33) - 1));
    assert_eq!(m_bin(BinOp::Add, 32, 1 << 32, -1), ret(-1));
}

/// Readings: a non-negative value reads unsigned as itself, a negative one modulo 2^w.
#[test]
fn math_unsigned_readings() {
    // ult: 2^32 is not reduced to 0 (C's `u` would give 0); −2^40 − 1 reads as 2^32 − 1
    assert_eq!(m_cmp(IntPred::Ult, 32, 1 << 32, 1), ret(0));
        assert_eq!(m_cmp(IntPred::Ugt, 32, -(1 << 40) - 1, MAX32), ret(1));
    // signed → unsigned of a negative value: sext keeps −5, zext/ult read 2^64 − 5
    assert_eq!(cast_of(CastOp::SExt, 32, 64, -5, Math), ret(-5));
    assert_eq!(cmp(IntPred::Ugt, 64, -5, i64::MAX as i128, Math), ret(1));
    assert_eq!(cast_of(CastOp::ZExt, 32, 64, -5, Math), ret((1 << 32) - 5));
    assert_eq!(m_zext(32, 64, 1 << 40), ret(1 << 40));
}

/// `alloca(n * sizeof(int))` with a mathematical `n`: the count's unsigned reading is `4n`.
#[test]
fn math_alloca_count_is_the_unsigned_reading() {
    let mut f = FnBuilder::new("f", &[i32t()], i32t());
    let e = f.block("entry");
    let p = f.param(0);
    let n = f.push(e, Op::Cast { op: CastOp::SExt, from_bits: 32, to_bits: 64, value: p });
    let size = f.push(e, bin(BinOp::Mul, 64, n, c(64, 4)));
    let a = f.push(e, Op::Alloca { elem_size: 1, count: size, count_bits: 64 });
    let last = f.push(e, Op::PtrAdd { base: a, offset: 3, indices: vec![], inbounds: true });
    f.push_void(e, Op::Store { ty: Type::Int(8), value: c(8, 1), ptr: last, size: 1 });
    f.term(e, Terminator::Ret(Some(c(32, 0))));
    let m = module(vec![f.finish()]);
    assert_eq!(run_with(&m, Math, &[1], vec![]).outcome, ret(0));
    // a negative count reads as a huge size: never a successful allocation
    assert!(matches!(run_with(&m, Math, &[-1], vec![]).outcome, Outcome::Unsupported(_)));
}

#[test]
fn nsw_overflow_is_poison_in_c_wraps_in_wrap_and_is_exact_in_math() {
    // Returning poison from the entry function is reported as undefined behaviour.
    assert!(is_ub(&eval(BinOp::Add, NSW, 32, MAX32, 1, C)));
    assert!(is_ub(&eval(BinOp::Mul, NSW, 32, 65536, 65536, C)));
    assert_eq!(eval(BinOp::Add, NSW, 32, MAX32, 1, Wrap), ret(MIN32));
    assert_eq!(eval(BinOp::Add, NSW, 32, MAX32, 1, Math), ret(MAX32 + 1));
    assert_eq!(eval(BinOp::Mul, NSW, 32, 65536, 65536, Math), ret(1 << 32));
    // No overflow: same result everywhere.
    for sem in [C, Wrap, Math] {
        assert_eq!(eval(BinOp::Sub, NSW, 32, -5, 7, sem), ret(-12));
    }
}

#[test]
fn nuw_and_exact_flags_in_c() {
    assert!(is_ub(&eval(BinOp::Sub, NUW, 32, 0, 1, C)));
    assert_eq!(eval(BinOp::Sub, NUW, 32, 0, 1, Wrap), ret(-1));
    assert!(is_ub(&eval(BinOp::SDiv, EXACT, 32, 7, 2, C)));
    assert_eq!(eval(BinOp::SDiv, EXACT, 32, 8, 2, C), ret(4));
    assert_eq!(eval(BinOp::SDiv, EXACT, 32, 7, 2, Wrap), ret(3));
}

#[test]
fn division_by_zero_is_undefined_in_every_mode() {
    for sem in [C, Wrap, Math] {
        for op in [BinOp::UDiv, BinOp::SDiv, BinOp::URem, BinOp::SRem] {
            assert!(is_ub(&eval(op, NONE, 32, 5, 0, sem)), "{op:?} {sem:?}");
        }
    }
}

#[test]
fn math_divisors_are_mathematical_values() {
    // d = 2^32 (nsw, exact in Math) is not zero although its low 32 bits are.
    let mut f = FnBuilder::new("f", &[i32t()], i32t());
    let e = f.block("entry");
    let p = f.param(0);
    let d = f.push(e, nsw(BinOp::Mul, 32, p, c(32, 65536)));
    let q = f.push(e, bin(BinOp::SDiv, 32, d, c(32, 65536)));
    let r = f.push(e, bin(BinOp::SDiv, 32, c(32, 7), q.clone()));
    f.term(e, Terminator::Ret(Some(r)));
    let m = module(vec![f.finish()]);
    let mut g = FnBuilder::new("g", &[i32t()], i32t());
    let e = g.block("entry");
    let p = g.param(0);
    let d = g.push(e, nsw(BinOp::Mul, 32, p, c(32, 65536)));
    let r = g.push(e, bin(BinOp::SDiv, 32, c(32, 7), d));
    g.term(e, Terminator::Ret(Some(r)));
    let mg = module(vec![g.finish()]);
    assert_eq!(run_with(&m, Math, &[65536], vec![]).outcome, ret(0));
    assert_eq!(run_with(&mg, Math, &[65536], vec![]).outcome, ret(0));
    assert!(is_ub(&run_with(&mg, Wrap, &[65536], vec![]).outcome));
}

#[test]
fn signed_division_overflow() {
    assert!(is_ub(&eval(BinOp::SDiv, NONE, 32, MIN32, -1, C)));
    assert!(is_ub(&eval(BinOp::SRem, NONE, 32, MIN32, -1, Wrap)));
    assert_eq!(eval(BinOp::SDiv, NONE, 32, MIN32, -1, Math), ret(MAX32 + 1));
    assert_eq!(eval(BinOp::SDiv, NONE, 32, -7, 2, C), ret(-3));
    assert_eq!(eval(BinOp::SRem, NONE, 32, -7, 2, C), ret(-1));
    assert_eq!(eval(BinOp::UDiv, NONE, 32, -1, 2, C), ret(MAX32));
    assert_eq!(eval(BinOp::URem, NONE, 8, -1, 10, Math), ret(5));
}

#[test]
fn shifts() {
    for sem in [C, Wrap, Math] {
        assert!(is_ub(&eval(BinOp::Shl, NONE, 32, 1, 32, sem)), "{sem:?}");
        assert!(is_ub(&eval(BinOp::LShr, NONE, 32, 1, -1, sem)), "{sem:?}");
        assert_eq!(eval(BinOp::LShr, NONE, 32, -1, 28, sem), ret(15));
        assert_eq!(eval(BinOp::AShr, NONE, 32, -16, 2, sem), ret(-4));
    }
    for sem in [C, Wrap] {
        assert_eq!(eval(BinOp::Shl, NONE, 32, 3, 31, sem), ret(MIN32));
    }
    assert!(is_ub(&eval(BinOp::Shl, NSW, 32, 3, 30, C)));
    assert_eq!(eval(BinOp::Shl, NSW, 32, 3, 30, Math), ret(3 << 30));
    assert_eq!(eval(BinOp::Shl, NSW, 32, -1, 31, C), ret(MIN32));
}

#[test]
fn bitwise_operations() {
    assert_eq!(eval(BinOp::And, NONE, 32, -1, 0xf0, C), ret(0xf0));
    assert_eq!(eval(BinOp::Or, NONE, 8, 0x80, 1, C), ret(-127));
    assert_eq!(eval(BinOp::Xor, NONE, 1, -1, -1, C), ret(0));
    let disjoint = ArithFlags { disjoint: true, ..NONE };
    assert!(is_ub(&eval(BinOp::Or, disjoint, 32, 3, 1, C)));
}

/// `f(a, b) = (a pred b) ? 1 : 0` via select.
fn cmp(pred: IntPred, bits: u32, a: i128, b: i128, sem: IntSemantics) -> Outcome {
    let mut f = FnBuilder::new("f", &[Type::Int(bits), Type::Int(bits)], i32t());
    let e = f.block("entry");
    let (x, y) = (f.param(0), f.param(1));
    let c0 = f.push(e, icmp(pred, bits, x, y));
    let r = f.push(e, Op::Select { cond: c0, then_value: c(32, 1), else_value: c(32, 0), ty: i32t() });
    f.term(e, Terminator::Ret(Some(r)));
    run_with(&module(vec![f.finish()]), sem, &[a, b], vec![]).outcome
}

#[test]
fn comparisons_signed_and_unsigned() {
    for sem in [C, Wrap, Math] {
        assert_eq!(cmp(IntPred::Ugt, 32, -1, 0, sem), ret(1));
        assert_eq!(cmp(IntPred::Sgt, 32, -1, 0, sem), ret(0));
        assert_eq!(cmp(IntPred::Ule, 8, 255, 0, sem), ret(0));
        assert_eq!(cmp(IntPred::Eq, 32, 4, 4, sem), ret(1));
    }
}

#[test]
fn math_values_compare_mathematically_and_unsigned_reduces() {
    // x = INT_MAX + 1 (nsw, exact in Math); then x > INT_MAX signed and x == 2^31 unsigned-reduced.
    let mut f = FnBuilder::new("f", &[i32t()], i32t());
    let e = f.block("entry");
    let p = f.param(0);
    let x = f.push(e, nsw(BinOp::Add, 32, p, c(32, 1)));
    let gt = f.push(e, icmp(IntPred::Sgt, 32, x.clone(), c(32, MAX32)));
    let ult = f.push(e, icmp(IntPred::Ult, 32, x, c(32, 0)));
    let z1 = f.push(e, Op::Cast { op: CastOp::ZExt, from_bits: 1, to_bits: 32, value: gt });
    let z2 = f.push(e, Op::Cast { op: CastOp::ZExt, from_bits: 1, to_bits: 32, value: ult });
    let two = f.push(e, bin(BinOp::Shl, 32, z1, c(32, 1)));
    let r = f.push(e, bin(BinOp::Or, 32, two, z2));
    f.term(e, Terminator::Ret(Some(r)));
    let m = module(vec![f.finish()]);
    assert_eq!(run_with(&m, Math, &[MAX32], vec![]).outcome, ret(2));
    assert_eq!(run_with(&m, Wrap, &[MAX32], vec![]).outcome, ret(0));
    assert!(is_ub(&run_with(&m, C, &[MAX32], vec![]).outcome));
}

fn cast_of(op: CastOp, from: u32, to: u32, a: i128, sem: IntSemantics) -> Outcome {
    let mut f = FnBuilder::new("f", &[Type::Int(from)], Type::Int(to));
    let e = f.block("entry");
    let p = f.param(0);
    let r = f.push(e, Op::Cast { op, from_bits: from, to_bits: to, value: p });
    f.term(e, Terminator::Ret(Some(r)));
    run_with(&module(vec![f.finish()]), sem, &[a], vec![]).outcome
}

#[test]
fn casts() {
    for sem in [C, Wrap, Math] {
        assert_eq!(cast_of(CastOp::Trunc, 32, 8, 0x1ff, sem), ret(-1));
        assert_eq!(cast_of(CastOp::ZExt, 8, 32, -1, sem), ret(255));
        assert_eq!(cast_of(CastOp::SExt, 8, 32, -1, sem), ret(-1));
        assert_eq!(cast_of(CastOp::ZExt, 1, 32, -1, sem), ret(1));
    }
}

#[test]
fn poison_is_harmless_until_used() {
    // y = MAX + 1 (nsw) is poison, but unused: the run returns normally.
    let mut f = FnBuilder::new("f", &[i32t()], i32t());
    let e = f.block("entry");
    let p = f.param(0);
    let _y = f.push(e, nsw(BinOp::Add, 32, p, c(32, 1)));
    f.term(e, Terminator::Ret(Some(c(32, 0))));
    assert_eq!(run_with(&module(vec![f.finish()]), C, &[MAX32], vec![]).outcome, ret(0));
}

#[test]
fn branch_on_poison_is_undefined_behaviour() {
    let mut f = FnBuilder::new("f", &[i32t()], i32t());
    let e = f.block("entry");
    let t = f.block("then");
    let p = f.param(0);
    let y = f.push(e, nsw(BinOp::Add, 32, p, c(32, 1)));
    let cnd = f.push(e, icmp(IntPred::Sgt, 32, y, c(32, 0)));
    f.term(e, Terminator::CondBr { cond: cnd, then_block: t, else_block: t });
    f.term(t, Terminator::Ret(Some(c(32, 0))));
    let m = module(vec![f.finish()]);
    assert!(is_ub(&run_with(&m, C, &[MAX32], vec![]).outcome));
    assert_eq!(run_with(&m, C, &[5], vec![]).outcome, ret(0));
    assert_eq!(run_with(&m, Wrap, &[MAX32], vec![]).outcome, ret(0));
}

#[test]
fn freeze_turns_poison_into_an_input() {
    let mut f = FnBuilder::new("f", &[i32t()], i32t());
    let e = f.block("entry");
    let p = f.param(0);
    let y = f.push(e, nsw(BinOp::Add, 32, p, c(32, 1)));
    let z = f.push(e, Op::Freeze { ty: i32t(), value: y });
    f.term(e, Terminator::Ret(Some(z)));
    let r = run_with(&module(vec![f.finish()]), C, &[MAX32], vec![42]);
    assert_eq!(r.outcome, ret(42));
    assert_eq!(r.trace_inputs, vec![("freeze".to_string(), 42)]);
}

#[test]
fn wide_integers_are_unsupported() {
    assert!(matches!(eval(BinOp::Add, NONE, 128, 1, 1, C), Outcome::Unsupported(_)));
}
