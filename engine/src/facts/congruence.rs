//! Static pointer-offset congruences per function: for each pointer-typed local `v`, a root
//! pointer local `B` of the same function and a modulus `g` with `v − B ≡ 0 (mod g)`.
//!
//! # Meaning and why it is sound
//! `Cong::Base { base: B, g }` states: whenever `v` is used (its definition dominates the use,
//! strict SSA), the current value of `v` minus the latest value of `B` *in the same activation*
//! is a multiple of `g` (`g = 0`: they are equal). Roots are every pointer not produced by
//! `PtrAdd`/`phi`/`select` (parameters, allocas, calls, loads, casts, freeze…); a root is its
//! own base. `B`'s definition dominates `v`'s (by induction over the rules below, phis
//! included: `B` dominates every incoming block of a reachable phi), so `B` cannot have been
//! re-executed between `v`'s latest definition and its use: an execution reaching `B` again
//! would have a path from the entry to the use avoiding `v`'s definition.
//!
//! Transfer rules (the symbolic execution computes `PtrAdd` as `base + offset + Σ scale·index`
//! over the integers, so the offset is a multiple of the gcd of its constant parts):
//! - `PtrAdd { base: Local(b), offset, indices }`: `b`'s value with `g := gcd(g, offset,
//!   scale·value for constant indices, scale for variable ones)`; a non-local base ⇒ root.
//! - `phi`/`select`: join of the incoming values; a non-local incoming (null, global, undef…)
//!   or two different bases ⇒ ⊤.
//!
//! The lattice ⊥ < (B, g) < ⊤ orders `(B, g) ≤ (B, g')` when `g'` divides `g` (join = gcd);
//! chains are finite (each strict step replaces `g` by a proper divisor), so the round-robin
//! Kleene iteration from ⊥ terminates in the least fixpoint. Values left ⊥ are never executed.

use crate::ir::{Function, Op, Operand, Type, ValueId};

/// The congruence fact of one pointer local.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Cong {
    /// No execution defines the value (unreachable code), or not yet computed.
    Bot,
    /// `v − base ≡ 0 (mod g)`; `g = 0` means `v = base`.
    Base { base: ValueId, g: u128 },
    /// Nothing known.
    Top,
}

fn gcd(mut a: u128, mut b: u128) -> u128 {
    while b != 0 {
        let t = a % b;
        a = b;
        b = t;
    }
    a
}

impl Cong {
    /// Least upper bound.
    pub fn join(self, other: Cong) -> Cong {
        match (self, other) {
            (Cong::Bot, x) | (x, Cong::Bot) => x,
            (Cong::Base { base: a, g: ga }, Cong::Base { base: b, g: gb }) if a == b => Cong::Base { base: a, g: gcd(ga, gb) },
            _ => Cong::Top,
        }
    }

    /// The value shifted by a multiple of `step`.
    fn shifted(self, step: u128) -> Cong {
        match self {
            Cong::Base { base, g } => Cong::Base { base, g: gcd(g, step) },
            x => x,
        }
    }
}

