//! The integer operations of the replay interpreter (`replay_math.rs`) over unbounded
//! integers, one function per row group of the table in engine/src/interp/SEMANTICS.md
//! ("Integer operations per `IntSemantics`"): a second implementation of that table, written
//! from the document, not from the engine's interpreter.
//!
//! Values are mathematical integers. Under `c` and `wrap` every register value is canonical
//! (the two's complement reading `s(x)` of its width); under `math` a value may lie outside
//! its width's range (only `nsw` arithmetic, signed division, `ashr` and flag-less results
//! `≥ 2^w` leave it).

use num_bigint::BigInt;
use num_traits::{Euclid, One, Signed, ToPrimitive, Zero};
use termcheck_engine::ir::{ArithFlags, BinOp, CastOp, IntPred};
use termcheck_engine::verdict::IntSemantics;

/// The interpreter's integers.
pub type Num = BigInt;

/// A register value: an integer or LLVM's poison.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Val {
    Int(Num),
    Poison,
}

/// Immediate undefined behaviour of an operation (division by zero, `MIN / -1`), with what
/// happened.
#[derive(Debug, PartialEq, Eq)]
pub struct Ub(pub String);

/// `2^w`.
pub fn pow2(w: u32) -> Num {
    Num::one() << w as usize
}

/// `s(x)`: the two's complement reading of `x mod 2^w`, in `[-2^(w-1), 2^(w-1))`.
pub fn signed(x: &Num, w: u32) -> Num {
    let m = unsigned(x, w);
    if m >= pow2(w - 1) {
        m - pow2(w)
    } else {
        m
    }
}

/// `u(x)`: `x mod 2^w`, in `[0, 2^w)`.
pub fn unsigned(x: &Num, w: u32) -> Num {
    x.rem_euclid(&pow2(w))
}

/// `ũ(x)` of `math`: a non-negative value as it is, a negative one modulo `2^w`.
pub fn math_unsigned(x: &Num, w: u32) -> Num {
    if x.is_negative() {
        unsigned(x, w)
    } else {
        x.clone()
    }
}

/// `R(e)` of `math`: `e` when `e ≥ 2^w` (an unsigned result is never reduced from above),
/// else C's wrapped value `s(e)`.
pub fn math_reduce(e: Num, w: u32) -> Num {
    if e >= pow2(w) {
        e
    } else {
        signed(&e, w)
    }
}

/// A shift amount that is at least the width (poison), else the amount.
fn shift_amount(b: &Num, w: u32) -> Option<usize> {
    b.to_u32().filter(|k| *k < w).map(|k| k as usize)
}

/// `a op b` on `bits`-wide operands. `Ok(Val::Poison)` where the table says poison;
/// `Err` for immediate undefined behaviour.
pub fn binary(op: BinOp, flags: ArithFlags, bits: u32, a: &Num, b: &Num, sem: IntSemantics) -> Result<Val, Ub> {
    match sem {
        IntSemantics::Math => mathematical(op, flags, bits, a, b),
        IntSemantics::C | IntSemantics::Wrap => fixed_width(op, flags, bits, a, b, sem == IntSemantics::C),
    }
}

/// Columns `c` (`checked`: the poison flags count) and `wrap` (flags ignored, but an
/// over-wide shift is still poison and division faults are still undefined).
fn fixed_width(op: BinOp, flags: ArithFlags, w: u32, a: &Num, b: &Num, checked: bool) -> Result<Val, Ub> {
    let (sa, sb) = (signed(a, w), signed(b, w));
    let (ua, ub) = (unsigned(a, w), unsigned(b, w));
    let poison_if = |p: bool, v: Num| if checked && p { Val::Poison } else { Val::Int(v) };
    Ok(match op {
        BinOp::Add | BinOp::Sub | BinOp::Mul => {
            let (e, ue) = match op {
                BinOp::Add => (&sa + &sb, &ua + &ub),
                BinOp::Sub => (&sa - &sb, &ua - &ub),
                _ => (&sa * &sb, &ua * &ub),
            };
            let wrapped = signed(&e, w);
            let overflow = (flags.nsw && wrapped != e) || (flags.nuw && (ue.is_negative() || ue >= pow2(w)));
            poison_if(overflow, wrapped)
        }
        BinOp::UDiv | BinOp::URem => {
            if ub.is_zero() {
                return Err(Ub(format!("{op:?} by zero")));
            }
            let (q, r) = (&ua / &ub, &ua % &ub);
            let inexact = flags.exact && op == BinOp::UDiv && !r.is_zero();
            poison_if(inexact, signed(if op == BinOp::UDiv { &q } else { &r }, w))
        }
        BinOp::SDiv | BinOp::SRem => {
            if sb.is_zero() {
                return Err(Ub(format!("{op:?} by zero")));
            }
            if sa == -pow2(w - 1) && sb == -Num::one() {
                return Err(Ub(format!("{op:?} of the minimum by -1")));
            }
            // BigInt's `/` and `%` truncate toward zero, as LLVM's signed division does
            let (q, r) = (&sa / &sb, &sa % &sb);
            let inexact = flags.exact && op == BinOp::SDiv && !r.is_zero();
            poison_if(inexact, if op == BinOp::SDiv { q } else { r })
        }
        BinOp::Shl | BinOp::LShr | BinOp::AShr => {
            let Some(k) = shift_amount(&ub, w) else { return Ok(Val::Poison) };
            match op {
                BinOp::Shl => {
                    let e = &sa << k;
                    let wrapped = signed(&e, w);
                    let overflow = (flags.nsw && wrapped != e) || (flags.nuw && (&ua << k) >= pow2(w));
                    poison_if(overflow, wrapped)
                }
                BinOp::LShr => poison_if(flags.exact && !(&ua % pow2(k as u32)).is_zero(), signed(&(&ua >> k), w)),
                _ => poison_if(flags.exact && !sa.rem_euclid(&pow2(k as u32)).is_zero(), sa.div_euclid(&pow2(k as u32))),
            }
        }
        BinOp::And => Val::Int(signed(&(&sa & &sb), w)),
        BinOp::Or => poison_if(flags.disjoint && !(&sa & &sb).is_zero(), signed(&(&sa | &sb), w)),
        BinOp::Xor => Val::Int(signed(&(&sa ^ &sb), w)),
    })
}

