//! Symbolic execution rules: one step of the top frame (an instruction or the terminator)
//! from an abstract state to its successors (digest §4, App. A, plus the rules the paper
//! leaves out: calls, heap, globals, casts, intrinsics).

use super::ctx::Ctx;
use super::facts::Atom;
use super::bv;
use super::ints::{self, fresh_in_range, range_atoms, split, unsigned_view};
use crate::facts::views::View;
use super::state::{Alloc, AllocKind, Frame, PtEntry, State};
use crate::ir::externals::{classify, ArithKind, ArithOp, External, NoOp};
use crate::ir::{BlockId, Callee, CastOp, Instr, IntPred, Op, Operand, SrcLoc, Terminator, Type, ValueId};
use crate::logic::{LinExpr, Rel, Var};
use crate::verdict::IntSemantics;
use std::collections::BTreeMap;

/// Highest address an object may occupy (objects live in the lower half of the address space).
pub const ADDR_MAX: i128 = (1i128 << 63) - 1;

/// A successor of a step.
pub enum Succ {
    State(State),
    /// The error state ERR (memory-safety violation or undefined behaviour), with the
    /// refined state in which it happens.
    Error { state: State, reason: String, loc: Option<SrcLoc> },
    /// A call of a summarized function (seed 002): `caller` is the state at the call
    /// instruction (arguments read), `entry` the same state with the callee's frame pushed and
    /// its parameters bound. The graph builder turns `entry` into the call abstraction and
    /// continues `caller` by intersecting it with the callee's return states.
    Call { caller: State, entry: State },
    /// A return from the bottom frame: the end of the run of the analysed function, and a
    /// return state if that frame is a summarized callee's entry. `value` is the returned
    /// value with the view it is stored in.
    Return { state: State, value: Option<(LinExpr, View)> },
    /// Unwinding (a Rust panic) out of the bottom frame: the run of the analysed function ends
    /// here by a panic started at `loc` (ARCHITECTURE.md, "Rust semantics").
    Unwind { state: State, loc: Option<SrcLoc> },
}

/// Why a path ends without successors.
pub enum Stop {
    /// Normal end of the program run (return from the entry function, exit, abort).
    Leaf,
    /// The analysis cannot continue soundly: MAYBE with this reason.
    Maybe(String),
}

pub type StepResult = Result<Vec<Succ>, Stop>;

/// ` (FILE:LINE)` of a location for reasons and messages (` (line N)` without a file name),
/// empty without a location.
pub fn loc_text(loc: &Option<SrcLoc>) -> String {
    match loc {
        Some(l) if l.line > 0 && !l.file.is_empty() => format!(" ({}:{})", l.file, l.line),
        Some(l) if l.line > 0 => format!(" (line {})", l.line),
        _ => String::new(),
    }
}

pub(super) fn err(state: State, reason: impl Into<String>, loc: &Option<SrcLoc>) -> Succ {
    Succ::Error { state, reason: reason.into(), loc: loc.clone() }
}

/// The symbolic value of an operand (constants stay constants).
pub fn operand(ctx: &mut Ctx<'_>, s: &mut State, o: &Operand) -> Result<LinExpr, Stop> {
    match o {
        Operand::Local(v) => match s.top().lv.get(v) {
            Some(x) => Ok(LinExpr::var(x)),
            None => Err(Stop::Maybe(format!("use of a value without definition (%{})", v.0))),
        },
        Operand::Int { bits, value } => Ok(LinExpr::constant(if *bits == 1 { value & 1 } else { *value })),
        Operand::NullPtr => Ok(LinExpr::constant(0)),
        Operand::Global(g) => {
            match s.allocs.iter().find(|a| a.kind == AllocKind::Global(*g)) {
                Some(a) => Ok(LinExpr::var(&a.start)),
                // Size 0 (no storage), or not among the entry's reachable globals
                // (`ir::global_reach`), which would be a bug: never a fresh block.
                None => Err(Stop::Maybe(format!("address of global `{}` without storage in the entry's state", ctx.module.globals.get(g.0 as usize).map(|g| g.name.as_str()).unwrap_or("?")))),
            }
        }
        Operand::Function(f) => Err(Stop::Maybe(format!("function pointer to `{}`", ctx.module.function(*f).name))),
        Operand::Undef(ty) | Operand::Poison(ty) => {
            let bits = type_bits(ctx, ty);
            Ok(LinExpr::var(&fresh_in_range(ctx, s, "undef", bits)))
        }
        Operand::Unsupported(t) => Err(Stop::Maybe(format!("unsupported constant `{}`", short(t)))),
    }
}

fn short(t: &str) -> String {
    let t = t.trim();
    if t.len() > 80 {
        format!("{}…", &t[..t.char_indices().nth(80).map(|(i, _)| i).unwrap_or(t.len())])
    } else {
        t.to_string()
    }
}

fn type_bits(ctx: &Ctx<'_>, ty: &Type) -> u32 {
    match ty {
        Type::Int(b) => *b,
        Type::Ptr => ctx.module.pointer_bits,
        _ => 0,
    }
}

/// The view local `x` of the top frame is stored in.
fn view_of(ctx: &mut Ctx<'_>, s: &State, x: ValueId) -> View {
    ctx.view(s.top().func, x)
}

/// The view of an optional result (signed when there is none).
pub(super) fn res_view(ctx: &mut Ctx<'_>, s: &State, x: Option<ValueId>) -> View {
    x.map_or(View::Signed, |x| view_of(ctx, s, x))
}

/// Operand `o` of width `bits` read in view `want`: a local stored in the other view is
/// converted by refinement, constants are reduced, undefined values are fresh in range;
/// pointers are addresses (unsigned). Under `Math` the stored (mathematical) value is its
/// signed reading and `ints::unsigned_view` gives its unsigned reading (SEMANTICS.md).
pub fn operand_in(ctx: &mut Ctx<'_>, mut s: State, o: &Operand, bits: u32, want: View) -> Result<Vec<(State, LinExpr)>, Stop> {
    if ctx.sem == IntSemantics::Math || bits == 0 {
        let e = operand(ctx, &mut s, o)?;
        if ctx.sem == IntSemantics::Math && want == View::Unsigned && bits > 1 {
            return Ok(unsigned_view(ctx, s, &e, bits));
        }
        return Ok(vec![(s, e)]);
    }
    match o {
        Operand::Local(v) => {
            let e = operand(ctx, &mut s, o)?;
            let from = view_of(ctx, &s, *v);
            Ok(bv::convert(ctx, s, &e, bits, from, want))
        }
        Operand::Int { .. } => {
            let e = operand(ctx, &mut s, o)?;
            Ok(vec![(s, LinExpr::constant(bv::normalize(e.constant, bits, want)))])
        }
        Operand::Undef(_) | Operand::Poison(_) => {
            let v = bv::fresh_in(ctx, &mut s, "undef", bits, want);
            Ok(vec![(s, LinExpr::var(&v))])
        }
        _ => {
            let e = operand(ctx, &mut s, o)?;
            Ok(bv::convert(ctx, s, &e, bits, View::Unsigned, want))
        }
    }
}

/// Two operands read in views `va`, `vb` (all combinations of their conversions).
fn operands2(ctx: &mut Ctx<'_>, s: State, a: &Operand, b: &Operand, bits: u32, va: View, vb: View) -> Result<Vec<(State, LinExpr, LinExpr)>, Stop> {
    let mut out = vec![];
    for (s1, x) in operand_in(ctx, s, a, bits, va)? {
        for (s2, y) in operand_in(ctx, s1, b, bits, vb)? {
            out.push((s2, x.clone(), y));
        }
    }
    Ok(out)
}

/// Defines `x` (if any) in each state and advances.
fn define_all(ctx: &mut Ctx<'_>, outs: Vec<(State, LinExpr)>, x: Option<ValueId>) -> StepResult {
    let mut states = vec![];
    for (mut st, e) in outs {
        if let Some(x) = x {
            define(ctx, &mut st, x, &e);
        }
        states.push(st);
    }
    done(states)
}

/// The width of an integer or pointer type (0 for others).
fn int_bits(ctx: &Ctx<'_>, ty: &Type) -> u32 {
    type_bits(ctx, ty)
}

/// Makes `e` a variable (fresh with an equation unless it already is one).
pub fn as_var(ctx: &mut Ctx<'_>, s: &mut State, e: &LinExpr, hint: &str) -> Var {
    if e.constant == 0 && e.coeffs.len() == 1 {
        if let Some((v, 1)) = e.coeffs.iter().next() {
            return v.clone();
        }
    }
    let v = ctx.fresh(hint);
    if let Some(a) = Atom::cmp(&LinExpr::var(&v), Rel::Eq, e) {
        s.add_atom(a);
    }
    v
}

fn value_hint(ctx: &Ctx<'_>, s: &State, v: ValueId) -> String {
    let f = ctx.module.function(s.top().func);
    match f.value_names.get(v.0 as usize) {
        Some(Some(n)) => n.clone(),
        _ => "t".into(),
    }
}

