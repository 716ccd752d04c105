//! Bit-precise symbolic execution of an acyclic region of a function (typically one loop
//! iteration): every integer SSA value becomes a `BvTerm` over the values live on entry and
//! fresh variables for nondeterministic inputs, every way out of the region an
//! `EdgeEncoding` with its path condition, and everything that is undefined behaviour or
//! creates poison a disjunct of `ub`.
//!
//! Semantics (must agree with `interp::arith` and `interp/SEMANTICS.md`):
//! - `IntSemantics::C`: violated `nsw`/`nuw`/`exact`/`disjoint` flags, shifts by ≥ the width and
//!   `llvm.abs(MIN, true)` create poison, division by zero and `MIN / -1` are UB: all are `ub`.
//!   Counting poison creation itself as `ub` over-approximates UB (poison is harmful only once
//!   used), the safe side for a NO (we require `¬ub`) and for a YES caller (which must prove
//!   `ub` unreachable or treat it as an error state anyway).
//! - `IntSemantics::Wrap`: flags are ignored; division by zero, `MIN / -1` and over-wide
//!   shifts stay `ub`, exactly where the interpreter faults or makes poison.
//! - `IntSemantics::Math` has unbounded integers: not bit-precise, `Unsupported`.
//!
//! Anything else (memory, pointers, floats, calls other than the listed intrinsics) is
//! `Unsupported`, never skipped. On a path where `ub` is false no value is poison, which is
//! why `freeze x` is `x` for a computed `x` (and a fresh input for a poison/undef constant).

use crate::ir::externals::{classify, ArithKind, ArithOp, BitOp, External, NoOp};
use crate::ir::{ArithFlags, BinOp, BlockId, CastOp, Callee, Function, IntPred, Module, Op, Operand, Terminator, Type, ValueId};
use crate::logic::bv::{BvFormula, BvTerm, BvWidthError};
use crate::verdict::IntSemantics;
use std::collections::{BTreeMap, BTreeSet};
use std::time::Instant;

/// Why a region cannot be encoded bit-precisely.
#[derive(Clone, PartialEq, Eq, Debug, thiserror::Error)]
#[error("not bit-precisely encodable: {0}")]
pub struct Unsupported(pub String);

impl From<BvWidthError> for Unsupported {
    fn from(e: BvWidthError) -> Unsupported {
        Unsupported(e.to_string())
    }
}

/// What one region encoding may spend: the caller's deadline and a bound on the size of any
/// path condition or value (formula/term nodes counted as a tree), from
/// `Config::bitprecise().max_region_nodes`. Path conditions of a region are trees: `k`
/// if-then-else diamonds in a row double them `k` times (500 nested `if`s grew memory by
/// ~450 MB/s without a bound); past the bound the region is `Unsupported`, like anything
/// else not encodable.
#[derive(Clone, Copy, Debug)]
pub struct RegionBudget {
    pub deadline: Instant,
    pub max_nodes: usize,
}

impl RegionBudget {
    fn check_time(&self) -> Result<(), Unsupported> {
        if crate::cancel::past(self.deadline) {
            return Err(Unsupported("out of time while encoding the region".into()));
        }
        Ok(())
    }

    fn check_formula(&self, f: &BvFormula) -> Result<(), Unsupported> {
        let mut left = self.max_nodes;
        if formula_nodes(f, &mut left) {
            Ok(())
        } else {
            Err(Unsupported(format!("a path condition of the region exceeds {} nodes", self.max_nodes)))
        }
    }

    fn check_term(&self, t: &BvTerm) -> Result<(), Unsupported> {
        let mut left = self.max_nodes;
        if term_nodes(t, &mut left) {
            Ok(())
        } else {
            Err(Unsupported(format!("a value of the region exceeds {} nodes", self.max_nodes)))
        }
    }
}