/// Column `math`.
fn mathematical(op: BinOp, flags: ArithFlags, w: u32, a: &Num, b: &Num) -> Result<Val, Ub> {
    let (ua, ub) = (math_unsigned(a, w), math_unsigned(b, w));
    Ok(Val::Int(match op {
        BinOp::Add if flags.nsw => a + b,
        BinOp::Sub if flags.nsw => a - b,
        BinOp::Mul if flags.nsw => a * b,
        BinOp::Add => math_reduce(a + b, w),
        BinOp::Sub => math_reduce(a - b, w),
        BinOp::Mul => math_reduce(a * b, w),
        BinOp::UDiv | BinOp::URem => {
            if ub.is_zero() {
                return Err(Ub(format!("{op:?} by zero")));
            }
            math_reduce(if op == BinOp::UDiv { &ua / &ub } else { &ua % &ub }, w)
        }
        BinOp::SDiv | BinOp::SRem => {
            if b.is_zero() {
                return Err(Ub(format!("{op:?} by zero")));
            }
            if op == BinOp::SDiv {
                a / b
            } else {
                a % b
            }
        }
        BinOp::Shl | BinOp::LShr | BinOp::AShr => {
            let Some(k) = shift_amount(&ub, w) else { return Ok(Val::Poison) };
            match op {
                BinOp::Shl if flags.nsw => a << k,
                BinOp::Shl => math_reduce(a << k, w),
                BinOp::LShr => math_reduce(&ua >> k, w),
                _ => a.div_euclid(&pow2(k as u32)),
            }
        }
        // num-bigint's bitwise operations act on the infinite two's complement expansion
        BinOp::And => a & b,
        BinOp::Or => a | b,
        BinOp::Xor => a ^ b,
    }))
}

/// `icmp pred a b` on `bits`-wide operands.
pub fn compare(pred: IntPred, w: u32, a: &Num, b: &Num, sem: IntSemantics) -> bool {
    let math = sem == IntSemantics::Math;
    let (sa, sb) = if math { (a.clone(), b.clone()) } else { (signed(a, w), signed(b, w)) };
    let (ua, ub) = if math { (math_unsigned(a, w), math_unsigned(b, w)) } else { (unsigned(a, w), unsigned(b, w)) };
    match pred {
        IntPred::Eq => sa == sb,
        IntPred::Ne => sa != sb,
        IntPred::Sgt => sa > sb,
        IntPred::Sge => sa >= sb,
        IntPred::Slt => sa < sb,
        IntPred::Sle => sa <= sb,
        IntPred::Ugt => ua > ub,
        IntPred::Uge => ua >= ub,
        IntPred::Ult => ua < ub,
        IntPred::Ule => ua <= ub,
    }
}

/// A cast of `x` from `from` to `to` bits.
pub fn cast(op: CastOp, from: u32, to: u32, x: &Num, sem: IntSemantics) -> Num {
    let math = sem == IntSemantics::Math;
    match op {
        CastOp::Trunc | CastOp::PtrToInt => signed(x, to),
        CastOp::ZExt if math => math_unsigned(x, from),
        CastOp::ZExt | CastOp::IntToPtr => unsigned(x, from),
        CastOp::SExt if math => x.clone(),
        CastOp::SExt => signed(x, from),
        CastOp::BitCast => x.clone(),
    }
}