/// Binds local `x` to a fresh variable equal to `e`.
pub fn define(ctx: &mut Ctx<'_>, s: &mut State, x: ValueId, e: &LinExpr) {
    let hint = value_hint(ctx, s, x);
    let w = ctx.fresh(&hint);
    super::aggregate::copy_parts(ctx, e, &w);
    super::alignment::define(ctx, &w, e);
    if let Some(a) = Atom::cmp(&LinExpr::var(&w), Rel::Eq, e) {
        s.add_atom(a);
    }
    let copy = e.constant == 0 && e.coeffs.len() == 1 && e.coeffs.values().all(|c| *c == 1);
    if ctx.sem != IntSemantics::Math && !e.is_constant() && !copy {
        // the range of the value's view, explicitly (copies keep their source's facts):
        // projections at generalization points are rational and could otherwise lose bounds
        // that only integer reasoning gives
        if let Some(Type::Int(bits)) = ctx.value_type(s.top().func, x) {
            if bits > 1 {
                let view = ctx.view(s.top().func, x);
                for a in bv::range_atoms(&LinExpr::var(&w), bits, view) {
                    s.add_atom(a);
                }
            }
        }
    }
    s.top_mut().lv.insert(x, w);
}

/// Binds local `x` to the variable `w` (must be fresh for this state).
pub(super) fn bind(s: &mut State, x: ValueId, w: Var) {
    s.top_mut().lv.insert(x, w);
}

pub(super) fn advance(mut s: State) -> State {
    s.top_mut().idx += 1;
    s
}

/// One step of the top frame.
pub fn step(ctx: &mut Ctx<'_>, s: State) -> StepResult {
    let frame = s.top();
    let func = ctx.module.function(frame.func);
    let block = func.block(frame.block);
    if frame.idx < block.instrs.len() {
        let instr = block.instrs[frame.idx].clone();
        instruction(ctx, s, &instr)
    } else {
        let term = block.terminator.clone();
        let loc = block.term_loc.clone();
        terminator(ctx, s, &term, &loc)
    }
}

/// Runs `step` on every state and collects the successors (a case split's branches).
fn each(states: Vec<State>, mut step: impl FnMut(State) -> StepResult) -> StepResult {
    let mut out = vec![];
    for s in states {
        out.extend(step(s)?);
    }
    Ok(out)
}

pub(super) fn done(states: Vec<State>) -> StepResult {
    Ok(states.into_iter().map(|s| Succ::State(advance(s))).collect())
}

