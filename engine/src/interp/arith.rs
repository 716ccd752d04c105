//! Integer operations (`Bin`, `ICmp`, casts, min/max intrinsics) under the three
//! `IntSemantics`; the per-mode rules are written down in SEMANTICS.md.

use super::fault::Fault;
use super::value::{math_reduce, math_unsigned, signed_min, to_unsigned, wrap_signed, Value, MAX_BITS};
use crate::ir::externals::MinMax;
use crate::ir::{ArithFlags, BinOp, CastOp, IntPred};
use crate::verdict::IntSemantics;

fn check_width(bits: u32) -> Result<(), Fault> {
    if bits == 0 || bits > MAX_BITS {
        return Err(Fault::unsupported(format!("integer width {bits} (only 1..=64 bits are interpreted)")));
    }
    Ok(())
}

fn exact(v: Option<i128>, what: &str) -> Result<i128, Fault> {
    v.ok_or_else(|| Fault::unsupported(format!("mathematical {what} result beyond i128")))
}

/// `lhs op rhs` on `bits`-wide integers.
pub fn binary(op: BinOp, flags: ArithFlags, bits: u32, lhs: Value, rhs: Value, sem: IntSemantics) -> Result<Value, Fault> {
    check_width(bits)?;
    let divides = matches!(op, BinOp::UDiv | BinOp::SDiv | BinOp::URem | BinOp::SRem);
    if divides {
        // Division by a poison divisor may divide by zero: immediate UB in LLVM.
        if rhs.poison {
            return Err(Fault::ub("division by a poison value"));
        }
        // Signed division in `Math` mode divides the mathematical values; everything else
        // divides by the divisor's bit pattern.
        let signed_math = sem == IntSemantics::Math && matches!(op, BinOp::SDiv | BinOp::SRem);
        let divisor = if signed_math {
            rhs.int
        } else if sem == IntSemantics::Math {
            math_unsigned(rhs.int, bits)
        } else {
            to_unsigned(rhs.int, bits)
        };
        if divisor == 0 {
            return Err(Fault::ub("division by zero"));
        }
    }
    if lhs.poison || rhs.poison {
        return Ok(Value::poison());
    }
    match sem {
        IntSemantics::C => bit_vector(op, flags, bits, lhs.int, rhs.int),
        IntSemantics::Wrap => bit_vector(op, ArithFlags::default(), bits, lhs.int, rhs.int),
        IntSemantics::Math => mathematical(op, flags, bits, lhs.int, rhs.int),
    }
}

/// LLVM's bit-vector semantics; violated flags give poison.
fn bit_vector(op: BinOp, flags: ArithFlags, bits: u32, a: i128, b: i128) -> Result<Value, Fault> {
    let (a, b) = (wrap_signed(a, bits), wrap_signed(b, bits));
    let (ua, ub) = (to_unsigned(a, bits), to_unsigned(b, bits));
    let limit = 1i128 << bits;
    let value = |exact: i128, unsigned_exact: i128| {
        let wrapped = wrap_signed(exact, bits);
        let poison = (flags.nsw && wrapped != exact) || (flags.nuw && !(0..limit).contains(&unsigned_exact));
        if poison { Value::poison() } else { Value::int(wrapped) }
    };
    Ok(match op {
        BinOp::Add => value(a + b, ua + ub),
        BinOp::Sub => value(a - b, ua - ub),
        BinOp::Mul => value(a * b, ua.checked_mul(ub).unwrap_or(limit)),
        BinOp::UDiv | BinOp::URem => {
            let (q, r) = (ua / ub, ua % ub);
            if flags.exact && r != 0 {
                Value::poison()
            } else {
                Value::int(wrap_signed(if op == BinOp::UDiv { q } else { r }, bits))
            }
        }
        BinOp::SDiv | BinOp::SRem => {
            if a == signed_min(bits) && b == -1 {
                return Err(Fault::ub("signed division overflow (MIN / -1)"));
            }
            let (q, r) = (a / b, a % b);
            if flags.exact && r != 0 {
                Value::poison()
            } else {
                Value::int(if op == BinOp::SDiv { q } else { r })
            }
        }
        BinOp::Shl | BinOp::LShr | BinOp::AShr => {
            if ub >= bits as i128 {
                return Ok(Value::poison());
            }
            let k = ub as u32;
            match op {
                BinOp::Shl => {
                    let r = wrap_signed(a << k, bits);
                    let poison = (flags.nsw && (r >> k) != a) || (flags.nuw && (to_unsigned(r, bits) >> k) != ua);
                    if poison { Value::poison() } else { Value::int(r) }
                }
                BinOp::LShr => {
                    if flags.exact && (ua & ((1i128 << k) - 1)) != 0 { Value::poison() } else { Value::int(wrap_signed(ua >> k, bits)) }
                }
                _ => {
                    if flags.exact && (ua & ((1i128 << k) - 1)) != 0 { Value::poison() } else { Value::int(a >> k) }
                }
            }
        }
        BinOp::And => Value::int(a & b),
        BinOp::Or => {
            if flags.disjoint && (a & b) != 0 { Value::poison() } else { Value::int(a | b) }
        }
        BinOp::Xor => Value::int(a ^ b),
    })
}