/// `llvm.smax/smin/umax/umin` (the chosen operand) and `llvm.abs` (`poison_on_min`: its
/// flag), by the intrinsic's base name; `None` for other names.
pub fn intrinsic(name: &str, w: u32, a: &Num, b: &Num, sem: IntSemantics) -> Option<Val> {
    let pick = |first: bool| Val::Int(if first { a.clone() } else { b.clone() });
    Some(match name {
        "smax" => pick(compare(IntPred::Sge, w, a, b, sem)),
        "smin" => pick(compare(IntPred::Sle, w, a, b, sem)),
        "umax" => pick(compare(IntPred::Uge, w, a, b, sem)),
        "umin" => pick(compare(IntPred::Ule, w, a, b, sem)),
        "abs" if sem == IntSemantics::Math => Val::Int(a.abs()),
        "abs" => {
            let sa = signed(a, w);
            if sa == -pow2(w - 1) {
                // `b` is the `is_int_min_poison` flag
                if !b.is_zero() && sem == IntSemantics::C {
                    Val::Poison
                } else {
                    Val::Int(sa)
                }
            } else {
                Val::Int(sa.abs())
            }
        }
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn n(x: i64) -> Num {
        Num::from(x)
    }
    const NSW: ArithFlags = ArithFlags { nsw: true, nuw: false, exact: false, disjoint: false };
    const NONE: ArithFlags = ArithFlags { nsw: false, nuw: false, exact: false, disjoint: false };

    #[test]
    fn readings_of_a_width() {
        assert_eq!(signed(&n(255), 8), n(-1));
        assert_eq!(unsigned(&n(-1), 8), n(255));
        assert_eq!(math_unsigned(&n(300), 8), n(300));
        assert_eq!(math_reduce(n(256), 8), n(256));
        assert_eq!(math_reduce(n(-1), 8), n(-1));
        assert_eq!(math_reduce(n(200), 8), n(-56));
    }

    #[test]
    fn signed_overflow_is_poison_under_c_wraps_under_wrap_and_is_exact_under_math() {
        let max = n(i32::MAX as i64);
        assert_eq!(binary(BinOp::Add, NSW, 32, &max, &n(1), IntSemantics::C), Ok(Val::Poison));
        assert_eq!(binary(BinOp::Add, NSW, 32, &max, &n(1), IntSemantics::Wrap), Ok(Val::Int(n(i32::MIN as i64))));
        assert_eq!(binary(BinOp::Add, NSW, 32, &max, &n(1), IntSemantics::Math), Ok(Val::Int(n(1 << 31))));
    }

    #[test]
    fn flagless_math_arithmetic_keeps_results_above_the_width_and_wraps_below_zero() {
        assert_eq!(binary(BinOp::Mul, NONE, 8, &n(100), &n(3), IntSemantics::Math), Ok(Val::Int(n(300))));
        assert_eq!(binary(BinOp::Sub, NONE, 8, &n(0), &n(1), IntSemantics::Math), Ok(Val::Int(n(-1))));
    }

    #[test]
    fn division_by_zero_and_min_by_minus_one_are_undefined() {
        assert!(binary(BinOp::SDiv, NONE, 32, &n(1), &n(0), IntSemantics::Math).is_err());
        assert!(binary(BinOp::SDiv, NONE, 32, &n(i32::MIN as i64), &n(-1), IntSemantics::C).is_err());
        assert_eq!(binary(BinOp::SDiv, NONE, 32, &n(i32::MIN as i64), &n(-1), IntSemantics::Math), Ok(Val::Int(n(1 << 31))));
        assert_eq!(binary(BinOp::SRem, NONE, 32, &n(-7), &n(2), IntSemantics::C), Ok(Val::Int(n(-1))));
    }

    #[test]
    fn shifts_past_the_width_are_poison_and_ashr_floors() {
        assert_eq!(binary(BinOp::Shl, NONE, 32, &n(1), &n(32), IntSemantics::Math), Ok(Val::Poison));
        assert_eq!(binary(BinOp::AShr, NONE, 32, &n(-3), &n(1), IntSemantics::C), Ok(Val::Int(n(-2))));
        assert_eq!(binary(BinOp::LShr, NONE, 8, &n(-1), &n(4), IntSemantics::C), Ok(Val::Int(n(15))));
    }

    #[test]
    fn comparisons_read_unsigned_operands_modulo_the_width() {
        assert!(compare(IntPred::Ugt, 32, &n(-1), &n(5), IntSemantics::C));
        assert!(compare(IntPred::Ugt, 32, &n(-1), &n(5), IntSemantics::Math));
        assert!(compare(IntPred::Sgt, 32, &n(1 << 40), &n(5), IntSemantics::Math));
        assert!(!compare(IntPred::Sgt, 32, &n(1 << 40), &n(5), IntSemantics::C));
    }

    #[test]
    fn casts() {
        assert_eq!(cast(CastOp::ZExt, 1, 32, &n(-1), IntSemantics::C), n(1));
        assert_eq!(cast(CastOp::Trunc, 32, 8, &n(257), IntSemantics::Math), n(1));
        assert_eq!(cast(CastOp::SExt, 32, 64, &n(1 << 40), IntSemantics::Math), n(1 << 40));
        assert_eq!(cast(CastOp::ZExt, 32, 64, &n(-1), IntSemantics::Math), n(u32::MAX as i64));
    }
}