fn instruction(ctx: &mut Ctx<'_>, mut s: State, instr: &Instr) -> StepResult {
    let loc = &instr.loc;
    let res = instr.result;
    match &instr.op {
        Op::Alloca { elem_size, count, count_bits } => {
            let mut out = vec![];
            for (s, n) in operand_in(ctx, s, count, *count_bits, View::Unsigned)? {
                let size = n.scale(*elem_size as i128).ok_or_else(|| Stop::Maybe("alloca size overflow".into()))?;
                let depth = s.frames.len() - 1;
                let kind = if is_static_alloca(ctx, &s, count) { AllocKind::Stack(depth) } else { AllocKind::StackDynamic(depth) };
                out.extend(alloc_block(ctx, s, res, &size, kind, loc, "alloca")?);
            }
            Ok(out)
        }
        Op::Load { ty, ptr, size } => {
            let addr = operand(ctx, &mut s, ptr)?;
            let addr = as_var(ctx, &mut s, &addr, "addr");
            let Some(alloc_id) = find_alloc(ctx, &s, &addr, Some(ptr), *size) else {
                if let Some(ms) = super::lists::materialize(ctx, &s, &addr, *size) {
                    return each(ms, |m| instruction(ctx, m, instr));
                }
                return Ok(vec![err(s, "load from memory that may be unallocated or out of bounds", loc)]);
            };
            let Some(x) = res else { return done(vec![s]) };
            let (is_ptr, bits) = match ty {
                Type::Int(b) => (false, *b),
                Type::Ptr => (true, ctx.module.pointer_bits),
                _ => {
                    let w = ctx.fresh("load");
                    bind(&mut s, x, w);
                    return done(vec![s]);
                }
            };
            // value known from PT?
            let mut known = None;
            for p in s.pt.iter().filter(|p| p.alloc == alloc_id && p.size == *size && p.is_ptr == is_ptr) {
                if p.addr == addr {
                    known = Some((p.value.clone(), p.unsigned));
                    break;
                }
            }
            if known.is_none() {
                let cands: Vec<Var> = s
                    .pt
                    .iter()
                    .filter(|p| p.alloc == alloc_id && p.size == *size && p.is_ptr == is_ptr && p.addr != addr)
                    .map(|p| p.addr.clone())
                    .collect();
                for c in cands {
                    if let Some(a) = Atom::cmp(&LinExpr::var(&c), Rel::Eq, &LinExpr::var(&addr)) {
                        if ctx.entails(&s, &[a]) {
                            known = s.pt.iter().find(|p| p.addr == c && p.size == *size && p.is_ptr == is_ptr).map(|p| (p.value.clone(), p.unsigned));
                            break;
                        }
                    }
                }
            }
            let math = ctx.sem == IntSemantics::Math;
            let want = if is_ptr || math { View::Signed } else { view_of(ctx, &s, x) };
            if let Some((v, unsigned)) = known {
                if is_ptr || math {
                    define(ctx, &mut s, x, &LinExpr::var(&v));
                    return done(vec![s]);
                }
                let from = if unsigned { View::Unsigned } else { View::Signed };
                let outs = bv::convert(ctx, s, &LinExpr::var(&v), bits, from, want);
                return define_all(ctx, outs, Some(x));
            }
            let pristine = pristine_value(ctx, &s, alloc_id, &addr, *size, bits, is_ptr);
            let hint = value_hint(ctx, &s, x);
            let w = if is_ptr {
                let w = ctx.fresh(&hint);
                s.add_atom(Atom::var_const(&w, Rel::Ge, 0));
                s.add_atom(Atom::var_const(&w, Rel::Le, ADDR_MAX));
                w
            } else if ctx.sem == IntSemantics::Math && bits > 1 {
                // `Math`: the loaded integer may be of a signed type, i.e. unbounded
                ctx.fresh(&hint)
            } else {
                bv::fresh_in(ctx, &mut s, &hint, bits, want)
            };
            if let Some(c) = pristine {
                let c = if math { c } else { bv::normalize(c, bits, want) };
                s.add_atom(Atom::var_const(&w, Rel::Eq, c));
            }
            let unsigned = !is_ptr && want == View::Unsigned;
            let addr = super::rust_cells::field_address(&mut s, alloc_id, &addr).unwrap_or(addr);
            s.pt.push(PtEntry { addr, size: *size, is_ptr, unsigned, value: w.clone(), alloc: alloc_id });
            bind(&mut s, x, w);
            done(vec![s])
        }
        Op::Store { ty, value, ptr, size } => {
            let addr = operand(ctx, &mut s, ptr)?;
            let addr = as_var(ctx, &mut s, &addr, "addr");
            let Some(alloc_id) = find_alloc(ctx, &s, &addr, Some(ptr), *size) else {
                if let Some(ms) = super::lists::materialize(ctx, &s, &addr, *size) {
                    return each(ms, |m| instruction(ctx, m, instr));
                }
                return Ok(vec![err(s, "store to memory that may be unallocated or out of bounds", loc)]);
            };
            if s.alloc_by_id(alloc_id).is_some_and(|a| a.kind.read_only()) {
                return Ok(vec![err(s, "store through a shared reference (read-only memory)", loc)]);
            }
            // a cell at the start of its block is addressed by the start itself: merges match
            // cells by their address's name, and stores through a copy of the pointer (e.g. a
            // callee's `&mut self`) would otherwise lose the cell at the next merge
            // a field of a struct on the stack or behind a `&mut`: `cell.<block>.<offset>` (`rust_cells`)
            let addr = match (super::rust_cells::field_address(&mut s, alloc_id, &addr), s.alloc_by_id(alloc_id).map(|a| a.start.clone())) {
                (Some(cell), _) => cell,
                (None, Some(start)) if start != addr && Atom::cmp(&LinExpr::var(&addr), Rel::Eq, &LinExpr::var(&start)).is_some_and(|eq| ctx.entails(&s, &[eq])) => start,
                _ => addr,
            };
            invalidate(ctx, &mut s, alloc_id, &LinExpr::var(&addr), *size as i128);
            let is_ptr = matches!(ty, Type::Ptr);
            if matches!(ty, Type::Int(_) | Type::Ptr) {
                let mut v = operand(ctx, &mut s, value)?;
                let bits = int_bits(ctx, ty);
                // integers are stored in the view of the stored local (constants: signed)
                let unsigned = match value {
                    Operand::Local(x) if !is_ptr && ctx.sem != IntSemantics::Math && bits > 1 => view_of(ctx, &s, *x) == View::Unsigned,
                    _ => false,
                };
                if !is_ptr && ctx.sem != IntSemantics::Math && v.is_constant() {
                    v = LinExpr::constant(bv::normalize(v.constant, bits, View::Signed));
                }
                let v = as_var(ctx, &mut s, &v, "stored");
                s.pt.push(PtEntry { addr, size: *size, is_ptr, unsigned, value: v, alloc: alloc_id });
            }
            done(vec![s])
        }
        Op::PtrAdd { base, offset, indices, .. } => {
            let mut e = operand(ctx, &mut s, base)?;
            e = e.add_scaled(1, &LinExpr::constant(*offset)).ok_or_else(|| Stop::Maybe("offset overflow".into()))?;
            // GEP indices are signed
            let mut cur = vec![(s, e)];
            for ix in indices {
                let mut next = vec![];
                for (st, e) in cur {
                    for (st, v) in operand_in(ctx, st, &ix.value, ix.bits, View::Signed)? {
                        next.push((st, e.add_scaled(ix.scale, &v).ok_or_else(|| Stop::Maybe("offset overflow".into()))?));
                    }
                }
                cur = next;
            }
            define_all(ctx, cur, res)
        }
        Op::Bin { op, flags, bits, lhs, rhs } if ctx.sem != IntSemantics::Math => {
            use crate::ir::BinOp;
            let rv = res_view(ctx, &s, res);
            let opv = match op {
                BinOp::UDiv | BinOp::URem | BinOp::LShr => View::Unsigned,
                BinOp::SDiv | BinOp::SRem | BinOp::AShr => View::Signed,
                _ => rv,
            };
            let shift = matches!(op, BinOp::Shl | BinOp::LShr | BinOp::AShr);
            if matches!(op, BinOp::Add | BinOp::Sub | BinOp::Mul | BinOp::Shl) && *bits > 1 && *bits < 126 {
                // static divisibility `x = 2^t·q` (a fact of every run, see `facts::parity`) decides
                // wrap cases that merges cannot (x even ⇒ x ≥ 1 implies x ≥ 2)
                for o in [lhs, rhs] {
                    let Operand::Local(v) = o else { continue };
                    let t = ctx.parity(s.top().func, *v).min(*bits);
                    let Some(x) = s.top().lv.get(v).cloned() else { continue };
                    if t >= 1 {
                        let q = ctx.fresh("q");
                        s.add_atoms([LinExpr::var(&q).scale(1i128 << t).and_then(|m| Atom::cmp(&LinExpr::var(&x), Rel::Eq, &m))]);
                    }
                }
            }
            let mut succ = vec![];
            for (st, a, b) in operands2(ctx, s, lhs, rhs, *bits, opv, if shift { View::Unsigned } else { opv })? {
                let out = bv::binop(ctx, st, *op, *flags, *bits, opv, &a, &b);
                succ.extend(out.ub.into_iter().map(|(st, r)| err(st, r, loc)));
                for br in out.branches {
                    for (mut st, v) in bv::convert(ctx, br.state, &br.value, *bits, opv, rv) {
                        if let Some(x) = res {
                            define(ctx, &mut st, x, &v);
                        }
                        succ.push(Succ::State(advance(st)));
                    }
                }
            }
            Ok(succ)
        }
        Op::Bin { op, flags, bits, lhs, rhs } => {
            let a = operand(ctx, &mut s, lhs)?;
            let b = operand(ctx, &mut s, rhs)?;
            let out = ints::binop(ctx, s, *op, *flags, *bits, &a, &b);
            let mut succ: Vec<Succ> = out.ub.into_iter().map(|(st, r)| err(st, r, loc)).collect();
            for br in out.branches {
                let mut st = br.state;
                if let Some(x) = res {
                    define(ctx, &mut st, x, &br.value);
                }
                succ.push(Succ::State(advance(st)));
            }
            Ok(succ)
        }
        Op::ICmp { pred, bits, lhs, rhs } if ctx.sem != IntSemantics::Math => {
            // unsigned predicates compare unsigned views, signed ones signed views; eq/ne use
            // the stored view of a local operand (no conversion needed)
            let view = match pred {
                IntPred::Ult | IntPred::Ule | IntPred::Ugt | IntPred::Uge => View::Unsigned,
                IntPred::Slt | IntPred::Sle | IntPred::Sgt | IntPred::Sge => View::Signed,
                IntPred::Eq | IntPred::Ne => match (lhs, rhs) {
                    (Operand::Local(x), _) | (_, Operand::Local(x)) => view_of(ctx, &s, *x),
                    _ => View::Unsigned,
                },
            };
            let rel = pred_rel(*pred);
            let mut out = vec![];
            for (st, a, b) in operands2(ctx, s, lhs, rhs, *bits, view, view)? {
                let Some(at) = Atom::cmp(&a, rel, &b) else { return Err(Stop::Maybe("comparison constant overflow".into())) };
                for (mut st, t) in split(ctx, st, &at) {
                    if let Some(x) = res {
                        define(ctx, &mut st, x, &LinExpr::constant(t as i128));
                    }
                    out.push(st);
                }
            }
            done(out)
        }
        Op::ICmp { pred, bits, lhs, rhs } => {
            let a = operand(ctx, &mut s, lhs)?;
            let b = operand(ctx, &mut s, rhs)?;
            let unsigned = matches!(pred, IntPred::Ult | IntPred::Ule | IntPred::Ugt | IntPred::Uge);
            let mut views = vec![];
            if unsigned {
                for (s1, ua) in unsigned_view(ctx, s, &a, *bits) {
                    for (s2, ub) in unsigned_view(ctx, s1, &b, *bits) {
                        views.push((s2, ua.clone(), ub));
                    }
                }
            } else {
                views.push((s, a, b));
            }
            let rel = pred_rel(*pred);
            let mut out = vec![];
            for (st, a, b) in views {
                let Some(at) = Atom::cmp(&a, rel, &b) else { return Err(Stop::Maybe("comparison constant overflow".into())) };
                for (mut st, t) in split(ctx, st, &at) {
                    if let Some(x) = res {
                        define(ctx, &mut st, x, &LinExpr::constant(t as i128));
                    }
                    out.push(st);
                }
            }
            done(out)
        }
        Op::Cast { op, from_bits, to_bits, value } if ctx.sem != IntSemantics::Math => {
            let rv = res_view(ctx, &s, res);
            let (from, to) = (*from_bits, *to_bits);
            let stored = match value {
                Operand::Local(x) => view_of(ctx, &s, *x),
                _ => View::Unsigned,
            };
            let mut outs = vec![];
            match op {
                // the value's bits are unchanged: read it in the result's view
                CastOp::BitCast => outs = operand_in(ctx, s, value, from, rv)?,
                // uns_n(t) fits both views of the wider type
                CastOp::ZExt => outs = operand_in(ctx, s, value, from, View::Unsigned)?,
                CastOp::SExt => {
                    for (st, v) in operand_in(ctx, s, value, from, View::Signed)? {
                        let v = if from == 1 { v.scale(-1).unwrap_or_default() } else { v };
                        outs.extend(bv::convert(ctx, st, &v, to, View::Signed, rv));
                    }
                }
                CastOp::PtrToInt | CastOp::IntToPtr if to >= from => {
                    for (st, v) in operand_in(ctx, s, value, from, View::Unsigned)? {
                        let target = if *op == CastOp::IntToPtr { View::Unsigned } else { rv };
                        outs.extend(bv::convert(ctx, st, &v, to, View::Unsigned, target));
                    }
                }
                CastOp::Trunc | CastOp::PtrToInt | CastOp::IntToPtr => {
                    let target = if *op == CastOp::IntToPtr { View::Unsigned } else { rv };
                    for (st, v) in operand_in(ctx, s, value, from, stored)? {
                        outs.extend(bv::wrap_into(ctx, st, v, to, target));
                    }
                }
            }
            define_all(ctx, outs, res)
        }
        Op::Cast { op, from_bits, to_bits, value } => {
            let v = operand(ctx, &mut s, value)?;
            let mut out = vec![];
            match op {
                CastOp::BitCast => out.push((s, v)),
                CastOp::PtrToInt | CastOp::IntToPtr if to_bits >= from_bits => out.push((s, v)),
                CastOp::SExt => {
                    if *from_bits == 1 {
                        out.push((s, v.scale(-1).unwrap_or_default()));
                    } else {
                        out.push((s, v));
                    }
                }
                CastOp::ZExt => out = unsigned_view(ctx, s, &v, *from_bits),
                CastOp::Trunc | CastOp::PtrToInt | CastOp::IntToPtr => {
                    let (st, w) = ints::truncate(ctx, s, v, *to_bits);
                    out.push((st, w));
                }
            }
            let mut res_states = vec![];
            for (mut st, e) in out {
                if let Some(x) = res {
                    define(ctx, &mut st, x, &e);
                }
                res_states.push(st);
            }
            done(res_states)
        }
        Op::Select { cond, then_value, else_value, ty } => {
            let c = operand(ctx, &mut s, cond)?;
            let at = Atom::cmp(&c, Rel::Ne, &LinExpr::constant(0)).unwrap_or(Atom::truth(true));
            let rv = res_view(ctx, &s, res);
            let bits = if matches!(ty, Type::Int(_)) { int_bits(ctx, ty) } else { 0 };
            let mut out = vec![];
            for (st, b) in split(ctx, s, &at) {
                out.extend(operand_in(ctx, st, if b { then_value } else { else_value }, bits, rv)?);
            }
            define_all(ctx, out, res)
        }
        Op::Freeze { value, ty } => {
            let rv = res_view(ctx, &s, res);
            let bits = if matches!(ty, Type::Int(_)) { int_bits(ctx, ty) } else { 0 };
            let outs = operand_in(ctx, s, value, bits, rv)?;
            define_all(ctx, outs, res)
        }
        Op::ExtractValue { agg, indices, ty } => super::aggregate::extract(ctx, s, agg, indices, ty, res),
        Op::InsertValue { agg, value, indices, .. } => super::aggregate::insert(ctx, s, agg, value, indices, res),
        Op::LandingPad { .. } => {
            // the exception in flight: an aggregate with unknown fields
            if let Some(x) = res {
                let w = ctx.fresh("exception");
                bind(&mut s, x, w);
            }
            done(vec![s])
        }
        Op::Phi { .. } => {
            // Phis are evaluated together when control enters the block (see `transfer`).
            done(vec![s])
        }
        Op::Call { callee, args, ret } => call(ctx, s, callee, args, ret, res, loc),
        Op::Unsupported { text } => Err(Stop::Maybe(format!("unsupported instruction `{}`{}", short(text), loc_text(loc)))),
        #[allow(unreachable_patterns)]
        other => Err(Stop::Maybe(format!("unsupported instruction `{}`{}", short(&format!("{other:?}")), loc_text(loc)))),
    }
}

