//! Signed/unsigned view per SSA integer value (seed 004, digest-004 §1 "signedness
//! partition"): which two's-complement reading a local's symbolic value holds.
//!
//! The paper's two passes (add to U_P on unsigned evidence, then remove on signed evidence)
//! are computed on classes: values that flow into each other through `phi`, `select`,
//! `freeze`, width-preserving binary operations (both operands and the result; for shifts
//! only the shifted value), the two operands of an `icmp` and the arguments/result of the
//! integer intrinsics are put into one class (union-find), so that inside an instruction all
//! values normally share a view and no conversion is needed. A class is *unsigned* iff some
//! member has unsigned evidence (unsigned predicates, `udiv`/`urem`/`lshr`, `zext` operands,
//! `nuw`, `add`/`sub`/`mul`/`shl` without `nsw`, unsigned intrinsics, sizes) and no member has
//! signed evidence (signed predicates, `sdiv`/`srem`/`ashr`, `sext` operands and results,
//! `nsw`, signed intrinsics, GEP indices). Pointers are always unsigned (addresses).
//!
//! Soundness does not depend on the choice: every rule reads an operand in the view it needs
//! and converts by refinement (`ints::convert`) when the stored view differs, so a wrong guess
//! only costs case splits. `i1` values are 0/1 in both views. Under `IntSemantics::Math` every
//! value is in the signed view (the previous, unchanged representation).

use crate::ir::{BinOp, CastOp, Function, Module, Op, Operand, Type, ValueId};

/// The reading of a stored integer value.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, serde::Serialize, serde::Deserialize)]
pub enum View {
    /// Two's-complement signed value in [−2^(w−1), 2^(w−1)).
    Signed,
    /// Unsigned value in [0, 2^w).
    Unsigned,
}

#[derive(Default, Clone, Copy)]
struct Evidence {
    unsigned: bool,
    signed: bool,
}

struct UnionFind {
    parent: Vec<usize>,
}

impl UnionFind {
    fn find(&mut self, x: usize) -> usize {
        let mut r = x;
        while self.parent[r] != r {
            r = self.parent[r];
        }
        let mut y = x;
        while self.parent[y] != r {
            let n = self.parent[y];
            self.parent[y] = r;
            y = n;
        }
        r
    }
    fn union(&mut self, a: usize, b: usize) {
        let (ra, rb) = (self.find(a), self.find(b));
        if ra != rb {
            self.parent[ra] = rb;
        }
    }
}

/// The view of every local of every function of `module` (indexed by `FuncId`, then
/// `ValueId`), by the class heuristic above. Calls are inlined by the symbolic execution, so
/// arguments share the class of the callee's parameters and returned values the class of
/// the call's result.
pub fn infer_module(module: &Module) -> Vec<Vec<View>> {
    let mut offsets = vec![];
    let mut total = 0usize;
    for f in &module.functions {
        offsets.push(total);
        total += f.num_values as usize;
    }
    let mut uf = UnionFind { parent: (0..total).collect() };
    let mut ev = vec![Evidence::default(); total];
    let mut ptr = vec![false; total];
    for (fi, func) in module.functions.iter().enumerate() {
        let base = offsets[fi];
        for (i, t) in func.value_types().iter().enumerate() {
            if matches!(t, Some(Type::Ptr)) {
                ptr[base + i] = true;
            }
        }
        scan(module, func, base, &offsets, &mut uf, &mut ev);
    }
    let mut cls = vec![Evidence::default(); total];
    for i in 0..total {
        let r = uf.find(i);
        cls[r].unsigned |= ev[i].unsigned;
        cls[r].signed |= ev[i].signed;
    }
    let view = |uf: &mut UnionFind, i: usize| {
        let c = cls[uf.find(i)];
        if ptr[i] || (c.unsigned && !c.signed) {
            View::Unsigned
        } else {
            View::Signed
        }
    };
    module
        .functions
        .iter()
        .enumerate()
        .map(|(fi, f)| (0..f.num_values as usize).map(|i| view(&mut uf, offsets[fi] + i)).collect())
        .collect()
}