/// Counts `f`'s nodes (as a tree) down from `left`; false once more than `left` (stops there,
/// so the cost is at most the bound).
fn formula_nodes(f: &BvFormula, left: &mut usize) -> bool {
    if *left == 0 {
        return false;
    }
    *left -= 1;
    match f {
        BvFormula::True | BvFormula::False => true,
        BvFormula::Cmp(_, a, b) => term_nodes(a, left) && term_nodes(b, left),
        BvFormula::Not(g) => formula_nodes(g, left),
        BvFormula::And(parts) | BvFormula::Or(parts) => parts.iter().all(|p| formula_nodes(p, left)),
    }
}

fn term_nodes(t: &BvTerm, left: &mut usize) -> bool {
    if *left == 0 {
        return false;
    }
    *left -= 1;
    match t {
        BvTerm::Var { .. } | BvTerm::Const { .. } => true,
        BvTerm::Bin { lhs, rhs, .. } | BvTerm::Concat(lhs, rhs) => term_nodes(lhs, left) && term_nodes(rhs, left),
        BvTerm::Not(a) | BvTerm::Neg(a) | BvTerm::Extract { arg: a, .. } | BvTerm::ZExt { arg: a, .. } | BvTerm::SExt { arg: a, .. } => term_nodes(a, left),
        BvTerm::Ite(c, a, b) => formula_nodes(c, left) && term_nodes(a, left) && term_nodes(b, left),
    }
}

/// BV terms of the values available at a program point.
pub type Env = BTreeMap<ValueId, BvTerm>;

/// Where a way out of the region goes.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum RegionTarget {
    /// A block outside the region, or back to `start`.
    Block(BlockId),
    /// The function returns.
    Return,
    /// A program-ending call (`abort`, `exit`, `reach_error`, ...; the name).
    Exit(String),
    /// `__VERIFIER_assume(false)`: the run is blocked (not a run of the program).
    Blocked,
}

/// One way out of the region.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct EdgeEncoding {
    pub from: BlockId,
    pub to: RegionTarget,
    /// The path condition (over entry values and inputs).
    pub cond: BvFormula,
    /// Every integer value of `env` and every integer value defined along the way, plus the
    /// integer phis of the target block resolved for this edge. For an edge back to `start`
    /// every integer phi of `start` is present; for other targets a phi whose incoming value
    /// is not available (e.g. a pointer) is left out.
    pub values: Env,
}

/// The encoding of one pass through the region.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct RegionEncoding {
    pub edges: Vec<EdgeEncoding>,
    /// Some reached operation is undefined behaviour or creates poison (see the module doc).
    pub ub: BvFormula,
    /// Fresh variables introduced for nondeterministic values (name, width), in block order.
    pub inputs: Vec<(String, u32)>,
}

/// A symbolic value: an integer or an aggregate (the result of `*.with.overflow`).
#[derive(Clone, Debug)]
enum Sym {
    Int(BvTerm),
    Agg(Vec<Sym>),
}


struct Encoder<'a> {
    f: &'a Function,
    sem: IntSemantics,
    prefix: &'a str,
    values: BTreeMap<ValueId, Sym>,
    ub: Vec<BvFormula>,
    inputs: Vec<(String, u32)>,
    fresh: usize,
}

fn int_width(ty: &Type) -> Result<u32, Unsupported> {
    match ty {
        Type::Int(b) if (1..=64).contains(b) => Ok(*b),
        other => Err(Unsupported(format!("value of type {other:?}"))),
    }
}

fn c(width: u32, value: u128) -> Result<BvTerm, Unsupported> {
    Ok(BvTerm::constant(width, value)?)
}