/// Allocates `size` bytes; the result (if any) is the start address.
pub(super) fn alloc_block(ctx: &mut Ctx<'_>, mut s: State, res: Option<ValueId>, size: &LinExpr, kind: AllocKind, loc: &Option<SrcLoc>, what: &str) -> StepResult {
    let positive = Atom::cmp(size, Rel::Ge, &LinExpr::constant(1)).unwrap_or(Atom::truth(false));
    if !ctx.entails(&s, std::slice::from_ref(&positive)) {
        return Ok(vec![err(s, format!("{what} of a size that may not be positive"), loc)]);
    }
    let start = ctx.fresh(what);
    let end = ctx.fresh("end");
    let end_e = LinExpr::var(&start).add_scaled(1, size).and_then(|e| e.add_scaled(1, &LinExpr::constant(-1)));
    if let Some(a) = end_e.and_then(|e| Atom::cmp(&LinExpr::var(&end), Rel::Eq, &e)) {
        s.add_atom(a);
    }
    s.add_atom(Atom::var_const(&end, Rel::Le, ADDR_MAX));
    let id = ctx.fresh_alloc_id();
    s.allocs.push(Alloc { id, start: start.clone(), end, kind, pristine: None });
    if let Some(x) = res {
        bind(&mut s, x, start);
    }
    done(vec![s])
}

/// The allocation that provably contains `[addr, addr+size-1]`; `src` is the operand the
/// address came from (in the top frame). If no allocation is proved at first and `src` is a
/// local with a static congruence `src − B ≡ 0 (mod g)`, g ≥ 2 (see `facts::congruence`), the check is
/// retried with the hypothesis `addr − LV(B) = g·k` for an integer k: a fact of every run
/// reaching this use (`addr` is `src`'s current value and `LV(B)` the latest value of `B` in
/// the same frame), so the retry only excludes unreachable concrete states. It lets the
/// entailment derive e.g. `p + 3 ≤ a + 4n − 1` from `p < a + 4n` and `p = a + 4k`.
pub(super) fn find_alloc(ctx: &mut Ctx<'_>, s: &State, addr: &Var, src: Option<&Operand>, size: u64) -> Option<u32> {
    if let Some(id) = find_alloc_in(ctx, s, addr, size) {
        return Some(id);
    }
    let hyp = congruence_hypothesis(ctx, s, addr, src?)?;
    let mut refined = s.clone();
    refined.add_atom(hyp);
    find_alloc_in(ctx, &refined, addr, size)
}

/// `addr − LV(B) = g·k` for `src`'s static congruence `(B, g)` with `g ≥ 2`, if `src` is a
/// local of the top frame, `addr` its current value and `B` still has a value in that frame.
fn congruence_hypothesis(ctx: &mut Ctx<'_>, s: &State, addr: &Var, src: &Operand) -> Option<Atom> {
    let Operand::Local(v) = src else { return None };
    let frame = s.frames.last()?;
    if frame.lv.get(v) != Some(addr) {
        return None;
    }
    let crate::facts::congruence::Cong::Base { base, g } = ctx.congruence(frame.func, *v) else { return None };
    if g < 2 || base == *v {
        return None;
    }
    let g = i128::try_from(g).ok()?;
    let b = frame.lv.get(&base)?;
    // a name `Ctx::fresh` never produces (it maps `#` to `_`): fresh for every state, and
    // stable so that the entailment cache still works
    let k = Var::new("k#congruence");
    let diff = LinExpr::var(addr).add_scaled(-1, &LinExpr::var(b))?;
    Atom::cmp(&diff, Rel::Eq, &LinExpr::var(&k).scale(g)?)
}

/// The allocation that provably contains `[addr, addr+size-1]` in `s`.
fn find_alloc_in(ctx: &mut Ctx<'_>, s: &State, addr: &Var, size: u64) -> Option<u32> {
    let mut order: Vec<usize> = (0..s.allocs.len()).collect();
    // cheap hints first: the address is an allocation start, or a PT entry of the allocation
    let hinted = |i: usize| {
        let a = &s.allocs[i];
        a.start == *addr || s.pt.iter().any(|p| p.alloc == a.id && p.addr == *addr)
    };
    order.sort_by_key(|i| if hinted(*i) { 0 } else { 1 });
    let last = LinExpr::var(addr).add_scaled(1, &LinExpr::constant(size as i128 - 1))?;
    let offsets = super::rust_cells::Offsets::of(s);
    for i in order {
        let a = &s.allocs[i];
        // decided by the knowledge base's equations when they fix the offsets (no z3 query)
        match offsets.inside(addr, size, &a.start, &a.end) {
            Some(true) => return Some(a.id),
            Some(false) => continue,
            None => {}
        }
        let lo = Atom::cmp(&LinExpr::var(&a.start), Rel::Le, &LinExpr::var(addr))?;
        let hi = Atom::cmp(&last, Rel::Le, &LinExpr::var(&a.end))?;
        if ctx.entails(s, &[lo, hi]) {
            return Some(a.id);
        }
    }
    None
}

/// Removes the PT entries of allocation `alloc` that may overlap `[addr, addr+len-1]`.
fn invalidate(ctx: &mut Ctx<'_>, s: &mut State, alloc: u32, addr: &LinExpr, len: i128) {
    if let Some(a) = s.allocs.iter_mut().find(|a| a.id == alloc) {
        a.pristine = None;
    }
    // the checks see the cells as they are before the write: their values give address
    // disequalities (a cell holding a nonzero byte is not the string's 0 terminator); so the
    // state is only read while deciding, and the cells are dropped afterwards
    let mut keep = Vec::with_capacity(s.pt.len());
    let mut proved_apart = vec![];
    let offsets = super::rust_cells::Offsets::of(s);
    for p in &s.pt {
        if p.alloc != alloc {
            keep.push(true);
            continue;
        }
        let pe = LinExpr::var(&p.addr);
        // disjoint: addr + len ≤ p.addr  or  p.addr + p.size ≤ addr
        let before = addr.add_scaled(1, &LinExpr::constant(len)).and_then(|e| Atom::cmp(&e, Rel::Le, &pe));
        let after = pe.add_scaled(1, &LinExpr::constant(p.size as i128)).and_then(|e| Atom::cmp(&e, Rel::Le, addr));
        // decided by the knowledge base's equations when they fix `addr − p.addr` (no z3 query)
        let by_offset = offsets.offset_of(addr, &p.addr).map(|d| [d.checked_add(len).is_some_and(|e| e <= 0), i128::from(p.size) <= d]);
        let disjoint = match by_offset {
            Some([is_before, is_after]) => if is_before { before } else if is_after { after } else { None },
            None => [before, after].into_iter().flatten().find(|b| ctx.entails(s, std::slice::from_ref(b))),
        };
        keep.push(disjoint.is_some());
        proved_apart.extend(disjoint);
    }
    let mut kept = keep.into_iter();
    s.pt.retain(|_| kept.next().unwrap_or(false));
    // the separation is a fact of the state; kept in the KB because the write may remove
    // what proved it (the old value that differed from the kept cell's, e.g. a nonzero byte
    // overwritten by a value that may be 0 in front of a string's terminator)
    for a in proved_apart {
        s.add_atom(a);
    }
}