/// The congruence of every local of `func`, indexed by `ValueId` (non-pointer locals are ⊤).
pub fn analyze(func: &Function) -> Vec<Cong> {
    let n = func.num_values as usize;
    let types = func.value_types();
    let is_ptr = |v: ValueId| matches!(types.get(v.0 as usize), Some(Some(Type::Ptr)));
    // Only pointer results are computed (from ⊥); every other local — integers, and values
    // whose type the IR does not state (e.g. results of unsupported instructions) — is ⊤, so
    // that a phi or PtrAdd reading it learns nothing. ⊥ is thus left only on pointer values
    // no execution defines.
    let mut val: Vec<Cong> = (0..n).map(|i| if is_ptr(ValueId(i as u32)) { Cong::Bot } else { Cong::Top }).collect();
    for (p, _) in &func.params {
        if is_ptr(*p) && (p.0 as usize) < n {
            val[p.0 as usize] = Cong::Base { base: *p, g: 0 };
        }
    }
    let local = |val: &[Cong], o: &Operand| -> Cong {
        match o {
            Operand::Local(v) => val.get(v.0 as usize).copied().unwrap_or(Cong::Top),
            _ => Cong::Top,
        }
    };
    loop {
        let mut changed = false;
        for instr in func.blocks.iter().flat_map(|b| &b.instrs) {
            let Some(x) = instr.result else { continue };
            if !is_ptr(x) || x.0 as usize >= n {
                continue;
            }
            let new = match &instr.op {
                Op::PtrAdd { base: Operand::Local(b), offset, indices, .. } => {
                    let mut step = offset.unsigned_abs();
                    for ix in indices {
                        let part = match &ix.value {
                            Operand::Int { value, .. } => ix.scale.checked_mul(*value).map(i128::unsigned_abs).unwrap_or(ix.scale.unsigned_abs()),
                            _ => ix.scale.unsigned_abs(),
                        };
                        step = gcd(step, part);
                    }
                    local(&val, &Operand::Local(*b)).shifted(step)
                }
                Op::Phi { incoming, .. } => incoming.iter().fold(Cong::Bot, |acc, (o, _)| acc.join(local(&val, o))),
                Op::Select { then_value, else_value, .. } => local(&val, then_value).join(local(&val, else_value)),
                _ => Cong::Base { base: x, g: 0 },
            };
            let old = val[x.0 as usize];
            let joined = old.join(new);
            if joined != old {
                val[x.0 as usize] = joined;
                changed = true;
            }
        }
        if !changed {
            return val;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::{Block, BlockId, GepIndex, Instr, Terminator};

    fn instr(r: u32, op: Op) -> Instr {
        Instr { result: Some(ValueId(r)), op, loc: None }
    }
    fn ptradd(base: Operand, offset: i128, idx: &[(Operand, i128)]) -> Op {
        Op::PtrAdd {
            base,
            offset,
            indices: idx.iter().map(|(v, s)| GepIndex { value: v.clone(), bits: 64, scale: *s }).collect(),
            inbounds: true,
        }
    }
    fn func(params: Vec<(ValueId, Type)>, blocks: Vec<Vec<Instr>>, num_values: u32) -> Function {
        let nb = blocks.len();
        Function {
            name: "f".into(),
            params,
            ret: Type::Void,
            blocks: blocks
                .into_iter()
                .enumerate()
                .map(|(i, instrs)| Block {
                    name: format!("b{i}"),
                    instrs,
                    terminator: if i + 1 < nb { Terminator::Br(BlockId(i as u32 + 1)) } else { Terminator::Ret(None) },
                    term_loc: None,
                    loop_loc: None,
                })
                .collect(),
            num_values,
            value_names: vec![],
            is_vararg: false, param_attrs: vec![], linkage: crate::ir::Linkage::External, address_taken: false,
            loc: None,
        }
    }
    fn l(v: u32) -> Operand {
        Operand::Local(ValueId(v))
    }
    fn base(b: u32, g: u128) -> Cong {
        Cong::Base { base: ValueId(b), g }
    }

    #[test]
    fn ptradd_chain_takes_gcd_of_offsets_and_scales() {
        // %0 param; %1 = %0 + 8; %2 = %1 + 12·%3; %4 = %2 + 4·(const 3)
        let f = func(
            vec![(ValueId(0), Type::Ptr), (ValueId(3), Type::Int(64))],
            vec![vec![
                instr(1, ptradd(l(0), 8, &[])),
                instr(2, ptradd(l(1), 0, &[(l(3), 12)])),
                instr(4, ptradd(l(2), 0, &[(Operand::Int { bits: 64, value: 3 }, 4)])),
                instr(5, ptradd(l(0), 0, &[])),
            ]],
            6,
        );
        let c = analyze(&f);
        assert_eq!(c[0], base(0, 0));
        assert_eq!(c[1], base(0, 8));
        assert_eq!(c[2], base(0, 4));
        assert_eq!(c[4], base(0, 4));
        assert_eq!(c[5], base(0, 0));
        assert_eq!(c[3], Cong::Top, "integers are not tracked");
    }

    #[test]
    fn loop_phi_reaches_fixpoint() {
        // b0: %1 = malloc; b1: %2 = phi [%1, b0], [%3, b1]; %3 = %2 + 4 (+ 8·%5)
        let call = Op::Call { callee: crate::ir::Callee::Unsupported("malloc".into()), args: vec![], ret: Type::Ptr };
        let f = func(
            vec![(ValueId(5), Type::Int(64))],
            vec![
                vec![instr(1, call)],
                vec![
                    instr(2, Op::Phi { ty: Type::Ptr, incoming: vec![(l(1), BlockId(0)), (l(3), BlockId(1))] }),
                    instr(3, ptradd(l(2), 4, &[(l(5), 8)])),
                ],
            ],
            6,
        );
        let c = analyze(&f);
        assert_eq!(c[1], base(1, 0));
        assert_eq!(c[2], base(1, 4));
        assert_eq!(c[3], base(1, 4));
    }

    #[test]
    fn phi_loop_with_odd_step_joins_to_gcd() {
        // %2 = phi [%0 + 4, b0], [%2 + 6, b1] ⇒ g = 2
        let f = func(
            vec![(ValueId(0), Type::Ptr)],
            vec![
                vec![instr(1, ptradd(l(0), 4, &[]))],
                vec![
                    instr(2, Op::Phi { ty: Type::Ptr, incoming: vec![(l(1), BlockId(0)), (l(3), BlockId(1))] }),
                    instr(3, ptradd(l(2), 6, &[])),
                ],
            ],
            4,
        );
        let c = analyze(&f);
        assert_eq!(c[2], base(0, 2));
        assert_eq!(c[3], base(0, 2));
    }

    #[test]
    fn different_bases_or_constants_give_top() {
        // %2 = phi [%0, b0], [%1, b0]; %3 = select c, %0, null; %4 = %2 + 4
        let f = func(
            vec![(ValueId(0), Type::Ptr), (ValueId(1), Type::Ptr), (ValueId(5), Type::Int(1))],
            vec![vec![
                instr(2, Op::Phi { ty: Type::Ptr, incoming: vec![(l(0), BlockId(0)), (l(1), BlockId(0))] }),
                instr(3, Op::Select { cond: l(5), then_value: l(0), else_value: Operand::NullPtr, ty: Type::Ptr }),
                instr(4, ptradd(l(2), 4, &[])),
                instr(6, ptradd(Operand::NullPtr, 4, &[])),
            ]],
            7,
        );
        let c = analyze(&f);
        assert_eq!(c[2], Cong::Top);
        assert_eq!(c[3], Cong::Top);
        assert_eq!(c[4], Cong::Top);
        assert_eq!(c[6], base(6, 0), "a non-local base makes the result a root");
    }

    #[test]
    fn untyped_incoming_gives_top() {
        // %1 = <unsupported> (type unknown); %2 = phi [%1, b0], [%0 + 4, b0]
        let f = func(
            vec![(ValueId(0), Type::Ptr)],
            vec![vec![
                instr(1, Op::Unsupported { text: "x".into() }),
                instr(3, ptradd(l(0), 4, &[])),
                instr(2, Op::Phi { ty: Type::Ptr, incoming: vec![(l(1), BlockId(0)), (l(3), BlockId(0))] }),
            ]],
            4,
        );
        let c = analyze(&f);
        assert_eq!(c[1], Cong::Top);
        assert_eq!(c[2], Cong::Top);
    }

    #[test]
    fn join_is_gcd_on_same_base() {
        assert_eq!(base(1, 0).join(base(1, 12)), base(1, 12));
        assert_eq!(base(1, 8).join(base(1, 12)), base(1, 4));
        assert_eq!(Cong::Bot.join(base(1, 8)), base(1, 8));
        assert_eq!(base(1, 8).join(base(2, 8)), Cong::Top);
        assert_eq!(Cong::Top.join(Cong::Bot), Cong::Top);
    }
}