/// The exact term of `llvm.ctlz`/`cttz`/`ctpop`/`bswap`/`bitreverse` of `a` (zero operand:
/// the width for `ctlz`/`cttz`; the poison flag is the caller's).
pub(super) fn bit_op_term(op: BitOp, a: BvTerm) -> Result<BvTerm, Unsupported> {
    let w = a.width();
    let bit = |i: u32| BvTerm::extract(i, i, a.clone());
    let set = |i: u32| -> Result<BvFormula, Unsupported> { Ok(BvFormula::is_true(bit(i)?)?) };
    let mut t;
    match op {
        BitOp::Ctlz => {
            // the highest set bit decides: tested last, so outermost
            t = c(w, u128::from(w))?;
            for i in 0..w {
                t = BvTerm::ite(set(i)?, c(w, u128::from(w - 1 - i))?, t)?;
            }
        }
        BitOp::Cttz => {
            t = c(w, u128::from(w))?;
            for i in (0..w).rev() {
                t = BvTerm::ite(set(i)?, c(w, u128::from(i))?, t)?;
            }
        }
        BitOp::Ctpop => {
            t = c(w, 0)?;
            for i in 0..w {
                t = BvTerm::add(t, BvTerm::zext(w, bit(i)?)?)?;
            }
        }
        BitOp::Bswap => {
            t = BvTerm::extract(7, 0, a.clone())?;
            for k in 1..w / 8 {
                t = BvTerm::concat(t, BvTerm::extract(8 * k + 7, 8 * k, a.clone())?)?;
            }
        }
        BitOp::Bitreverse => {
            t = bit(0)?;
            for i in 1..w {
                t = BvTerm::concat(t, bit(i)?)?;
            }
        }
    }
    Ok(t)
}

fn smin(width: u32) -> u128 {
    1u128 << (width - 1)
}

fn smax(width: u32) -> u128 {
    smin(width) - 1
}

fn umax(width: u32) -> u128 {
    crate::logic::bv::mask(width)
}