/// Value of an untouched global's initializer at a provably constant offset. A pointer is
/// known only when all its bytes are known zeros (the image records pointer constants other
/// than `null` as unknown bytes): rustc's `Err(AllocError)` constant `{ null, undef }`.
fn pristine_value(ctx: &mut Ctx<'_>, s: &State, alloc: u32, addr: &Var, size: u64, bits: u32, is_ptr: bool) -> Option<i128> {
    let a = s.alloc_by_id(alloc)?;
    let bytes = a.pristine.clone()?;
    let start = a.start.clone();
    // find the offset: try a model, then prove it
    let diff = ctx.fresh("off");
    let mut probe = s.clone();
    let eq = Atom::cmp(&LinExpr::var(&diff), Rel::Eq, &LinExpr::var(addr).add_scaled(-1, &LinExpr::var(&start))?)?;
    probe.add_atom(eq);
    let off = ctx.model(&probe, std::slice::from_ref(&diff))?.first().copied()?;
    let claim = Atom::cmp(&LinExpr::var(addr), Rel::Eq, &LinExpr::var(&start).add_scaled(1, &LinExpr::constant(off))?)?;
    if !ctx.entails(s, &[claim]) || off < 0 {
        return None;
    }
    let mut val: u128 = 0;
    for i in (0..size as usize).rev() {
        let b = (*bytes.get(off as usize + i)?)?;
        val = (val << 8) | b as u128;
    }
    if is_ptr {
        return (val == 0).then_some(0);
    }
    // signed view of the loaded width
    let w = bits.min(size as u32 * 8);
    let v = if w >= 1 && w < 127 {
        let m = 1i128 << w;
        let v = (val as i128) & (m - 1);
        if w > 1 && v >= m / 2 {
            v - m
        } else {
            v
        }
    } else {
        val as i128
    };
    Some(v)
}

/// Control transfer to `target`: evaluates the target's phis in parallel (they read the values
/// of the block we leave) and records the previous block.
pub fn transfer(ctx: &mut Ctx<'_>, s: State, target: BlockId) -> Result<Vec<State>, Stop> {
    let from = s.top().block;
    let func = ctx.module.function(s.top().func);
    let block = func.block(target);
    let mut vals = vec![];
    let mut n_phi = 0;
    for instr in &block.instrs {
        let Op::Phi { incoming, .. } = &instr.op else { break };
        n_phi += 1;
        let Some((o, _)) = incoming.iter().find(|(_, b)| *b == from) else {
            return Err(Stop::Maybe(format!("phi without an incoming value for block {}", func.block(from).name)));
        };
        let o = o.clone();
        let ty = match &instr.op {
            Op::Phi { ty, .. } => ty.clone(),
            _ => Type::Void,
        };
        vals.push((instr.result, o, ty));
    }
    // incoming values read in the phi's view (the same class, so normally no conversion)
    let mut cur: Vec<(State, Vec<(Option<ValueId>, LinExpr)>)> = vec![(s, vec![])];
    for (r, o, ty) in vals {
        let mut next = vec![];
        for (st, acc) in cur {
            let rv = res_view(ctx, &st, r);
            let bits = if matches!(ty, Type::Int(_)) { int_bits(ctx, &ty) } else { 0 };
            for (st, v) in operand_in(ctx, st, &o, bits, rv)? {
                let mut acc = acc.clone();
                acc.push((r, v));
                next.push((st, acc));
            }
        }
        cur = next;
    }
    let mut out = vec![];
    for (s, vals) in cur {
        out.push(enter_block(ctx, s, from, target, n_phi, vals));
    }
    Ok(out)
}

fn enter_block(ctx: &mut Ctx<'_>, mut s: State, from: BlockId, target: BlockId, n_phi: usize, vals: Vec<(Option<ValueId>, LinExpr)>) -> State {
    {
        let f = s.top_mut();
        f.prev = Some(from);
        f.block = target;
        f.idx = n_phi;
    }
    for (r, v) in vals {
        if let Some(x) = r {
            define(ctx, &mut s, x, &v);
        }
    }
    s
}

fn terminator(ctx: &mut Ctx<'_>, mut s: State, t: &Terminator, loc: &Option<SrcLoc>) -> StepResult {
    match t {
        Terminator::Br(b) => Ok(transfer(ctx, s, *b)?.into_iter().map(Succ::State).collect()),
        Terminator::CondBr { cond, then_block, else_block } => {
            let c = operand(ctx, &mut s, cond)?;
            let at = Atom::cmp(&c, Rel::Ne, &LinExpr::constant(0)).unwrap_or(Atom::truth(true));
            let mut out = vec![];
            for (st, b) in split(ctx, s, &at) {
                out.extend(transfer(ctx, st, if b { *then_block } else { *else_block })?.into_iter().map(Succ::State));
            }
            Ok(out)
        }
        Terminator::Switch { value, bits, default, cases } => {
            let v = operand(ctx, &mut s, value)?;
            let sview = match value {
                Operand::Local(x) => view_of(ctx, &s, *x),
                _ => View::Signed,
            };
            let math = ctx.sem == IntSemantics::Math;
            let mut out = vec![];
            let mut rest = Some(s);
            for (c, target) in cases {
                let Some(st) = rest.take() else { break };
                let cv = if *bits == 1 {
                    c & 1
                } else if math {
                    *c
                } else {
                    bv::normalize(*c, *bits, sview)
                };
                let at = Atom::cmp(&v, Rel::Eq, &LinExpr::constant(cv)).unwrap_or(Atom::truth(false));
                for (st, b) in split(ctx, st, &at) {
                    if b {
                        out.extend(transfer(ctx, st, *target)?.into_iter().map(Succ::State));
                    } else {
                        rest = Some(st);
                    }
                }
            }
            if let Some(st) = rest {
                out.extend(transfer(ctx, st, *default)?.into_iter().map(Succ::State));
            }
            Ok(out)
        }
        Terminator::Ret(v) => {
            // the returned value is read in the view of the caller's result
            let caller_res = if s.frames.len() >= 2 {
                let caller = &s.frames[s.frames.len() - 2];
                let func = ctx.module.function(caller.func);
                func.block(caller.block).instrs.get(caller.idx).and_then(|i| i.result).map(|x| (caller.func, x))
            } else {
                None
            };
            let want = match caller_res {
                Some((f, x)) => ctx.view(f, x),
                None => View::Signed,
            };
            let ret_ty = ctx.module.function(s.top().func).ret.clone();
            if s.frames.len() == 1 {
                // the bottom frame: the value is kept in the view it is stored in (the call
                // result's view is converted to when a caller is intersected with it)
                let value = match v {
                    Some(o) => {
                        let view = match o {
                            Operand::Local(x) => view_of(ctx, &s, *x),
                            _ => View::Signed,
                        };
                        Some((operand(ctx, &mut s, o)?, view))
                    }
                    None => None,
                };
                return Ok(vec![Succ::Return { state: s, value }]);
            }
            let bits = if matches!(ret_ty, Type::Int(_)) && caller_res.is_some() { int_bits(ctx, &ret_ty) } else { 0 };
            let mut outs = vec![];
            match v {
                Some(o) => {
                    for (st, e) in operand_in(ctx, s, o, bits, want)? {
                        outs.push((st, Some(e)));
                    }
                }
                None => outs.push((s, None)),
            }
            let mut succ = vec![];
            for (s, rv) in outs {
                succ.extend(return_to_caller(ctx, s, rv)?);
            }
            Ok(succ)
        }
        Terminator::Unreachable => Ok(vec![err(s, "reached `unreachable` (undefined behaviour)", loc)]),
        // reached only when the invoked call returned normally
        Terminator::Invoke { normal, .. } => Ok(transfer(ctx, s, *normal)?.into_iter().map(Succ::State).collect()),
        Terminator::Resume(_) => unwind(ctx, s, loc, false),
        Terminator::Unsupported { text } => Err(Stop::Maybe(format!("unsupported terminator `{}`{}", short(text), loc_text(loc)))),
    }
}

/// Unwinding (ARCHITECTURE.md, "Rust semantics"): from the call at the top frame's current
/// instruction (`at_call`, a panic) or from the top frame itself (`resume`), control goes to
/// the unwind destination of the closest `invoke` on the stack, popping (and freeing the stack
/// memory of) every frame it leaves; with none, the run ends by unwinding out of the bottom
/// frame (`Succ::Unwind`). `loc` is where the panic started, for the report.
pub fn unwind(ctx: &mut Ctx<'_>, mut s: State, loc: &Option<SrcLoc>, mut at_call: bool) -> StepResult {
    loop {
        if at_call {
            let fr = s.top();
            let block = ctx.module.function(fr.func).block(fr.block);
            if let (true, Terminator::Invoke { unwind, .. }) = (fr.idx + 1 == block.instrs.len(), &block.terminator) {
                let target = *unwind;
                return Ok(transfer(ctx, s, target)?.into_iter().map(Succ::State).collect());
            }
        }
        if s.frames.len() == 1 {
            return Ok(vec![Succ::Unwind { state: s, loc: loc.clone() }]);
        }
        let depth = s.frames.len() - 1;
        pop_frame(&mut s, depth);
        at_call = true;
    }
}

