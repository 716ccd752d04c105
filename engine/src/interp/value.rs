//! Concrete values of the interpreter: an integer (or address) plus LLVM's poison flag,
//! and the width helpers every operation uses.
//!
//! Canonical form: a value of width `w` is stored sign-extended into `i128`
//! (`[-2^(w-1), 2^(w-1))`), the same convention as `ir::Operand::Int`. Addresses are
//! non-negative and far below 2^62, so their signed and unsigned readings agree.
//! Under `IntSemantics::Math` a value may lie outside its width's range (see SEMANTICS.md).

use serde::{Deserialize, Serialize};

/// A register or memory value.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
pub struct Value {
    /// The integer (canonical signed form, or a mathematical integer in `Math` mode).
    pub int: i128,
    /// LLVM poison: the result of an operation whose flags were violated, or a `poison` constant.
    pub poison: bool,
}

impl Value {
    pub fn int(int: i128) -> Value {
        Value { int, poison: false }
    }
    pub fn poison() -> Value {
        Value { int: 0, poison: true }
    }
    /// An i1 from a Rust bool (true is `-1` in canonical signed form, i.e. bit pattern `1`).
    pub fn bool(b: bool) -> Value {
        Value::int(if b { -1 } else { 0 })
    }
}

/// Widest integer type the interpreter evaluates (wider ones stop with `Unsupported`).
pub const MAX_BITS: u32 = 64;

/// Reduces `v` modulo 2^bits into the signed range of `bits` (two's complement wrap).
pub fn wrap_signed(v: i128, bits: u32) -> i128 {
    if bits == 0 || bits >= 128 {
        return v;
    }
    let shift = 128 - bits;
    (v << shift) >> shift
}

/// Reduces `v` modulo 2^bits into `[0, 2^bits)` (requires `bits <= 64`).
pub fn to_unsigned(v: i128, bits: u32) -> i128 {
    if bits == 0 || bits >= 128 {
        return v;
    }
    v & ((1i128 << bits) - 1)
}

/// The unsigned reading of a value under `IntSemantics::Math` (SEMANTICS.md, "Math"):
/// a non-negative mathematical value is its own unsigned reading (integers have no upper
/// bound), a negative one is reduced modulo 2^bits like C's conversion to an unsigned type.
/// Equals `to_unsigned` on every canonical (in-range) value.
pub fn math_unsigned(v: i128, bits: u32) -> i128 {
    if v >= 0 {
        v
    } else {
        to_unsigned(v, bits)
    }
}

/// The result of a flag-less `add/sub/mul/shl` or of `udiv/urem/lshr` under
/// `IntSemantics::Math`, from its exact value `e` on the operands' readings: `e` itself when
/// `e ≥ 2^bits` (beyond the unsigned range: no upper bound), otherwise C's wrapped result in
/// canonical form. On canonical operands this differs from C only when a result would exceed
/// the type's unsigned maximum.
pub fn math_reduce(e: i128, bits: u32) -> i128 {
    if bits < 127 && e >= (1i128 << bits) {
        e
    } else {
        wrap_signed(e, bits)
    }
}

/// Smallest signed value of the width.
pub fn signed_min(bits: u32) -> i128 {
    -(1i128 << (bits - 1))
}

/// Largest signed value of the width.
pub fn signed_max(bits: u32) -> i128 {
    (1i128 << (bits - 1)) - 1
}

/// Largest unsigned value of the width.
pub fn unsigned_max(bits: u32) -> i128 {
    (1i128 << bits) - 1
}

/// Whether `v` is in the canonical signed range of `bits`.
pub fn fits_signed(v: i128, bits: u32) -> bool {
    bits >= 128 || (signed_min(bits)..=signed_max(bits)).contains(&v)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wrapping_and_unsigned_views() {
        assert_eq!(wrap_signed(255, 8), -1);
        assert_eq!(wrap_signed(128, 8), -128);
        assert_eq!(wrap_signed(1, 1), -1);
        assert_eq!(to_unsigned(-1, 8), 255);
        assert_eq!(to_unsigned(-1, 1), 1);
        assert_eq!(to_unsigned(-1, 64), u64::MAX as i128);
        assert!(fits_signed(127, 8) && !fits_signed(128, 8));
    }
}