/// `Math` mode: `nsw` operations, signed division and `ashr` are exact on mathematical
/// integers; flag-less `add/sub/mul/shl` and `udiv/urem/lshr` compute the exact result `e` on
/// the operands' values (unsigned readings for the unsigned operations) and keep it when
/// `e ≥ 2^w`, else wrap it like C (`math_reduce`, see SEMANTICS.md).
fn mathematical(op: BinOp, flags: ArithFlags, bits: u32, a: i128, b: i128) -> Result<Value, Fault> {
    let reduce = |v: Option<i128>, what: &str| -> Result<Value, Fault> { Ok(Value::int(math_reduce(exact(v, what)?, bits))) };
    let (ua, ub) = (math_unsigned(a, bits), math_unsigned(b, bits));
    Ok(match op {
        BinOp::Add if flags.nsw => Value::int(exact(a.checked_add(b), "addition")?),
        BinOp::Sub if flags.nsw => Value::int(exact(a.checked_sub(b), "subtraction")?),
        BinOp::Mul if flags.nsw => Value::int(exact(a.checked_mul(b), "multiplication")?),
        BinOp::Add => reduce(a.checked_add(b), "addition")?,
        BinOp::Sub => reduce(a.checked_sub(b), "subtraction")?,
        BinOp::Mul => reduce(a.checked_mul(b), "multiplication")?,
        BinOp::UDiv => reduce(ua.checked_div(ub), "division")?,
        BinOp::URem => reduce(ua.checked_rem(ub), "remainder")?,
        BinOp::SDiv => Value::int(exact(a.checked_div(b), "division")?),
        BinOp::SRem => Value::int(exact(a.checked_rem(b), "remainder")?),
        BinOp::Shl | BinOp::LShr | BinOp::AShr => {
            if ub >= bits as i128 {
                return Ok(Value::poison());
            }
            let k = ub as u32;
            match op {
                BinOp::Shl if flags.nsw => Value::int(exact(a.checked_mul(1i128 << k), "shift")?),
                BinOp::Shl => reduce(a.checked_mul(1i128 << k), "shift")?,
                BinOp::LShr => reduce(Some(ua >> k), "shift")?,
                _ => Value::int(a >> k),
            }
        }
        // Bitwise operations on the infinite two's complement expansion of the values.
        BinOp::And => Value::int(a & b),
        BinOp::Or => Value::int(a | b),
        BinOp::Xor => Value::int(a ^ b),
    })
}

/// `icmp pred lhs rhs` on `bits`-wide operands; poison operands give a poison i1.
pub fn compare(pred: IntPred, bits: u32, lhs: Value, rhs: Value, sem: IntSemantics) -> Result<Value, Fault> {
    check_width(bits)?;
    if lhs.poison || rhs.poison {
        return Ok(Value::poison());
    }
    let (a, b) = match sem {
        IntSemantics::Math => (lhs.int, rhs.int),
        _ => (wrap_signed(lhs.int, bits), wrap_signed(rhs.int, bits)),
    };
    let (ua, ub) = (math_unsigned(a, bits), math_unsigned(b, bits));
    Ok(Value::bool(match pred {
        IntPred::Eq => a == b,
        IntPred::Ne => a != b,
        IntPred::Sgt => a > b,
        IntPred::Sge => a >= b,
        IntPred::Slt => a < b,
        IntPred::Sle => a <= b,
        IntPred::Ugt => ua > ub,
        IntPred::Uge => ua >= ub,
        IntPred::Ult => ua < ub,
        IntPred::Ule => ua <= ub,
    }))
}

/// Integer and pointer casts (`ptr_bits` is the module's pointer width).
pub fn cast(op: CastOp, from_bits: u32, to_bits: u32, v: Value, sem: IntSemantics) -> Result<Value, Fault> {
    check_width(from_bits)?;
    check_width(to_bits)?;
    if v.poison {
        return Ok(Value::poison());
    }
    let x = v.int;
    Ok(Value::int(match op {
        CastOp::Trunc | CastOp::PtrToInt => wrap_signed(x, to_bits),
        CastOp::ZExt => match sem {
            IntSemantics::Math => math_unsigned(x, from_bits),
            _ => wrap_signed(to_unsigned(x, from_bits), to_bits),
        },
        CastOp::SExt => match sem {
            IntSemantics::Math => x,
            _ => wrap_signed(x, from_bits),
        },
        CastOp::IntToPtr => wrap_signed(to_unsigned(x, from_bits), to_bits),
        CastOp::BitCast => match sem {
            IntSemantics::Math => x,
            _ => wrap_signed(x, to_bits),
        },
    }))
}

/// The `llvm.{smax,smin,umax,umin}` intrinsics.
pub fn min_max(mm: MinMax, bits: u32, a: Value, b: Value, sem: IntSemantics) -> Result<Value, Fault> {
    check_width(bits)?;
    if a.poison || b.poison {
        return Ok(Value::poison());
    }
    let (sa, sb) = match sem {
        IntSemantics::Math => (a.int, b.int),
        _ => (wrap_signed(a.int, bits), wrap_signed(b.int, bits)),
    };
    let (ua, ub) = (math_unsigned(sa, bits), math_unsigned(sb, bits));
    let pick_a = match (mm.signed, mm.max) {
        (true, true) => sa >= sb,
        (true, false) => sa <= sb,
        (false, true) => ua >= ub,
        (false, false) => ua <= ub,
    };
    Ok(Value::int(if pick_a { sa } else { sb }))
}

/// `llvm.abs(x, int_min_is_poison)`.
pub fn abs(bits: u32, x: Value, int_min_is_poison: bool, sem: IntSemantics) -> Result<Value, Fault> {
    check_width(bits)?;
    if x.poison {
        return Ok(Value::poison());
    }
    if sem == IntSemantics::Math {
        return Ok(Value::int(exact(x.int.checked_abs(), "abs")?));
    }
    let v = wrap_signed(x.int, bits);
    if v == signed_min(bits) {
        return Ok(if int_min_is_poison && sem == IntSemantics::C { Value::poison() } else { Value::int(v) });
    }
    Ok(Value::int(v.abs()))
}