/// Pops the top frame and binds the caller's call result to `rv`.
fn return_to_caller(ctx: &mut Ctx<'_>, mut s: State, rv: Option<LinExpr>) -> StepResult {
    {
            let depth = s.frames.len() - 1;
            pop_frame(&mut s, depth);
            if s.frames.is_empty() {
                return Err(Stop::Leaf);
            }
            // the caller is at its call instruction
            let caller = s.top();
            let func = ctx.module.function(caller.func);
            let instr = &func.block(caller.block).instrs[caller.idx];
            if let (Some(x), Some(e)) = (instr.result, rv) {
                define(ctx, &mut s, x, &e);
            }
            s.top_mut().idx += 1;
            Ok(vec![Succ::State(s)])
    }
}

/// The caller `s` (at a call of a summarized function) after the call returned `ret` (the
/// returned value in the view it was stored in): the result is read in the view of the
/// call's result (by refinement where the views differ) and bound; the frame advances.
pub fn finish_call(ctx: &mut Ctx<'_>, s: State, ret: Option<(LinExpr, View)>) -> Vec<State> {
    let caller = s.top();
    let func = ctx.module.function(caller.func);
    let instr = &func.block(caller.block).instrs[caller.idx];
    let (Some(x), Some((e, from))) = (instr.result, ret) else { return vec![advance(s)] };
    let ty = match &instr.op {
        Op::Call { ret, .. } => ret.clone(),
        _ => Type::Void,
    };
    let to = ctx.view(caller.func, x);
    let outs = if ctx.sem != IntSemantics::Math && matches!(ty, Type::Int(_)) {
        let bits = int_bits(ctx, &ty);
        bv::convert(ctx, s, &e, bits, from, to)
    } else {
        vec![(s, e)]
    };
    outs.into_iter()
        .map(|(mut st, v)| {
            define(ctx, &mut st, x, &v);
            advance(st)
        })
        .collect()
}

/// Whether the alloca about to execute certainly runs before any `llvm.stacksave` of its
/// frame: a constant count, in the entry block, with no stacksave call before it there.
fn is_static_alloca(ctx: &Ctx<'_>, s: &State, count: &Operand) -> bool {
    let Some(frame) = s.frames.last() else { return false };
    if frame.block != BlockId(0) || !matches!(count, Operand::Int { .. }) {
        return false;
    }
    let func = ctx.module.function(frame.func);
    func.blocks[0].instrs[..frame.idx].iter().all(|i| match &i.op {
        Op::Call { callee: Callee::Direct(f), .. } => classify(&ctx.module.function(*f).name) != External::StackSave,
        _ => true,
    })
}

/// Pops frame `depth`, freeing its stack allocations (and their PT entries).
fn pop_frame(s: &mut State, depth: usize) {
    let dead: Vec<u32> = s.allocs.iter().filter(|a| Ctx::owned_by_depth(a.kind, depth)).map(|a| a.id).collect();
    s.allocs.retain(|a| !dead.contains(&a.id));
    s.pt.retain(|p| !dead.contains(&p.alloc));
    s.frames.truncate(depth);
}