/// Joins and evidence of one function's instructions (its locals start at `base`).
fn scan(module: &Module, func: &Function, base: usize, offsets: &[usize], uf: &mut UnionFind, ev: &mut [Evidence]) {
    let n = func.num_values as usize;
    let local = |o: &Operand| match o {
        Operand::Local(v) if (v.0 as usize) < n => Some(base + v.0 as usize),
        _ => None,
    };
    let unsigned = |ev: &mut [Evidence], o: Option<usize>| {
        if let Some(i) = o {
            ev[i].unsigned = true;
        }
    };
    let signed = |ev: &mut [Evidence], o: Option<usize>| {
        if let Some(i) = o {
            ev[i].signed = true;
        }
    };
    let join = |uf: &mut UnionFind, xs: &[Option<usize>]| {
        let xs: Vec<usize> = xs.iter().flatten().copied().collect();
        for w in xs.windows(2) {
            uf.union(w[0], w[1]);
        }
    };
    for b in &func.blocks {
        for instr in &b.instrs {
            let res = instr.result.map(|r| r.0 as usize).filter(|r| *r < n).map(|r| base + r);
            match &instr.op {
                Op::Bin { op, flags, lhs, rhs, .. } => {
                    let (l, r) = (local(lhs), local(rhs));
                    match op {
                        BinOp::Shl | BinOp::LShr | BinOp::AShr => join(uf, &[res, l]),
                        _ => join(uf, &[res, l, r]),
                    }
                    match op {
                        BinOp::Add | BinOp::Sub | BinOp::Mul | BinOp::Shl => {
                            if flags.nsw {
                                signed(ev, res);
                            } else {
                                unsigned(ev, res);
                            }
                        }
                        BinOp::UDiv | BinOp::URem | BinOp::LShr => unsigned(ev, res),
                        BinOp::SDiv | BinOp::SRem | BinOp::AShr => signed(ev, res),
                        _ => {}
                    }
                    if flags.nuw {
                        unsigned(ev, res);
                    }
                }
                Op::ICmp { pred, lhs, rhs, .. } => {
                    let (l, r) = (local(lhs), local(rhs));
                    join(uf, &[l, r]);
                    use crate::ir::IntPred::*;
                    match pred {
                        Ugt | Uge | Ult | Ule => unsigned(ev, l.or(r)),
                        Sgt | Sge | Slt | Sle => signed(ev, l.or(r)),
                        Eq | Ne => {}
                    }
                }
                Op::Cast { op, value, .. } => match op {
                    CastOp::ZExt => unsigned(ev, local(value)),
                    CastOp::SExt => {
                        signed(ev, local(value));
                        signed(ev, res);
                    }
                    _ => {}
                },
                Op::Phi { incoming, .. } => {
                    let mut xs = vec![res];
                    xs.extend(incoming.iter().map(|(o, _)| local(o)));
                    join(uf, &xs);
                }
                Op::Select { then_value, else_value, .. } => join(uf, &[res, local(then_value), local(else_value)]),
                Op::Freeze { value, .. } => join(uf, &[res, local(value)]),
                Op::ExtractValue { agg, indices, .. } if indices.as_slice() == [0] => join(uf, &[res, local(agg)]),
                Op::PtrAdd { indices, .. } => {
                    for ix in indices {
                        signed(ev, local(&ix.value));
                    }
                }
                Op::Alloca { count, .. } => unsigned(ev, local(count)),
                Op::Call { callee: crate::ir::Callee::Direct(f), args, .. } => {
                    let callee = module.function(*f);
                    if !callee.is_declaration() {
                        let cb = offsets[f.0 as usize];
                        for ((p, _), a) in callee.params.iter().zip(args) {
                            join(uf, &[local(a), Some(cb + p.0 as usize)]);
                        }
                        for blk in &callee.blocks {
                            if let crate::ir::Terminator::Ret(Some(Operand::Local(r))) = &blk.terminator {
                                join(uf, &[res, Some(cb + r.0 as usize)]);
                            }
                        }
                        continue;
                    }
                    let name = callee.name.clone();
                    let mut xs = vec![res];
                    let kind = intrinsic_sign(&name);
                    if kind.is_some() {
                        xs.extend(args.iter().take(2).map(local));
                        join(uf, &xs);
                    }
                    match kind {
                        Some(true) => unsigned(ev, res.or(args.first().and_then(local))),
                        Some(false) => signed(ev, res.or(args.first().and_then(local))),
                        None => {}
                    }
                }
                _ => {}
            }
        }
    }
}

/// `Some(true)` for unsigned integer intrinsics, `Some(false)` for signed ones.
pub fn intrinsic_sign(name: &str) -> Option<bool> {
    crate::ir::externals::classify(name).signedness_evidence()
}

/// The view of local `v` in `views` (signed if unknown).
pub fn of(views: &[View], v: ValueId) -> View {
    views.get(v.0 as usize).copied().unwrap_or(View::Signed)
}