impl Encoder<'_> {
    fn fresh_input(&mut self, what: &str, width: u32) -> Result<BvTerm, Unsupported> {
        let name = format!("{}{}{}", self.prefix, what, self.fresh);
        self.fresh += 1;
        self.inputs.push((name.clone(), width));
        Ok(BvTerm::var(name, width)?)
    }

    fn operand(&mut self, o: &Operand, reach: &BvFormula) -> Result<Sym, Unsupported> {
        Ok(match o {
            Operand::Local(v) => self
                .values
                .get(v)
                .cloned()
                .ok_or_else(|| Unsupported(format!("value {} is not an available integer", self.f.value_name(*v))))?,
            Operand::Int { bits, value } => {
                if !(1..=64).contains(bits) {
                    return Err(Unsupported(format!("{bits}-bit constant")));
                }
                Sym::Int(BvTerm::signed_constant(*bits, *value)?)
            }
            Operand::Undef(ty) => {
                let w = int_width(ty)?;
                Sym::Int(self.fresh_input("undef", w)?)
            }
            Operand::Poison(ty) => {
                let w = int_width(ty)?;
                self.ub.push(reach.clone());
                Sym::Int(self.fresh_input("poison", w)?)
            }
            other => return Err(Unsupported(format!("operand {other:?}"))),
        })
    }

    fn int(&mut self, o: &Operand, reach: &BvFormula) -> Result<BvTerm, Unsupported> {
        match self.operand(o, reach)? {
            Sym::Int(t) => Ok(t),
            Sym::Agg(_) => Err(Unsupported("aggregate used as an integer".into())),
        }
    }

    fn flag_ub(&mut self, reach: &BvFormula, cond: BvFormula) {
        if cond != BvFormula::False {
            self.ub.push(BvFormula::and([reach.clone(), cond]));
        }
    }

    /// `a op b` with the UB/poison conditions of `sem`.
    fn binary(&mut self, op: BinOp, flags: ArithFlags, w: u32, a: BvTerm, b: BvTerm, reach: &BvFormula) -> Result<BvTerm, Unsupported> {
        let flags = if self.sem == IntSemantics::Wrap { ArithFlags::default() } else { flags };
        let zero = c(w, 0)?;
        let result = match op {
            BinOp::Add => BvTerm::add(a.clone(), b.clone())?,
            BinOp::Sub => BvTerm::sub(a.clone(), b.clone())?,
            BinOp::Mul => BvTerm::mul(a.clone(), b.clone())?,
            BinOp::UDiv => BvTerm::udiv(a.clone(), b.clone())?,
            BinOp::URem => BvTerm::urem(a.clone(), b.clone())?,
            BinOp::SDiv => BvTerm::sdiv(a.clone(), b.clone())?,
            BinOp::SRem => BvTerm::srem(a.clone(), b.clone())?,
            BinOp::Shl => BvTerm::shl(a.clone(), b.clone())?,
            BinOp::LShr => BvTerm::lshr(a.clone(), b.clone())?,
            BinOp::AShr => BvTerm::ashr(a.clone(), b.clone())?,
            BinOp::And => BvTerm::and(a.clone(), b.clone())?,
            BinOp::Or => BvTerm::or(a.clone(), b.clone())?,
            BinOp::Xor => BvTerm::xor(a.clone(), b.clone())?,
        };
        let mut bad = Vec::new();
        match op {
            BinOp::Add | BinOp::Sub | BinOp::Mul => {
                let wide = if op == BinOp::Mul { 2 * w } else { w + 1 };
                let exact = |ext: fn(u32, BvTerm) -> Result<BvTerm, BvWidthError>| -> Result<BvFormula, Unsupported> {
                    let (x, y) = (ext(wide, a.clone())?, ext(wide, b.clone())?);
                    let e = match op {
                        BinOp::Add => BvTerm::add(x, y)?,
                        BinOp::Sub => BvTerm::sub(x, y)?,
                        _ => BvTerm::mul(x, y)?,
                    };
                    Ok(BvFormula::ne(e, ext(wide, result.clone())?)?)
                };
                if flags.nsw {
                    bad.push(exact(BvTerm::sext)?);
                }
                if flags.nuw {
                    bad.push(exact(BvTerm::zext)?);
                }
            }
            BinOp::UDiv | BinOp::URem | BinOp::SDiv | BinOp::SRem => {
                bad.push(BvFormula::eq(b.clone(), zero.clone())?);
                if matches!(op, BinOp::SDiv | BinOp::SRem) {
                    bad.push(BvFormula::and([BvFormula::eq(a.clone(), c(w, smin(w))?)?, BvFormula::eq(b.clone(), c(w, umax(w))?)?]));
                }
                // The interpreter reads `exact` on every division (LLVM puts it on udiv/sdiv only).
                if flags.exact {
                    let rem = if matches!(op, BinOp::UDiv | BinOp::URem) { BvTerm::urem(a.clone(), b.clone())? } else { BvTerm::srem(a.clone(), b.clone())? };
                    bad.push(BvFormula::ne(rem, zero.clone())?);
                }
            }
            BinOp::Shl | BinOp::LShr | BinOp::AShr => {
                bad.push(BvFormula::ule(c(w, w as u128)?, b.clone())?);
                let back = |t: BvTerm| -> Result<BvTerm, Unsupported> {
                    Ok(match op {
                        BinOp::Shl => BvTerm::shl(t, b.clone())?,
                        _ => BvTerm::shl(t, b.clone())?,
                    })
                };
                match op {
                    BinOp::Shl => {
                        if flags.nsw {
                            bad.push(BvFormula::ne(BvTerm::ashr(result.clone(), b.clone())?, a.clone())?);
                        }
                        if flags.nuw {
                            bad.push(BvFormula::ne(BvTerm::lshr(result.clone(), b.clone())?, a.clone())?);
                        }
                    }
                    _ => {
                        if flags.exact {
                            bad.push(BvFormula::ne(back(result.clone())?, a.clone())?);
                        }
                    }
                }
            }
            BinOp::Or => {
                if flags.disjoint {
                    bad.push(BvFormula::ne(BvTerm::and(a.clone(), b.clone())?, zero)?);
                }
            }
            BinOp::And | BinOp::Xor => {}
        }
        let bad = BvFormula::or(bad);
        self.flag_ub(reach, bad);
        Ok(result)
    }

    fn compare(pred: IntPred, a: BvTerm, b: BvTerm) -> Result<BvFormula, Unsupported> {
        Ok(match pred {
            IntPred::Eq => BvFormula::eq(a, b)?,
            IntPred::Ne => BvFormula::ne(a, b)?,
            IntPred::Ult => BvFormula::ult(a, b)?,
            IntPred::Ule => BvFormula::ule(a, b)?,
            IntPred::Ugt => BvFormula::ult(b, a)?,
            IntPred::Uge => BvFormula::ule(b, a)?,
            IntPred::Slt => BvFormula::slt(a, b)?,
            IntPred::Sle => BvFormula::sle(a, b)?,
            IntPred::Sgt => BvFormula::slt(b, a)?,
            IntPred::Sge => BvFormula::sle(b, a)?,
        })
    }

    /// Encodes the intrinsic `name`; `Ok(None)` for a no-op.
    fn call(&mut self, name: &str, args: &[Operand], ret: &Type, reach: &BvFormula) -> Result<Option<Sym>, Unsupported> {
        let arg = |e: &mut Self, i: usize| -> Result<BvTerm, Unsupported> {
            let o = args.get(i).ok_or_else(|| Unsupported(format!("{name}: missing argument")))?;
            e.int(o, reach)
        };
        match classify(name) {
            // Calls without effect on integer values (lifetime markers never reach here: the
            // front end drops them).
            External::NoOp(NoOp::Dbg | NoOp::DoNothing | NoOp::SideEffect | NoOp::NoAliasScopeDecl) => Ok(None),
            External::Nondet { .. } => {
                let w = int_width(ret)?;
                Ok(Some(Sym::Int(self.fresh_input("nondet", w)?)))
            }
            External::Arith { op, signed, kind: ArithKind::WithOverflow, .. } => {
                let (a, b) = (arg(self, 0)?, arg(self, 1)?);
                let w = a.width();
                let wide = if op == ArithOp::Mul { 2 * w } else { w + 1 };
                let ext: fn(u32, BvTerm) -> Result<BvTerm, BvWidthError> = if signed { BvTerm::sext } else { BvTerm::zext };
                let (x, y) = (ext(wide, a.clone())?, ext(wide, b.clone())?);
                let (r, e) = match op {
                    ArithOp::Add => (BvTerm::add(a, b)?, BvTerm::add(x, y)?),
                    ArithOp::Sub => (BvTerm::sub(a, b)?, BvTerm::sub(x, y)?),
                    ArithOp::Mul => (BvTerm::mul(a, b)?, BvTerm::mul(x, y)?),
                };
                let overflow = BvFormula::ne(e, ext(wide, r.clone())?)?;
                Ok(Some(Sym::Agg(vec![Sym::Int(r), Sym::Int(BvTerm::from_bool(overflow))])))
            }
            External::MinMax(mm) => {
                let (a, b) = (arg(self, 0)?, arg(self, 1)?);
                let pick_a = match (mm.signed, mm.max) {
                    (true, true) => BvFormula::sle(b.clone(), a.clone())?,
                    (true, false) => BvFormula::sle(a.clone(), b.clone())?,
                    (false, true) => BvFormula::ule(b.clone(), a.clone())?,
                    (false, false) => BvFormula::ule(a.clone(), b.clone())?,
                };
                Ok(Some(Sym::Int(BvTerm::ite(pick_a, a, b)?)))
            }
            External::Abs => {
                let a = arg(self, 0)?;
                let w = a.width();
                let poison_flag = match args.get(1) {
                    Some(Operand::Int { value, .. }) => *value != 0,
                    _ => return Err(Unsupported("llvm.abs with a non-constant flag".into())),
                };
                if poison_flag && self.sem == IntSemantics::C {
                    let is_min = BvFormula::eq(a.clone(), c(w, smin(w))?)?;
                    self.flag_ub(reach, is_min);
                }
                let neg = BvFormula::slt(a.clone(), c(w, 0)?)?;
                Ok(Some(Sym::Int(BvTerm::ite(neg, BvTerm::neg(a.clone()), a)?)))
            }
            External::Arith { op: op @ (ArithOp::Add | ArithOp::Sub), signed, kind: ArithKind::Saturating, .. } => {
                let (a, b) = (arg(self, 0)?, arg(self, 1)?);
                let w = a.width();
                let add = op == ArithOp::Add;
                let wide = w + 1;
                let ext = if signed { BvTerm::sext } else { BvTerm::zext };
                let (x, y) = (ext(wide, a.clone())?, ext(wide, b.clone())?);
                let e = if add { BvTerm::add(x.clone(), y.clone())? } else { BvTerm::sub(x.clone(), y.clone())? };
                let r = if add { BvTerm::add(a, b)? } else { BvTerm::sub(a, b)? };
                let (lo, hi) = if signed { (smin(w), smax(w)) } else { (0, umax(w)) };
                let (too_high, too_low) = if signed {
                    (BvFormula::slt(ext(wide, c(w, hi)?)?, e.clone())?, BvFormula::slt(e, ext(wide, c(w, lo)?)?)?)
                } else if add {
                    (BvFormula::ult(ext(wide, c(w, hi)?)?, e)?, BvFormula::False)
                } else {
                    (BvFormula::False, BvFormula::ult(x, y)?)
                };
                let t = BvTerm::ite(too_high, c(w, hi)?, BvTerm::ite(too_low, c(w, lo)?, r)?)?;
                Ok(Some(Sym::Int(t)))
            }
            External::Bits(op) => {
                let a = arg(self, 0)?;
                let w = a.width();
                if matches!(op, BitOp::Ctlz | BitOp::Cttz) {
                    let zero_is_poison = match args.get(1) {
                        Some(Operand::Int { value, .. }) => *value & 1 == 1,
                        _ => return Err(Unsupported(format!("{name} with a non-constant flag"))),
                    };
                    // poison in every semantics, like the interpreter
                    if zero_is_poison {
                        self.flag_ub(reach, BvFormula::eq(a.clone(), c(w, 0)?)?);
                    }
                }
                if op == BitOp::Bswap && w % 16 != 0 {
                    return Err(Unsupported(format!("{name} of a width that is not a multiple of 16")));
                }
                Ok(Some(Sym::Int(bit_op_term(op, a)?)))
            }
            _ => Err(Unsupported(format!("call to {name}"))),
        }
    }
}