fn call(ctx: &mut Ctx<'_>, mut s: State, callee: &Callee, args: &[Operand], ret: &Type, res: Option<ValueId>, loc: &Option<SrcLoc>) -> StepResult {
    let f = match callee {
        Callee::Direct(f) => *f,
        Callee::Indirect(_) => return Err(Stop::Maybe(format!("call through a function pointer{}", loc_text(loc)))),
        Callee::Unsupported(t) => return Err(Stop::Maybe(format!("unsupported call `{}`{}", short(t), loc_text(loc)))),
    };
    let func = ctx.module.function(f);
    let name = func.name.clone();
    if ctx.proved_callees.contains(&f) && matches!(func.ret, Type::Int(_) | Type::Void) && func.params.len() == args.len() && !func.is_vararg {
        return proved_callee_call(ctx, s, f, args, res);
    }
    if !func.is_declaration() {
        let summarized = ctx.summarized(f) != crate::facts::recursion::Summarized::No && !super::lists_rust::runs_in_place(ctx, &s, f);
        if !summarized && s.frames.iter().any(|fr| fr.func == f) {
            // cannot happen: every member of a recursive component is summarized
            return Err(Stop::Maybe(format!("recursion not covered by summaries: `{name}`{}", loc_text(loc))));
        }
        if func.params.len() != args.len() && !func.is_vararg {
            return Err(Stop::Maybe(format!("call of `{name}` with {} arguments for {} parameters", args.len(), func.params.len())));
        }
        if func.is_vararg {
            return Err(Stop::Maybe(format!("call of variadic function `{name}`")));
        }
        // arguments are read in the views of the callee's parameters
        let params = func.params.clone();
        let mut cur: Vec<(State, Vec<LinExpr>)> = vec![(s, vec![])];
        for ((p, ty), a) in params.iter().zip(args) {
            let want = ctx.view(f, *p);
            let bits = if matches!(ty, Type::Int(_)) { int_bits(ctx, ty) } else { 0 };
            let mut next = vec![];
            for (st, acc) in cur {
                for (st, v) in operand_in(ctx, st, a, bits, want)? {
                    let mut acc = acc.clone();
                    acc.push(v);
                    next.push((st, acc));
                }
            }
            cur = next;
        }
        let mut out = vec![];
        for (caller, vals) in cur {
            let mut s = caller.clone();
            s.frames.push(Frame { func: f, block: BlockId(0), prev: None, idx: 0, lv: BTreeMap::new() });
            for ((p, _), v) in params.iter().zip(vals) {
                define(ctx, &mut s, *p, &v);
            }
            out.push(if summarized { Succ::Call { caller, entry: s } } else { Succ::State(s) });
        }
        return Ok(out);
    }
    let ret_bits = type_bits(ctx, ret);
    let kind = classify(&name);
    let arg = |ctx: &mut Ctx<'_>, s: &mut State, i: usize| -> Result<LinExpr, Stop> {
        match args.get(i) {
            Some(o) => operand(ctx, s, o),
            None => Err(Stop::Maybe(format!("call of `{name}` with too few arguments"))),
        }
    };
    match kind {
        // `llvm.codeview.annotation` and `llvm.sideeffect` are not among these (unknown
        // externals, MAYBE), while every other `llvm.experimental.*` is: as before the
        // classifier existed.
        External::NoOp(NoOp::Dbg | NoOp::Lifetime | NoOp::NoAliasScopeDecl | NoOp::OtherExperimental | NoOp::DoNothing | NoOp::VarAnnotation) => {
            done(vec![s])
        }
        External::StackRestore => {
            // Restoring the stack pointer frees every alloca made after the matching
            // stacksave; we free all allocas of the frame that may be such (see
            // `AllocKind::StackDynamic`), which over-approximates the freed memory.
            let depth = s.frames.len() - 1;
            let dead: Vec<u32> = s.allocs.iter().filter(|a| a.kind == AllocKind::StackDynamic(depth)).map(|a| a.id).collect();
            s.allocs.retain(|a| !dead.contains(&a.id));
            s.pt.retain(|p| !dead.contains(&p.alloc));
            done(vec![s])
        }
        External::StackSave => {
            if let Some(x) = res {
                let w = ctx.fresh("stack");
                bind(&mut s, x, w);
            }
            done(vec![s])
        }
        External::Expect => {
            let rv = res_view(ctx, &s, res);
            let o = args.first().cloned().ok_or_else(|| Stop::Maybe(format!("call of `{name}` with too few arguments")))?;
            let outs = operand_in(ctx, s, &o, ret_bits, rv)?;
            define_all(ctx, outs, res)
        }
        External::MinMax(mm) if ctx.sem != IntSemantics::Math && args.len() == 2 => {
            let iv = if mm.signed { View::Signed } else { View::Unsigned };
            let max = mm.max;
            let rv = res_view(ctx, &s, res);
            let mut outs = vec![];
            for (st, a, b) in operands2(ctx, s, &args[0], &args[1], ret_bits, iv, iv)? {
                let at = Atom::cmp(&a, Rel::Ge, &b).unwrap_or(Atom::truth(true));
                for (st, ge) in split(ctx, st, &at) {
                    let pick = if ge == max { &a } else { &b };
                    outs.extend(bv::convert(ctx, st, pick, ret_bits, iv, rv));
                }
            }
            define_all(ctx, outs, res)
        }
        External::Abs if ctx.sem != IntSemantics::Math && !args.is_empty() => {
            // |a| in the signed view; −smin wraps to smin, which is poison if the flag says so
            let poison_min = matches!(args.get(1), Some(Operand::Int { value, .. }) if value & 1 == 1);
            let rv = res_view(ctx, &s, res);
            let mut outs = vec![];
            let mut succ = vec![];
            for (st, a) in operand_in(ctx, s, &args[0], ret_bits, View::Signed)? {
                let at = Atom::cmp(&a, Rel::Ge, &LinExpr::constant(0)).unwrap_or(Atom::truth(true));
                for (st, nonneg) in split(ctx, st, &at) {
                    if nonneg {
                        outs.extend(bv::convert(ctx, st, &a, ret_bits, View::Signed, rv));
                        continue;
                    }
                    let mut st = st;
                    if poison_min {
                        if let Some(lo) = ints::smin(ret_bits) {
                            let not_min = Atom::cmp(&a, Rel::Ne, &LinExpr::constant(lo)).unwrap_or(Atom::truth(true));
                            if !ctx.entails(&st, std::slice::from_ref(&not_min)) {
                                let mut bad = st.clone();
                                bad.add_atoms([Atom::cmp(&a, Rel::Eq, &LinExpr::constant(lo))]);
                                if ctx.sem == IntSemantics::C {
                                    succ.push(err(bad, "abs of the minimal value (poison, undefined behaviour in C)", loc));
                                } else {
                                    let w = bv::fresh_in(ctx, &mut bad, "poison", ret_bits, rv);
                                    outs.push((bad, LinExpr::var(&w)));
                                }
                                st.add_atoms([Atom::cmp(&a, Rel::Ge, &LinExpr::constant(lo + 1))]);
                            }
                        }
                    }
                    let neg = a.scale(-1).unwrap_or_default();
                    for (st, v) in bv::wrap_into(ctx, st, neg, ret_bits, View::Signed) {
                        outs.extend(bv::convert(ctx, st, &v, ret_bits, View::Signed, rv));
                    }
                }
            }
            let mut states = vec![];
            for (mut st, e) in outs {
                if let Some(x) = res {
                    define(ctx, &mut st, x, &e);
                }
                states.push(Succ::State(advance(st)));
            }
            succ.extend(states);
            Ok(succ)
        }
        External::Arith { op, signed, kind: arith @ (ArithKind::WithOverflow | ArithKind::Saturating), bits } if args.len() == 2 => {
            use crate::ir::BinOp;
            let iv = if signed { View::Signed } else { View::Unsigned };
            let op = match op {
                ArithOp::Add => BinOp::Add,
                ArithOp::Sub => BinOp::Sub,
                ArithOp::Mul => BinOp::Mul,
            };
            let saturating = arith == ArithKind::Saturating;
            let bits = bits.unwrap_or(0);
            if bits == 0 || (saturating && op == BinOp::Mul) {
                return Err(Stop::Maybe(format!("unsupported intrinsic `{name}`{}", loc_text(loc))));
            }
            let mut outs = vec![];
            let math = ctx.sem == IntSemantics::Math;
            for (st, a, b) in operands2(ctx, s, &args[0], &args[1], bits, iv, iv)? {
                // under `Math` an operand may lie outside the type's range: reduce it first
                let mut ab = vec![(st, a, b)];
                if math {
                    let mut next = vec![];
                    for (st, a, b) in ab {
                        for (st, a) in bv::wrap_into(ctx, st, a, bits, iv) {
                            for (st, b) in bv::wrap_into(ctx, st, b.clone(), bits, iv) {
                                next.push((st, a.clone(), b));
                            }
                        }
                    }
                    ab = next;
                }
                for (st, a, b) in ab {
                    if saturating {
                        let rv = res_view(ctx, &st, res);
                        for (st, v) in bv::saturating(ctx, st, op, bits, iv, &a, &b) {
                            outs.extend(bv::convert(ctx, st, &v, bits, iv, rv));
                        }
                        continue;
                    }
                    for (mut st, v, f) in bv::with_overflow(ctx, st, op, bits, iv, &a, &b) {
                        // the aggregate is a fresh name; `extractvalue` finds its parts, held
                        // by fresh non-root variables: generalization projects them away, so
                        // after a merge (which may reuse the aggregate's name for several
                        // paths) they are unconstrained, never wrong
                        let agg = ctx.fresh("agg");
                        let pv = ctx.fresh("part");
                        st.add_atoms([Atom::cmp(&LinExpr::var(&pv), Rel::Eq, &v)]);
                        let pf = ctx.fresh("ovf");
                        st.add_atoms([Atom::cmp(&LinExpr::var(&pf), Rel::Eq, &f)]);
                        ctx.agg_parts.insert(
                            agg.clone(),
                            vec![
                                super::ctx::AggPart { path: vec![0], value: LinExpr::var(&pv), view: iv },
                                super::ctx::AggPart { path: vec![1], value: LinExpr::var(&pf), view: View::Unsigned },
                            ],
                        );
                        if let Some(x) = res {
                            bind(&mut st, x, agg);
                        }
                        outs.push((st, LinExpr::constant(0)));
                    }
                }
            }
            let mut states = vec![];
            for (mut st, e) in outs {
                if saturating {
                    if let Some(x) = res {
                        define(ctx, &mut st, x, &e);
                    }
                }
                states.push(st);
            }
            done(states)
        }
        External::Assume => {
            let c = arg(ctx, &mut s, 0)?;
            assume(ctx, s, &c)
        }
        External::MinMax(mm) => {
            let a = arg(ctx, &mut s, 0)?;
            let b = arg(ctx, &mut s, 1)?;
            let unsigned = !mm.signed;
            let max = mm.max;
            let mut views = vec![];
            if unsigned {
                for (s1, ua) in unsigned_view(ctx, s, &a, ret_bits) {
                    for (s2, ub) in unsigned_view(ctx, s1, &b, ret_bits) {
                        views.push((s2, ua.clone(), ub));
                    }
                }
            } else {
                views.push((s, a.clone(), b.clone()));
            }
            let mut out = vec![];
            for (st, ua, ub) in views {
                let at = Atom::cmp(&ua, Rel::Ge, &ub).unwrap_or(Atom::truth(true));
                for (mut st, ge) in split(ctx, st, &at) {
                    let pick_a = ge == max;
                    if let Some(x) = res {
                        define(ctx, &mut st, x, if pick_a { &a } else { &b });
                    }
                    out.push(st);
                }
            }
            done(out)
        }
        External::Abs => {
            let a = arg(ctx, &mut s, 0)?;
            let at = Atom::cmp(&a, Rel::Ge, &LinExpr::constant(0)).unwrap_or(Atom::truth(true));
            let mut out = vec![];
            for (st, nonneg) in split(ctx, s, &at) {
                let v = if nonneg { a.clone() } else { a.scale(-1).unwrap_or_default() };
                // `Math`: exact, like the interpreter's `arith::abs`
                let (mut st, v) = if nonneg || ctx.sem == IntSemantics::Math { (st, v) } else { ints::wrap(ctx, st, v, ret_bits) };
                if let Some(x) = res {
                    define(ctx, &mut st, x, &v);
                }
                out.push(st);
            }
            done(out)
        }
        External::MemSet { .. } | External::MemCpy { .. } | External::MemMove { .. } => {
            let dst = arg(ctx, &mut s, 0)?;
            let len = arg(ctx, &mut s, 2)?;
            let dst = as_var(ctx, &mut s, &dst, "dst");
            let Some(n) = (if len.is_constant() { Some(len.constant) } else { None }) else {
                return Err(Stop::Maybe(format!("`{name}` with a non-constant length{}", loc_text(loc))));
            };
            if n < 0 {
                // the length is a `size_t`: its unsigned reading is at least 2^63
                return Ok(vec![err(s, format!("`{name}` writes memory that may be unallocated or out of bounds"), loc)]);
            }
            if n > 0 {
                let Some(d_alloc) = find_alloc(ctx, &s, &dst, args.first(), n as u64) else {
                    return Ok(vec![err(s, format!("`{name}` writes memory that may be unallocated or out of bounds"), loc)]);
                };
                if s.alloc_by_id(d_alloc).is_some_and(|a| a.kind.read_only()) {
                    return Ok(vec![err(s, format!("`{name}` writes through a shared reference (read-only memory)"), loc)]);
                }
                if !matches!(kind, External::MemSet { .. }) {
                    let src = arg(ctx, &mut s, 1)?;
                    let src = as_var(ctx, &mut s, &src, "src");
                    if find_alloc(ctx, &s, &src, args.get(1), n as u64).is_none() {
                        return Ok(vec![err(s, format!("`{name}` reads memory that may be unallocated or out of bounds"), loc)]);
                    }
                }
                invalidate(ctx, &mut s, d_alloc, &LinExpr::var(&dst), n);
            }
            if let Some(x) = res {
                bind(&mut s, x, dst);
            }
            done(vec![s])
        }
        External::Malloc | External::Calloc => {
            let size = if kind == External::Malloc {
                // size_t: the unsigned view
                let o = args.first().cloned().ok_or_else(|| Stop::Maybe(format!("call of `{name}` with too few arguments")))?;
                let pb = ctx.module.pointer_bits;
                let mut outs = operand_in(ctx, s, &o, pb, View::Unsigned)?;
                if outs.len() != 1 {
                    let mut succ = vec![];
                    for (st, size) in outs {
                        succ.extend(alloc_heap(ctx, st, res, &size, loc)?);
                    }
                    return Ok(succ);
                }
                let (st, size) = outs.remove(0);
                s = st;
                size
            } else {
                let a = arg(ctx, &mut s, 0)?;
                let b = arg(ctx, &mut s, 1)?;
                match (a.is_constant(), b.is_constant()) {
                    (true, _) => b.scale(a.constant).ok_or_else(|| Stop::Maybe("calloc size overflow".into()))?,
                    (_, true) => a.scale(b.constant).ok_or_else(|| Stop::Maybe("calloc size overflow".into()))?,
                    _ => return Err(Stop::Maybe(format!("calloc with a non-linear size{}", loc_text(loc)))),
                }
            };
            alloc_heap(ctx, s, res, &size, loc)
        }
        External::Free => {
            let p = arg(ctx, &mut s, 0)?;
            free(ctx, s, &p, loc)
        }
        // `_Exit` has never been in this list (an unknown external here, MAYBE).
        External::Exit if name != "_Exit" => Err(Stop::Leaf),
        External::Panic { unwinds: false } => Err(Stop::Leaf),
        External::Panic { unwinds: true } => unwind(ctx, s, loc, true),
        External::RustAlloc(op) => super::rust_alloc::call(ctx, s, op, args, res, loc),
        External::VerifierAssume => {
            let c = arg(ctx, &mut s, 0)?;
            assume(ctx, s, &c)
        }
        External::Nondet { unsigned, .. } => {
            let w = match ret {
                // `Math`: values of signed types are unbounded mathematical integers (the
                // function's name states the C type of the input).
                Type::Int(b) if ctx.sem == IntSemantics::Math && *b > 1 && !unsigned => ctx.fresh("nondet"),
                Type::Int(b) if ctx.sem == IntSemantics::Math => fresh_in_range(ctx, &mut s, "nondet", *b),
                Type::Int(b) => {
                    let rv = res_view(ctx, &s, res);
                    bv::fresh_in(ctx, &mut s, "nondet", *b, rv)
                }
                Type::Ptr => {
                    let w = ctx.fresh("nondet_ptr");
                    s.add_atom(Atom::var_const(&w, Rel::Ge, 0));
                    s.add_atom(Atom::var_const(&w, Rel::Le, ADDR_MAX));
                    w
                }
                _ => ctx.fresh("nondet"),
            };
            s.inputs.push((name.clone(), w.clone()));
            if let Some(x) = res {
                bind(&mut s, x, w);
            }
            done(vec![s])
        }
        External::Bits(_) | External::Output(_) | External::MemRead(_) | External::Strlen => super::libc::call(ctx, s, kind, &name, args, ret, res, loc),
        _ => Err(Stop::Maybe(format!("call of unknown external function `{name}`{}", loc_text(loc)))),
    }
}

