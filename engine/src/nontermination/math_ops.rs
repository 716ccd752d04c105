//! The integer operations of `--int-semantics math` as exact `logic` terms (the table of
//! `interp/SEMANTICS.md`, "Math"; each function mirrors `interp::arith` and is tested
//! against it): a value is a mathematical integer, `ũ(x)` its unsigned reading, `R(e)` the
//! result of flag-less arithmetic.

use crate::ir::{ArithFlags, BinOp, CastOp, IntPred};
use crate::logic::{Formula, Int, Term};

/// Why an operation has no exact integer encoding here.
#[derive(Clone, PartialEq, Eq, Debug, thiserror::Error)]
#[error("not encodable over mathematical integers: {0}")]
pub struct NotEncodable(pub String);

/// `2^k` (`k ≤ 64`).
pub fn pow2(k: u32) -> Int {
    1i128 << k
}

fn c(v: Int) -> Term {
    Term::Const(v)
}

/// C's two's complement wrap of `e` into the signed range of `w` bits: `s(e)`.
pub fn wrap_signed(e: Term, w: u32) -> Term {
    let half = pow2(w - 1);
    Term::sub(Term::Mod(Box::new(Term::add(e, c(half))), Box::new(c(pow2(w)))), c(half))
}

/// The unsigned reading `ũ(x)`: `x` if `x ≥ 0`, else `x mod 2^w`.
pub fn unsigned_reading(x: Term, w: u32) -> Term {
    Term::Ite(Box::new(Formula::ge(x.clone(), c(0))), Box::new(x.clone()), Box::new(Term::Mod(Box::new(x), Box::new(c(pow2(w))))))
}

/// `R(e)`: `e` when `e ≥ 2^w`, otherwise `s(e)`.
pub fn reduce(e: Term, w: u32) -> Term {
    Term::Ite(Box::new(Formula::ge(e.clone(), c(pow2(w)))), Box::new(e.clone()), Box::new(wrap_signed(e, w)))
}

fn abs(x: Term) -> Term {
    Term::Ite(Box::new(Formula::ge(x.clone(), c(0))), Box::new(x.clone()), Box::new(Term::Neg(Box::new(x))))
}

/// Truncating division (C's `/`) of mathematical integers, for `b ≠ 0`.
pub fn trunc_div(a: Term, b: Term) -> Term {
    let q = Term::Div(Box::new(abs(a.clone())), Box::new(abs(b.clone())));
    let same_sign = Formula::or([
        Formula::and([Formula::ge(a.clone(), c(0)), Formula::gt(b.clone(), c(0))]),
        Formula::and([Formula::lt(a, c(0)), Formula::lt(b, c(0))]),
    ]);
    Term::Ite(Box::new(same_sign), Box::new(q.clone()), Box::new(Term::Neg(Box::new(q))))
}

/// The result of `a op b` on `w`-bit operands and the condition under which the operation is
/// undefined behaviour or creates poison (division by zero, shift amount ≥ `w`).
pub fn binary(op: BinOp, flags: ArithFlags, w: u32, a: Term, b: Term) -> Result<(Term, Formula), NotEncodable> {
    let exact = flags.nsw;
    Ok(match op {
        BinOp::Add if exact => (Term::add(a, b), Formula::False),
        BinOp::Sub if exact => (Term::sub(a, b), Formula::False),
        BinOp::Mul if exact => (Term::mul(a, b), Formula::False),
        BinOp::Add => (reduce(Term::add(a, b), w), Formula::False),
        BinOp::Sub => (reduce(Term::sub(a, b), w), Formula::False),
        BinOp::Mul => (reduce(Term::mul(a, b), w), Formula::False),
        BinOp::UDiv | BinOp::URem => {
            let (ua, ub) = (unsigned_reading(a, w), unsigned_reading(b, w));
            let ub_cond = Formula::eq(ub.clone(), c(0));
            // Both readings are non-negative: Euclidean division is C's.
            let e = if op == BinOp::UDiv { Term::Div(Box::new(ua), Box::new(ub)) } else { Term::Mod(Box::new(ua), Box::new(ub)) };
            (reduce(e, w), ub_cond)
        }
        BinOp::SDiv | BinOp::SRem => {
            let ub_cond = Formula::eq(b.clone(), c(0));
            let q = trunc_div(a.clone(), b.clone());
            let r = if op == BinOp::SDiv { q } else { Term::sub(a, Term::mul(b, q)) };
            (r, ub_cond)
        }
        BinOp::Shl | BinOp::LShr | BinOp::AShr => {
            let Term::Const(k) = b else { return Err(NotEncodable("shift by a variable amount".into())) };
            let amount = if k >= 0 { k } else { k.rem_euclid(pow2(w)) };
            if amount >= w as Int {
                // The interpreter makes poison: the safe side for a NO is to call it UB.
                return Ok((c(0), Formula::True));
            }
            let k = amount as u32;
            let r = match op {
                BinOp::Shl if exact => Term::scale(pow2(k), a),
                BinOp::Shl => reduce(Term::scale(pow2(k), a), w),
                BinOp::LShr => reduce(Term::Div(Box::new(unsigned_reading(a, w)), Box::new(c(pow2(k)))), w),
                _ => Term::Div(Box::new(a), Box::new(c(pow2(k)))),
            };
            (r, Formula::False)
        }
        BinOp::And => match (&a, &b) {
            // A low-bit mask on the infinite two's complement expansion is `mod 2^k`.
            (x, Term::Const(m)) | (Term::Const(m), x) if *m > 0 && (m + 1) & m == 0 => {
                (Term::Mod(Box::new(x.clone()), Box::new(c(m + 1))), Formula::False)
            }
            _ => return Err(NotEncodable("bitwise and of non-mask operands".into())),
        },
        BinOp::Or | BinOp::Xor => return Err(NotEncodable(format!("bitwise {op:?} of integers"))),
    })
}

/// `icmp pred a b` on `w`-bit operands (mathematical values; unsigned readings for `u*`).
pub fn compare(pred: IntPred, w: u32, a: Term, b: Term) -> Formula {
    let u = |x: Term| unsigned_reading(x, w);
    match pred {
        IntPred::Eq => Formula::eq(a, b),
        IntPred::Ne => Formula::ne(a, b),
        IntPred::Slt => Formula::lt(a, b),
        IntPred::Sle => Formula::le(a, b),
        IntPred::Sgt => Formula::gt(a, b),
        IntPred::Sge => Formula::ge(a, b),
        IntPred::Ult => Formula::lt(u(a), u(b)),
        IntPred::Ule => Formula::le(u(a), u(b)),
        IntPred::Ugt => Formula::gt(u(a), u(b)),
        IntPred::Uge => Formula::ge(u(a), u(b)),
    }
}

/// An integer cast from `from` to `to` bits.
pub fn cast(op: CastOp, from: u32, to: u32, x: Term) -> Result<Term, NotEncodable> {
    Ok(match op {
        CastOp::Trunc => wrap_signed(x, to),
        CastOp::ZExt => unsigned_reading(x, from),
        CastOp::SExt => x,
        CastOp::BitCast if from == to => x,
        other => return Err(NotEncodable(format!("cast {other:?}"))),
    })
}

/// The branch condition on an integer: the interpreter tests the low bit.
pub fn low_bit(x: Term) -> Formula {
    Formula::eq(Term::Mod(Box::new(x), Box::new(c(2))), c(1))
}

/// The integer value of a boolean as an `i1` register holds it (true is `-1`).
pub fn bool_value(f: Formula) -> Term {
    Term::Ite(Box::new(f), Box::new(c(-1)), Box::new(c(0)))
}