/// Blocks of `blocks` reachable from `start` without entering `start` again, in topological
/// order; `Err` if they contain a cycle.
pub(crate) fn topological(f: &Function, start: BlockId, blocks: &BTreeSet<BlockId>) -> Result<Vec<BlockId>, Unsupported> {
    let mut order = Vec::new();
    let mut state: BTreeMap<BlockId, u8> = BTreeMap::new(); // 1 = on stack, 2 = done
    fn visit(f: &Function, b: BlockId, start: BlockId, blocks: &BTreeSet<BlockId>, state: &mut BTreeMap<BlockId, u8>, order: &mut Vec<BlockId>) -> Result<(), Unsupported> {
        match state.get(&b) {
            Some(2) => return Ok(()),
            Some(_) => return Err(Unsupported("the region has a cycle not through its start".into())),
            None => {}
        }
        state.insert(b, 1);
        for s in f.block(b).terminator.successors() {
            if s != start && blocks.contains(&s) {
                visit(f, s, start, blocks, state, order)?;
            }
        }
        state.insert(b, 2);
        order.push(b);
        Ok(())
    }
    visit(f, start, start, blocks, &mut state, &mut order)?;
    order.reverse();
    Ok(order)
}

/// Symbolically executes the acyclic region `blocks` of `f` from `start` (see the module doc).
/// `env` must give the term of every value used in the region and defined outside it or as a
/// phi of `start`.
pub fn encode_region(
    module: &Module,
    f: &Function,
    start: BlockId,
    env: &Env,
    blocks: &BTreeSet<BlockId>,
    sem: IntSemantics,
    fresh_prefix: &str,
    budget: &RegionBudget,
) -> Result<RegionEncoding, Unsupported> {
    if sem == IntSemantics::Math {
        return Err(Unsupported("math semantics has unbounded integers".into()));
    }
    if !blocks.contains(&start) {
        return Err(Unsupported("the region does not contain its start".into()));
    }
    let order = topological(f, start, blocks)?;
    let mut e = Encoder {
        f,
        sem,
        prefix: fresh_prefix,
        values: env.iter().map(|(v, t)| (*v, Sym::Int(t.clone()))).collect(),
        ub: Vec::new(),
        inputs: Vec::new(),
        fresh: 0,
    };
    // Condition of each edge (from, to) inside the region, and the exits found.
    let mut edge_conds: BTreeMap<(BlockId, BlockId), BvFormula> = BTreeMap::new();
    let mut ends: Vec<(BlockId, RegionTarget, BvFormula)> = Vec::new();
    for &b in &order {
        let block = f.block(b);
        let mut reach = if b == start {
            BvFormula::True
        } else {
            BvFormula::or(edge_conds.iter().filter(|((_, to), _)| *to == b).map(|(_, c)| c.clone()))
        };
        if reach == BvFormula::False {
            continue;
        }
        budget.check_time()?;
        budget.check_formula(&reach)?;
        for instr in &block.instrs {
            let result: Option<Sym> = match &instr.op {
                Op::Phi { .. } if b == start => continue,
                Op::Phi { ty, incoming } => {
                    int_width(ty)?;
                    let mut acc: Option<BvTerm> = None;
                    for (o, pred) in incoming.iter().rev() {
                        let Some(cond) = edge_conds.get(&(*pred, b)).cloned() else { continue };
                        if cond == BvFormula::False {
                            continue;
                        }
                        let v = e.int(o, &cond)?;
                        acc = Some(match acc {
                            None => v,
                            Some(rest) => BvTerm::ite(cond, v, rest)?,
                        });
                    }
                    let value = acc.ok_or_else(|| Unsupported("phi without an incoming edge from the region".into()))?;
                    budget.check_term(&value)?;
                    Some(Sym::Int(value))
                }
                Op::Bin { op, flags, bits, lhs, rhs } => {
                    let (a, bb) = (e.int(lhs, &reach)?, e.int(rhs, &reach)?);
                    if a.width() != *bits {
                        return Err(Unsupported(format!("{bits}-bit operation on a {}-bit value", a.width())));
                    }
                    Some(Sym::Int(e.binary(*op, *flags, *bits, a, bb, &reach)?))
                }
                Op::ICmp { pred, lhs, rhs, .. } => {
                    let (a, bb) = (e.int(lhs, &reach)?, e.int(rhs, &reach)?);
                    Some(Sym::Int(BvTerm::from_bool(Encoder::compare(*pred, a, bb)?)))
                }
                Op::Cast { op, to_bits, value, .. } => {
                    let a = e.int(value, &reach)?;
                    if !(1..=64).contains(to_bits) {
                        return Err(Unsupported(format!("cast to {to_bits} bits")));
                    }
                    Some(Sym::Int(match op {
                        CastOp::Trunc => BvTerm::trunc(*to_bits, a)?,
                        CastOp::ZExt => BvTerm::zext(*to_bits, a)?,
                        CastOp::SExt => BvTerm::sext(*to_bits, a)?,
                        CastOp::BitCast if a.width() == *to_bits => a,
                        other => return Err(Unsupported(format!("cast {other:?}"))),
                    }))
                }
                Op::Select { cond, then_value, else_value, ty } => {
                    int_width(ty)?;
                    let cnd = BvFormula::is_true(e.int(cond, &reach)?)?;
                    let (x, y) = (e.int(then_value, &reach)?, e.int(else_value, &reach)?);
                    Some(Sym::Int(BvTerm::ite(cnd, x, y)?))
                }
                Op::Freeze { ty, value } => {
                    let w = int_width(ty)?;
                    Some(match value {
                        Operand::Poison(_) | Operand::Undef(_) => Sym::Int(e.fresh_input("freeze", w)?),
                        other => e.operand(other, &reach)?,
                    })
                }
                Op::ExtractValue { agg, indices, .. } => {
                    let mut cur = e.operand(agg, &reach)?;
                    for &i in indices {
                        cur = match cur {
                            Sym::Agg(parts) => parts.get(i as usize).cloned().ok_or_else(|| Unsupported("extractvalue index".into()))?,
                            Sym::Int(_) => return Err(Unsupported("extractvalue of an integer".into())),
                        };
                    }
                    Some(cur)
                }
                Op::Call { callee: Callee::Direct(fid), args, ret } => {
                    let callee = module.function(*fid);
                    if !callee.is_declaration() {
                        return Err(Unsupported(format!("call to defined function {}", callee.name)));
                    }
                    let name = callee.name.as_str();
                    let external = classify(name);
                    if external == External::Exit {
                        ends.push((b, RegionTarget::Exit(name.to_string()), reach.clone()));
                        reach = BvFormula::False;
                        break;
                    }
                    if external == External::VerifierAssume {
                        let cnd = e.int(args.first().ok_or_else(|| Unsupported("assume without argument".into()))?, &reach)?;
                        let holds = BvFormula::ne(cnd.clone(), c(cnd.width(), 0)?)?;
                        ends.push((b, RegionTarget::Blocked, BvFormula::and([reach.clone(), BvFormula::not(holds.clone())])));
                        reach = BvFormula::and([reach, holds]);
                        None
                    } else {
                        e.call(name, args, ret, &reach)?
                    }
                }
                other => return Err(Unsupported(format!("instruction {}", short(other)))),
            };
            if let (Some(r), Some(v)) = (instr.result, result) {
                e.values.insert(r, v);
            }
        }
        if reach == BvFormula::False {
            continue;
        }
        let mut succ: Vec<(BlockId, BvFormula)> = Vec::new();
        match &block.terminator {
            Terminator::Br(t) => succ.push((*t, reach.clone())),
            Terminator::CondBr { cond, then_block, else_block } => {
                let cnd = BvFormula::is_true(e.int(cond, &reach)?)?;
                succ.push((*then_block, BvFormula::and([reach.clone(), cnd.clone()])));
                succ.push((*else_block, BvFormula::and([reach.clone(), BvFormula::not(cnd)])));
            }
            Terminator::Switch { value, bits, default, cases } => {
                let v = e.int(value, &reach)?;
                let mut none = Vec::new();
                for (k, t) in cases {
                    let hit = BvFormula::eq(v.clone(), BvTerm::signed_constant(*bits, *k)?)?;
                    none.push(BvFormula::not(hit.clone()));
                    succ.push((*t, BvFormula::and([reach.clone(), hit])));
                }
                succ.push((*default, BvFormula::and(std::iter::once(reach.clone()).chain(none))));
            }
            Terminator::Ret(_) => ends.push((b, RegionTarget::Return, reach.clone())),
            Terminator::Unreachable => e.ub.push(reach.clone()),
            Terminator::Invoke { .. } | Terminator::Resume(_) => return Err(Unsupported("unwinding (invoke/resume)".into())),
            Terminator::Unsupported { text } => return Err(Unsupported(format!("terminator {text}"))),
        }
        for (t, cnd) in succ {
            if t != start && blocks.contains(&t) {
                let slot = edge_conds.entry((b, t)).or_insert(BvFormula::False);
                *slot = BvFormula::or([slot.clone(), cnd]);
            } else {
                ends.push((b, RegionTarget::Block(t), cnd));
            }
        }
    }
    let defined: Env = e.values.iter().filter_map(|(v, s)| if let Sym::Int(t) = s { Some((*v, t.clone())) } else { None }).collect();
    let mut edges = Vec::new();
    for (from, to, cond) in ends {
        let mut values = defined.clone();
        if let RegionTarget::Block(t) = &to {
            for instr in &f.block(*t).instrs {
                let Op::Phi { ty, incoming } = &instr.op else { continue };
                let Some(r) = instr.result else { continue };
                let resolved = (|| -> Result<BvTerm, Unsupported> {
                    int_width(ty)?;
                    let (o, _) = incoming.iter().find(|(_, p)| *p == from).ok_or_else(|| Unsupported("phi without this edge".into()))?;
                    e.int(o, &cond)
                })();
                match resolved {
                    Ok(term) => {
                        values.insert(r, term);
                    }
                    Err(err) if *t == start && matches!(ty, Type::Int(_)) => return Err(err),
                    Err(_) => {
                        values.remove(&r);
                    }
                }
            }
        }
        edges.push(EdgeEncoding { from, to, cond, values });
    }
    Ok(RegionEncoding { edges, ub: BvFormula::or(e.ub), inputs: e.inputs })
}

fn short(op: &Op) -> String {
    let s = format!("{op:?}");
    s.split([' ', '{', '(']).next().unwrap_or("?").to_string()
}
