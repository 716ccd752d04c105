//! Static power-of-two divisibility of integer locals: for each local `v` of width `w`, a
//! `t ≤ w` such that the bit pattern of `v` is a multiple of 2^t in every execution. Since
//! 2^t divides 2^w, the fact holds for the signed and the unsigned view alike and survives
//! wrap-around, which merges (that keep only linear facts) lose: `x &= ~1; while (x != 0)
//! x -= 2;` needs "x is even" to exclude the wrap of `x − 2` at `x = 1`.
//!
//! # Why it is sound
//! Transfer rules (`tz` = the known exponent): constants their trailing zeros; `add`/`sub`/
//! `or`/`xor` the minimum of the operands; `mul` the sum; `shl` by a constant `k` adds `k`;
//! `and` the maximum; `trunc`/`zext`/`sext` keep it (capped at the width); `phi`/`select`/
//! `freeze` the minimum of the incoming values; everything else (parameters, loads, calls,
//! divisions, right shifts…) 0. Non-root values start at `w` and the round-robin iteration
//! only lowers them, so it ends in a fixpoint in which every rule holds; by induction over an
//! execution (a use sees the value of the latest execution of the dominating definition),
//! every executed definition satisfies its fact. Values never executed may keep `w`.

use crate::ir::{BinOp, CastOp, Function, Op, Operand, Type};

fn trailing(c: i128, bits: u32) -> u32 {
    if c == 0 {
        bits
    } else {
        c.trailing_zeros().min(bits)
    }
}

/// The divisibility exponent of every local of `func` (indexed by `ValueId`; 0 for
/// non-integers).
pub fn analyze(func: &Function) -> Vec<u32> {
    let n = func.num_values as usize;
    let types = func.value_types();
    let width = |i: usize| match types.get(i) {
        Some(Some(Type::Int(b))) => *b,
        _ => 0,
    };
    let mut tz: Vec<u32> = (0..n).map(width).collect();
    for (p, _) in &func.params {
        if let Some(x) = tz.get_mut(p.0 as usize) {
            *x = 0;
        }
    }
    loop {
        let mut changed = false;
        for b in &func.blocks {
            for instr in &b.instrs {
                let Some(r) = instr.result.map(|r| r.0 as usize).filter(|r| *r < n) else { continue };
                let w = width(r);
                let of = |o: &Operand, tz: &[u32]| -> u32 {
                    match o {
                        Operand::Local(v) => tz.get(v.0 as usize).copied().unwrap_or(0),
                        Operand::Int { bits, value } => trailing(*value, *bits),
                        _ => 0,
                    }
                };
                let new = match &instr.op {
                    Op::Bin { op, lhs, rhs, .. } => {
                        let (a, c) = (of(lhs, &tz), of(rhs, &tz));
                        match op {
                            BinOp::Add | BinOp::Sub | BinOp::Or | BinOp::Xor => a.min(c),
                            BinOp::Mul => a.saturating_add(c),
                            BinOp::And => a.max(c),
                            BinOp::Shl => match rhs {
                                Operand::Int { value, .. } if *value >= 0 && *value < 128 => a.saturating_add(*value as u32),
                                _ => a,
                            },
                            _ => 0,
                        }
                    }
                    Op::Cast { op: CastOp::Trunc | CastOp::ZExt | CastOp::SExt, from_bits, value, .. } => {
                        let a = of(value, &tz);
                        if a >= *from_bits {
                            w
                        } else {
                            a
                        }
                    }
                    Op::Phi { incoming, .. } => incoming.iter().map(|(o, _)| of(o, &tz)).min().unwrap_or(0),
                    Op::Select { then_value, else_value, .. } => of(then_value, &tz).min(of(else_value, &tz)),
                    Op::Freeze { value, .. } => of(value, &tz),
                    _ => 0,
                }
                .min(w);
                if new < tz[r] {
                    tz[r] = new;
                    changed = true;
                }
            }
        }
        if !changed {
            return tz;
        }
    }
}