/// A call of a callee proved to terminate and to be memory safe for all arguments, whose code
/// touches no memory (`Ctx::proved_callees`): its only effect is its result, an arbitrary
/// value of the return type (in the view the caller reads it). The arguments are still read,
/// so whatever reading them checks is checked as for an executed call.
fn proved_callee_call(ctx: &mut Ctx<'_>, mut s: State, f: crate::ir::FuncId, args: &[Operand], res: Option<ValueId>) -> StepResult {
    let params = ctx.module.function(f).params.clone();
    let mut cur = vec![s];
    for ((p, ty), a) in params.iter().zip(args) {
        let want = ctx.view(f, *p);
        let bits = if matches!(ty, Type::Int(_)) { int_bits(ctx, ty) } else { 0 };
        let mut next = vec![];
        for st in cur {
            next.extend(operand_in(ctx, st, a, bits, want)?.into_iter().map(|(st, _)| st));
        }
        cur = next;
    }
    ctx.assumed_calls += 1;
    let ret = ctx.module.function(f).ret.clone();
    let mut out = vec![];
    for st in cur {
        s = st;
        arbitrary_result(ctx, &mut s, &ret, res);
        out.push(s);
    }
    done(out)
}

/// Binds `res` (if any, of integer type `ret`) to an arbitrary value of its type: in range of
/// the view it is read in, any integer under `Math` (the mathematical, signed reading).
pub(super) fn arbitrary_result(ctx: &mut Ctx<'_>, s: &mut State, ret: &Type, res: Option<ValueId>) {
    if let (Some(x), Type::Int(b)) = (res, ret) {
        let w = match ctx.sem {
            IntSemantics::Math => ctx.fresh("result"),
            _ => {
                let rv = res_view(ctx, s, res);
                bv::fresh_in(ctx, s, "result", *b, rv)
            }
        };
        bind(s, x, w);
    }
}

fn assume(ctx: &mut Ctx<'_>, mut s: State, c: &LinExpr) -> StepResult {
    let at = Atom::cmp(c, Rel::Ne, &LinExpr::constant(0)).unwrap_or(Atom::truth(true));
    match at.negate() {
        Some(neg) if ctx.entails(&s, std::slice::from_ref(&neg)) => Ok(vec![]),
        _ => {
            s.add_atom(at);
            done(vec![s])
        }
    }
}

/// `malloc`/`calloc`: a fresh heap block (success assumed, as in the interpreter). A size
/// that may be 0 or "negative" (≥ 2^63 as size_t) yields a null pointer in that case.
fn alloc_heap(ctx: &mut Ctx<'_>, s: State, res: Option<ValueId>, size: &LinExpr, loc: &Option<SrcLoc>) -> StepResult {
    let positive = Atom::cmp(size, Rel::Ge, &LinExpr::constant(1)).unwrap_or(Atom::truth(false));
    let mut out = vec![];
    for (mut st, pos) in split(ctx, s, &positive) {
        if pos {
            let r = alloc_block(ctx, st, res, size, AllocKind::Heap, loc, "malloc")?;
            out.extend(r);
        } else {
            if let Some(x) = res {
                define(ctx, &mut st, x, &LinExpr::constant(0));
            }
            out.push(Succ::State(advance(st)));
        }
    }
    Ok(out)
}

fn free(ctx: &mut Ctx<'_>, s: State, p: &LinExpr, loc: &Option<SrcLoc>) -> StepResult {
    let null = Atom::cmp(p, Rel::Eq, &LinExpr::constant(0)).unwrap_or(Atom::truth(false));
    let mut out = vec![];
    for (mut st, is_null) in split(ctx, s, &null) {
        if is_null {
            out.push(Succ::State(advance(st)));
            continue;
        }
        let heap: Vec<(u32, Var)> = st.allocs.iter().filter(|a| a.kind == AllocKind::Heap).map(|a| (a.id, a.start.clone())).collect();
        let mut found = None;
        for (id, start) in heap {
            if let Some(a) = Atom::cmp(p, Rel::Eq, &LinExpr::var(&start)) {
                if ctx.entails(&st, &[a]) {
                    found = Some(id);
                    break;
                }
            }
        }
        if found.is_none() {
            // the first cell of a list invariant is freed as the heap block it is
            let addr = as_var(ctx, &mut st, p, "addr");
            if let Some(ms) = super::lists::materialize(ctx, &st, &addr, 1) {
                out.extend(each(ms, |m| free(ctx, m, p, loc))?);
                continue;
            }
        }
        match found {
            Some(id) => {
                st.allocs.retain(|a| a.id != id);
                st.pt.retain(|x| x.alloc != id);
                out.push(Succ::State(advance(st)));
            }
            None => out.push(err(st, "free of a pointer that may not be the start of a live heap block (invalid or double free)", loc)),
        }
    }
    Ok(out)
}

/// Range facts of a fresh program-level value (exposed for the initial state).
pub fn param_facts(e: &LinExpr, ty: &Type, pointer_bits: u32, sem: IntSemantics) -> Vec<Atom> {
    match ty {
        Type::Int(b) if sem == IntSemantics::Math && *b > 1 => vec![],
        Type::Int(b) => range_atoms(e, *b),
        Type::Ptr => {
            let _ = pointer_bits;
            let mut v = vec![];
            v.extend(Atom::cmp(e, Rel::Ge, &LinExpr::constant(0)));
            v.extend(Atom::cmp(e, Rel::Le, &LinExpr::constant(ADDR_MAX)));
            v
        }
        _ => vec![],
    }
}

/// The relation an integer predicate compares its operands (in the predicate's view) with.
fn pred_rel(pred: IntPred) -> Rel {
    match pred {
        IntPred::Eq => Rel::Eq,
        IntPred::Ne => Rel::Ne,
        IntPred::Ugt | IntPred::Sgt => Rel::Gt,
        IntPred::Uge | IntPred::Sge => Rel::Ge,
        IntPred::Ult | IntPred::Slt => Rel::Lt,
        IntPred::Ule | IntPred::Sle => Rel::Le,
    }
}

