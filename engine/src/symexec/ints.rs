//! Integer value representation and the arithmetic rules (binary operations, casts, the
//! unsigned view) under the three `IntSemantics`.
//!
//! These are the rules of `IntSemantics::Math` (and the signed-view helpers `bv` reuses for
//! `sdiv`/`srem` and signed bitwise operations); `C`/`Wrap` use the view-aware rules of `bv`.
//!
//! Representation: every integer value of width w > 1 is its *signed* two's-complement view
//! (in `C`/`Wrap` always inside [-2^(w-1), 2^(w-1)); in `Math` the results of `nsw`
//! arithmetic are unbounded mathematical integers); `i1` values are 0/1. Pointers are
//! addresses in [0, 2^63) (we assume the allocator places objects in the lower half, so the
//! signed and unsigned views of a pointer coincide).
//!
//! Wrapping arithmetic is encoded *exactly* and linearly: `r = e − 2^w·k`, `r` in range, with a
//! fresh integer `k` (no case split). The unsigned view of a value whose sign is undecided is
//! obtained by refinement (case split `x ≥ 0` / `x < 0`).

use super::ctx::Ctx;
use super::facts::Atom;
use super::state::State;
use crate::ir::{ArithFlags, BinOp};
use crate::logic::{Int, LinExpr, Rel, Var};
use crate::verdict::IntSemantics;

pub fn smin(bits: u32) -> Option<Int> {
    match bits {
        0 => None,
        1 => Some(0),
        b if b >= 127 => None,
        b => Some(-(1i128 << (b - 1))),
    }
}
pub fn smax(bits: u32) -> Option<Int> {
    match bits {
        0 => None,
        1 => Some(1),
        b if b >= 127 => None,
        b => Some((1i128 << (b - 1)) - 1),
    }
}
pub fn modulus(bits: u32) -> Option<Int> {
    if bits == 0 || bits >= 126 {
        None
    } else {
        Some(1i128 << bits)
    }
}

/// Range atoms for a value of width `bits`.
pub fn range_atoms(e: &LinExpr, bits: u32) -> Vec<Atom> {
    let mut out = Vec::new();
    if let Some(lo) = smin(bits) {
        if let Some(a) = Atom::cmp(e, Rel::Ge, &LinExpr::constant(lo)) {
            out.push(a);
        }
    }
    if let Some(hi) = smax(bits) {
        if let Some(a) = Atom::cmp(e, Rel::Le, &LinExpr::constant(hi)) {
            out.push(a);
        }
    }
    out
}

/// A branch of a rule: the refined state and the computed value.
pub struct Branch {
    pub state: State,
    pub value: LinExpr,
}

/// Outcome of an arithmetic rule: continuing branches and possible undefined behaviour.
pub struct Outcome {
    pub branches: Vec<Branch>,
    /// States in which the operation is undefined behaviour (with the reason).
    pub ub: Vec<(State, String)>,
}

impl Outcome {
    pub fn one(state: State, value: LinExpr) -> Outcome {
        Outcome { branches: vec![Branch { state, value }], ub: vec![] }
    }
}

/// Decides `a` in `s`: `Some(true)` if entailed, `Some(false)` if its negation is.
pub fn decide(ctx: &mut Ctx<'_>, s: &State, a: &Atom) -> Option<bool> {
    if let Some(t) = a.const_value() {
        return Some(t);
    }
    if ctx.entails(s, std::slice::from_ref(a)) {
        return Some(true);
    }
    let n = a.negate()?;
    if ctx.entails(s, &[n]) {
        return Some(false);
    }
    None
}

/// Refinement on `a`: the states (with the atom or its negation added) and the truth value.
pub fn split(ctx: &mut Ctx<'_>, s: State, a: &Atom) -> Vec<(State, bool)> {
    match decide(ctx, &s, a) {
        Some(t) => vec![(s, t)],
        None => {
            let mut yes = s.clone();
            yes.add_atom(a.clone());
            let mut no = s;
            if let Some(n) = a.negate() {
                no.add_atom(n);
            }
            vec![(yes, true), (no, false)]
        }
    }
}

/// A fresh variable with the range facts of its width (unless unbounded `Math` values).
pub fn fresh_in_range(ctx: &mut Ctx<'_>, s: &mut State, hint: &str, bits: u32) -> Var {
    let v = ctx.fresh(hint);
    for a in range_atoms(&LinExpr::var(&v), bits) {
        s.add_atom(a);
    }
    v
}

fn eq_atom(v: &Var, e: &LinExpr) -> Option<Atom> {
    Atom::cmp(&LinExpr::var(v), Rel::Eq, e)
}

/// The two's-complement reduction of `e` into width `bits`, exactly: `r = e − 2^w·k`.
pub fn wrap(ctx: &mut Ctx<'_>, mut s: State, e: LinExpr, bits: u32) -> State_Value {
    let ranges = range_atoms(&e, bits);
    if ranges.is_empty() || ctx.entails(&s, &ranges) {
        return (s, e);
    }
    let Some(m) = modulus(bits) else { return (s, e) };
    let k = ctx.fresh("k");
    let r = fresh_in_range(ctx, &mut s, "wrap", bits);
    if let Some(rhs) = e.add_scaled(-m, &LinExpr::var(&k)) {
        if let Some(a) = eq_atom(&r, &rhs) {
            s.add_atom(a);
        }
    }
    (s, LinExpr::var(&r))
}

#[allow(non_camel_case_types)]
pub type State_Value = (State, LinExpr);

/// Unsigned view of `e` (width `bits`): `e` if `e ≥ 0`, `e + 2^w` otherwise (by refinement).
pub fn unsigned_view(ctx: &mut Ctx<'_>, s: State, e: &LinExpr, bits: u32) -> Vec<State_Value> {
    if bits <= 1 {
        return vec![(s, e.clone())];
    }
    let Some(m) = modulus(bits) else { return vec![(s, e.clone())] };
    let Some(nonneg) = Atom::cmp(e, Rel::Ge, &LinExpr::constant(0)) else { return vec![(s, e.clone())] };
    let mut out = vec![];
    for (mut st, pos) in split(ctx, s, &nonneg) {
        if pos {
            out.push((st, e.clone()));
            continue;
        }
        let in_range = smin(bits).and_then(|lo| Atom::cmp(e, Rel::Ge, &LinExpr::constant(lo)));
        if ctx.sem != IntSemantics::Math || in_range.is_some_and(|a| ctx.entails(&st, &[a])) {
            out.push((st, e.add_scaled(1, &LinExpr::constant(m)).unwrap_or_else(|| e.clone())));
            continue;
        }
        // `Math`: an unbounded negative value; its unsigned conversion is e mod 2^w
        let k = ctx.fresh("k");
        let r = ctx.fresh("unsigned");
        let rv = LinExpr::var(&r);
        if let Some(a) = e.add_scaled(m, &LinExpr::var(&k)).and_then(|x| Atom::cmp(&rv, Rel::Eq, &x)) {
            st.add_atom(a);
        }
        st.add_atom(Atom::var_const(&r, Rel::Ge, 0));
        st.add_atom(Atom::var_const(&r, Rel::Le, m - 1));
        out.push((st, rv));
    }
    out
}

/// The `Math` result of a flag-less `add/sub/mul/shl` or of `udiv/urem/lshr` whose exact
/// value is `e` (SEMANTICS.md, `interp::value::math_reduce`): `e` itself when `e ≥ 2^w` (no
/// upper bound), otherwise C's wrapped result `r = e − 2^w·k` in the signed range. Split on
/// `e ≥ 2^w` (decided by entailment first), so both cases are exact.
pub fn math_reduce(ctx: &mut Ctx<'_>, s: State, e: LinExpr, bits: u32) -> Vec<State_Value> {
    let Some(m) = modulus(bits) else { return vec![(s, e)] };
    let Some(big) = Atom::cmp(&e, Rel::Ge, &LinExpr::constant(m)) else { return vec![(s, e)] };
    let mut out = vec![];
    for (st, is_big) in split(ctx, s, &big) {
        if is_big {
            out.push((st, e.clone()));
        } else {
            out.extend(wrap_by_cases(ctx, st, e.clone(), bits));
        }
    }
    out
}

/// `s(e)` for `e < 2^w`: when `e ≥ smin − 2^w` is entailed, by the exact cases `e` (in range),
/// `e − 2^w` (above `smax`) and `e + 2^w` (below `smin`), so the result stays a linear function
/// of `e` (its unsigned reading is `e` again for `e ≥ 0`); otherwise `wrap` with a fresh `k`.
fn wrap_by_cases(ctx: &mut Ctx<'_>, s: State, e: LinExpr, bits: u32) -> Vec<State_Value> {
    let (Some(lo), Some(hi), Some(m)) = (smin(bits), smax(bits), modulus(bits)) else { return vec![(s, e)] };
    let floor = Atom::cmp(&e, Rel::Ge, &LinExpr::constant(lo - m));
    let (Some(floor), Some(le_hi), Some(ge_lo)) = (floor, Atom::cmp(&e, Rel::Le, &LinExpr::constant(hi)), Atom::cmp(&e, Rel::Ge, &LinExpr::constant(lo))) else {
        return vec![wrap(ctx, s, e, bits)];
    };
    if !ctx.entails(&s, &[floor]) {
        return vec![wrap(ctx, s, e, bits)];
    }
    let mut out = vec![];
    for (st, below_hi) in split(ctx, s, &le_hi) {
        if !below_hi {
            out.push((st, e.add_scaled(1, &LinExpr::constant(-m)).unwrap_or_else(|| e.clone())));
            continue;
        }
        for (st, above_lo) in split(ctx, st, &ge_lo) {
            let v = if above_lo { e.clone() } else { e.add_scaled(1, &LinExpr::constant(m)).unwrap_or_else(|| e.clone()) };
            out.push((st, v));
        }
    }
    out
}

/// `trunc` to width `bits`: exact two's-complement reduction, except in `Math` for results
/// wider than i1, where a signed target type keeps the mathematical value; both readings are
/// covered by `r = e − 2^w·k` with `r` unconstrained.
pub fn truncate(ctx: &mut Ctx<'_>, mut s: State, e: LinExpr, bits: u32) -> State_Value {
    if ctx.sem != IntSemantics::Math || bits <= 1 {
        return wrap(ctx, s, e, bits);
    }
    let ranges = range_atoms(&e, bits);
    if ranges.is_empty() || ctx.entails(&s, &ranges) {
        return (s, e);
    }
    let Some(m) = modulus(bits) else { return (s, e) };
    let k = ctx.fresh("k");
    let r = ctx.fresh("trunc");
    if let Some(a) = e.add_scaled(-m, &LinExpr::var(&k)).and_then(|x| Atom::cmp(&LinExpr::var(&r), Rel::Eq, &x)) {
        s.add_atom(a);
    }
    (s, LinExpr::var(&r))
}

/// Stores the mathematically exact result `e` of a signed (`nsw`) or wrapping operation
/// according to the integer semantics.
fn finish(ctx: &mut Ctx<'_>, s: State, e: LinExpr, bits: u32, flags: ArithFlags, what: &str) -> Outcome {
    let sem = ctx.sem;
    match sem {
        IntSemantics::Math if flags.nsw => Outcome::one(s, e),
        IntSemantics::Math => Outcome { branches: math_reduce(ctx, s, e, bits).into_iter().map(|(state, value)| Branch { state, value }).collect(), ub: vec![] },
        IntSemantics::C if flags.nsw || flags.nuw => {
            let ranges = if flags.nsw {
                range_atoms(&e, bits)
            } else {
                // nuw without nsw: provably no unsigned wrap if the exact sum of the
                // (non-negative) operands stays within the signed range; else report.
                range_atoms(&e, bits)
            };
            if ranges.is_empty() || ctx.entails(&s, &ranges) {
                return Outcome::one(s, e);
            }
            // Overflow may happen: undefined behaviour; continue the no-overflow case.
            let mut bad = s.clone();
            let negs: Vec<Atom> = ranges.iter().filter_map(|a| a.negate()).collect();
            bad.add_fact(super::facts::Fact::Or(negs));
            let mut good = s;
            for a in ranges {
                good.add_atom(a);
            }
            let kind = if flags.nsw { "signed" } else { "unsigned" };
            Outcome {
                branches: vec![Branch { state: good, value: e }],
                ub: vec![(bad, format!("possible {kind} overflow in {what} (undefined behaviour)"))],
            }
        }
        _ => {
            let (s, v) = wrap(ctx, s, e, bits);
            Outcome::one(s, v)
        }
    }
}

/// A fresh result of the operation, constrained to the type's range unless `Math`, where
/// `nsw` results, signed quotients and the results of `math_reduce` may lie outside it.
fn unknown(ctx: &mut Ctx<'_>, mut s: State, bits: u32, flags: ArithFlags, hint: &str) -> (State, Var) {
    let _ = flags;
    let unbounded = ctx.sem == IntSemantics::Math;
    let v = if unbounded { ctx.fresh(hint) } else { fresh_in_range(ctx, &mut s, hint, bits) };
    (s, v)
}

fn cst(e: &LinExpr) -> Option<Int> {
    if e.is_constant() {
        Some(e.constant)
    } else {
        None
    }
}

/// Integer binary operation `a op b` of width `bits`.
pub fn binop(ctx: &mut Ctx<'_>, s: State, op: BinOp, flags: ArithFlags, bits: u32, a: &LinExpr, b: &LinExpr) -> Outcome {
    let c_mode = ctx.sem == IntSemantics::C;
    match op {
        BinOp::Add | BinOp::Sub | BinOp::Mul if c_mode && flags.nuw && !flags.nsw => unsigned_no_wrap(ctx, s, op, flags, bits, a, b),
        BinOp::Add | BinOp::Sub => {
            let k = if op == BinOp::Add { 1 } else { -1 };
            match a.add_scaled(k, b) {
                Some(e) => finish(ctx, s, e, bits, flags, if k == 1 { "addition" } else { "subtraction" }),
                None => {
                    let (s, v) = unknown(ctx, s, bits, flags, "arith");
                    Outcome::one(s, LinExpr::var(&v))
                }
            }
        }
        BinOp::Mul | BinOp::Shl => {
            let prod = if op == BinOp::Shl {
                match cst(b) {
                    Some(k) if k >= 0 && (k as u32) < bits && k < 126 => a.scale(1i128 << k),
                    Some(_) => {
                        // Shift by ≥ width: undefined (C) / poison (arbitrary value).
                        return shift_out_of_range(ctx, s, bits, flags, c_mode);
                    }
                    None => None,
                }
            } else {
                match (cst(a), cst(b)) {
                    (Some(c), _) => b.scale(c),
                    (_, Some(c)) => a.scale(c),
                    _ => None,
                }
            };
            match prod {
                Some(e) => finish(ctx, s, e, bits, flags, if op == BinOp::Shl { "shift" } else { "multiplication" }),
                None => {
                    let mut ub = vec![];
                    let mut s = s;
                    if op == BinOp::Shl {
                        let (s2, bad) = check_shift_amount(ctx, s, b, bits, c_mode);
                        s = s2;
                        ub.extend(bad);
                        let (s, v) = unknown(ctx, s, bits, flags, "shl");
                        return Outcome { branches: vec![Branch { state: s, value: LinExpr::var(&v) }], ub };
                    }
                    let facts = product_facts(&s, a, b);
                    let fits = facts.box_bounds.is_some_and(|(lo, hi)| {
                        smin(bits).is_some_and(|m| lo >= m) && smax(bits).is_some_and(|m| hi <= m)
                    });
                    let wrapping = !(flags.nsw && ctx.sem == IntSemantics::Math) && !(c_mode && (flags.nsw || flags.nuw));
                    if c_mode && (flags.nsw || flags.nuw) && !fits {
                        ub.push((s.clone(), "possible overflow in non-linear multiplication (undefined behaviour)".to_string()));
                    }
                    let (mut s, v) = unknown(ctx, s, bits, flags, "mul");
                    // the product facts hold for the mathematical product; a wrapping product
                    // equals it only when it provably fits
                    if !wrapping || fits {
                        for at in facts.atoms(&LinExpr::var(&v)) {
                            s.add_atom(at);
                        }
                    }
                    Outcome { branches: vec![Branch { state: s, value: LinExpr::var(&v) }], ub }
                }
            }
        }
        BinOp::SDiv | BinOp::SRem | BinOp::UDiv | BinOp::URem => division(ctx, s, op, flags, bits, a, b),
        BinOp::AShr | BinOp::LShr => match cst(b) {
            Some(0) if op == BinOp::LShr && ctx.sem == IntSemantics::Math => {
                // `Math`: the unsigned reading of `a`, reduced like every unsigned result
                let mut out = Outcome { branches: vec![], ub: vec![] };
                for (st, x) in unsigned_view(ctx, s, a, bits) {
                    out.branches.extend(math_reduce(ctx, st, x, bits).into_iter().map(|(state, value)| Branch { state, value }));
                }
                out
            }
            Some(0) => Outcome::one(s, a.clone()),
            Some(k) if k > 0 && (k as u32) < bits && k < 126 => {
                let d = 1i128 << k;
                let views = if op == BinOp::AShr { vec![(s, a.clone())] } else { unsigned_view(ctx, s, a, bits) };
                let mut out = Outcome { branches: vec![], ub: vec![] };
                for (mut st, x) in views {
                    let q = ctx.fresh("shr");
                    // d·q ≤ x ≤ d·q + d − 1  (floor division)
                    let dq = LinExpr::var(&q).scale(d).unwrap_or_default();
                    if let Some(at) = Atom::cmp(&dq, Rel::Le, &x) {
                        st.add_atom(at);
                    }
                    if let Some(up) = dq.add_scaled(1, &LinExpr::constant(d - 1)) {
                        if let Some(at) = Atom::cmp(&x, Rel::Le, &up) {
                            st.add_atom(at);
                        }
                    }
                    if op == BinOp::LShr && ctx.sem == IntSemantics::Math {
                        out.branches.extend(math_reduce(ctx, st, LinExpr::var(&q), bits).into_iter().map(|(state, value)| Branch { state, value }));
                    } else {
                        out.branches.push(Branch { state: st, value: LinExpr::var(&q) });
                    }
                }
                out
            }
            Some(_) => shift_out_of_range(ctx, s, bits, flags, c_mode),
            None => {
                let (s, bad) = check_shift_amount(ctx, s, b, bits, c_mode);
                let (mut s, v) = unknown(ctx, s, bits, ArithFlags::default(), "shr");
                if op == BinOp::LShr {
                    // a logical right shift by ≥ 1 is non-negative; by 0 it is `a`.
                    let _ = &mut s;
                }
                Outcome { branches: vec![Branch { state: s, value: LinExpr::var(&v) }], ub: bad }
            }
        },
        BinOp::And | BinOp::Or | BinOp::Xor => bitwise(ctx, s, op, bits, a, b),
    }
}

/// `add/sub/mul nuw` (without `nsw`) in `C` mode: the unsigned result must not wrap
/// (undefined behaviour otherwise); the value is the wrapped result.
fn unsigned_no_wrap(ctx: &mut Ctx<'_>, s: State, op: BinOp, flags: ArithFlags, bits: u32, a: &LinExpr, b: &LinExpr) -> Outcome {
    let plain = ArithFlags { nuw: false, ..flags };
    let mut out = Outcome { branches: vec![], ub: vec![] };
    let Some(m) = modulus(bits) else {
        return binop(ctx, s, op, plain, bits, a, b);
    };
    for (s1, ua) in unsigned_view(ctx, s, a, bits) {
        for (s2, ub) in unsigned_view(ctx, s1, b, bits) {
            let exact = match op {
                BinOp::Add => ua.add_scaled(1, &ub),
                BinOp::Sub => ua.add_scaled(-1, &ub),
                _ => match (cst(&ua), cst(&ub)) {
                    (Some(c), _) => ub.scale(c),
                    (_, Some(c)) => ua.scale(c),
                    _ => None,
                },
            };
            let ok = exact.as_ref().and_then(|e| {
                Some(vec![Atom::cmp(e, Rel::Ge, &LinExpr::constant(0))?, Atom::cmp(e, Rel::Le, &LinExpr::constant(m - 1))?])
            });
            match ok {
                Some(atoms) if ctx.entails(&s2, &atoms) => {}
                Some(atoms) => {
                    let mut bad = s2.clone();
                    bad.add_fact(super::facts::Fact::Or(atoms.iter().filter_map(|x| x.negate()).collect()));
                    out.ub.push((bad, "possible unsigned overflow (nuw, undefined behaviour)".into()));
                }
                None => out.ub.push((s2.clone(), "possible unsigned overflow (nuw, undefined behaviour)".into())),
            }
            let o = binop(ctx, s2, op, plain, bits, a, b);
            out.branches.extend(o.branches);
            out.ub.extend(o.ub);
        }
    }
    out
}

/// Syntactic constant bounds of a linear expression from single-variable KB atoms.
pub fn syntactic_bounds(s: &State, e: &LinExpr) -> (Option<Int>, Option<Int>) {
    if e.is_constant() {
        return (Some(e.constant), Some(e.constant));
    }
    if e.coeffs.len() != 1 {
        return (None, None);
    }
    let Some((v, &k)) = e.coeffs.iter().next() else { return (None, None) };
    let (mut lo, mut hi): (Option<Int>, Option<Int>) = (None, None);
    for f in &s.kb {
        let super::facts::Fact::Atom(a) = f else { continue };
        if a.e.coeffs.len() != 1 {
            continue;
        }
        let Some(&c) = a.e.coeffs.get(v) else { continue };
        let k0 = a.e.constant;
        match (a.rel, c) {
            // v + k0 ≤ 0  ⇒ v ≤ −k0 ; −v + k0 ≤ 0 ⇒ v ≥ k0
            (super::facts::ARel::Le, 1) => hi = Some(hi.map_or(-k0, |h: Int| h.min(-k0))),
            (super::facts::ARel::Le, -1) => lo = Some(lo.map_or(k0, |l: Int| l.max(k0))),
            (super::facts::ARel::Eq, 1) => {
                lo = Some(-k0);
                hi = Some(-k0);
            }
            _ => {}
        }
    }
    // e = k·v + c0
    let c0 = e.constant;
    let map = |x: Option<Int>| x.and_then(|x| x.checked_mul(k)?.checked_add(c0));
    if k > 0 {
        (map(lo), map(hi))
    } else {
        (map(hi), map(lo))
    }
}

/// Sound linear facts about the mathematical product `a·b`.
struct ProductFacts {
    same: bool,
    a: LinExpr,
    a_lo: Option<Int>,
    b: LinExpr,
    b_lo: Option<Int>,
    box_bounds: Option<(Int, Int)>,
}

fn product_facts(s: &State, a: &LinExpr, b: &LinExpr) -> ProductFacts {
    let (la, ua) = syntactic_bounds(s, a);
    let (lb, ub) = syntactic_bounds(s, b);
    let box_bounds = match (la, ua, lb, ub) {
        (Some(la), Some(ua), Some(lb), Some(ub)) => {
            let ps = [la.checked_mul(lb), la.checked_mul(ub), ua.checked_mul(lb), ua.checked_mul(ub)];
            if ps.iter().all(|p| p.is_some()) {
                let ps: Vec<Int> = ps.iter().flatten().copied().collect();
                Some((*ps.iter().min().unwrap_or(&0), *ps.iter().max().unwrap_or(&0)))
            } else {
                None
            }
        }
        _ => None,
    };
    ProductFacts { same: a == b, a: a.clone(), a_lo: la, b: b.clone(), b_lo: lb, box_bounds }
}

impl ProductFacts {
    fn atoms(&self, r: &LinExpr) -> Vec<Atom> {
        let mut out = vec![];
        let zero = LinExpr::constant(0);
        if self.same {
            // x·x ≥ 0, x·x ≥ x, x·x ≥ −x over the integers
            out.extend(Atom::cmp(r, Rel::Ge, &zero));
            out.extend(Atom::cmp(r, Rel::Ge, &self.a));
            out.extend(self.a.scale(-1).and_then(|na| Atom::cmp(r, Rel::Ge, &na)));
        }
        if let Some((lo, hi)) = self.box_bounds {
            out.extend(Atom::cmp(r, Rel::Ge, &LinExpr::constant(lo)));
            out.extend(Atom::cmp(r, Rel::Le, &LinExpr::constant(hi)));
        }
        if let (Some(la), Some(lb)) = (self.a_lo, self.b_lo) {
            if la >= 0 && lb >= 0 {
                // (a − la)(b − lb) ≥ 0  ⇒  a·b ≥ la·b + lb·a − la·lb
                let env = self.b.scale(la).and_then(|x| x.add_scaled(lb, &self.a)).and_then(|x| x.add_scaled(1, &LinExpr::constant(-(la.checked_mul(lb)?))));
                out.extend(env.and_then(|e| Atom::cmp(r, Rel::Ge, &e)));
            }
        }
        out
    }
}

fn shift_out_of_range(ctx: &mut Ctx<'_>, s: State, bits: u32, flags: ArithFlags, c_mode: bool) -> Outcome {
    if c_mode {
        return Outcome { branches: vec![], ub: vec![(s, "shift by at least the bit width (undefined behaviour)".into())] };
    }
    let (s, v) = unknown(ctx, s, bits, flags, "shift");
    Outcome::one(s, LinExpr::var(&v))
}

fn check_shift_amount(ctx: &mut Ctx<'_>, s: State, b: &LinExpr, bits: u32, c_mode: bool) -> (State, Vec<(State, String)>) {
    if !c_mode {
        return (s, vec![]);
    }
    let lo = Atom::cmp(b, Rel::Ge, &LinExpr::constant(0));
    let hi = Atom::cmp(b, Rel::Lt, &LinExpr::constant(bits as i128));
    let (Some(lo), Some(hi)) = (lo, hi) else { return (s.clone(), vec![(s, "shift amount not representable".into())]) };
    if ctx.entails(&s, &[lo.clone(), hi.clone()]) {
        return (s, vec![]);
    }
    let bad = s.clone();
    let mut good = s;
    good.add_atom(lo);
    good.add_atom(hi);
    (good, vec![(bad, "shift amount may be negative or at least the bit width (undefined behaviour)".into())])
}

fn division(ctx: &mut Ctx<'_>, s: State, op: BinOp, flags: ArithFlags, bits: u32, a: &LinExpr, b: &LinExpr) -> Outcome {
    if ctx.sem == IntSemantics::Math && matches!(op, BinOp::UDiv | BinOp::URem) {
        // `Math`: unsigned division divides the unsigned readings (the divisor's too: a zero
        // reading is division by zero)
        let mut out = Outcome { branches: vec![], ub: vec![] };
        for (st, ub) in unsigned_view(ctx, s, b, bits) {
            let o = division_of_readings(ctx, st, op, flags, bits, a, &ub);
            out.branches.extend(o.branches);
            out.ub.extend(o.ub);
        }
        return out;
    }
    division_of_readings(ctx, s, op, flags, bits, a, b)
}

fn division_of_readings(ctx: &mut Ctx<'_>, s: State, op: BinOp, _flags: ArithFlags, bits: u32, a: &LinExpr, b: &LinExpr) -> Outcome {
    let signed = matches!(op, BinOp::SDiv | BinOp::SRem);
    let rem = matches!(op, BinOp::SRem | BinOp::URem);
    let what = if rem { "remainder" } else { "division" };
    if let Some(c) = cst(b) {
        if c == 0 {
            return Outcome { branches: vec![], ub: vec![(s, format!("{what} by zero (undefined behaviour)"))] };
        }
        if c > 0 || signed {
            let mag = c.abs();
            let views = if signed { vec![(s, a.clone())] } else { unsigned_view(ctx, s, a, bits) };
            let mut out = Outcome { branches: vec![], ub: vec![] };
            for (st, x) in views {
                let nonneg = Atom::cmp(&x, Rel::Ge, &LinExpr::constant(0)).unwrap_or(Atom::truth(true));
                for (mut st, pos) in split(ctx, st, &nonneg) {
                    // truncating division by mag > 0: q = trunc(x / mag)
                    let q = ctx.fresh("q");
                    let mq = LinExpr::var(&q).scale(mag).unwrap_or_default();
                    let (lo, hi) = if pos {
                        (mq.clone(), mq.add_scaled(1, &LinExpr::constant(mag - 1)))
                    } else {
                        (mq.add_scaled(1, &LinExpr::constant(-(mag - 1))).unwrap_or_default(), Some(mq.clone()))
                    };
                    if let Some(at) = Atom::cmp(&lo, Rel::Le, &x) {
                        st.add_atom(at);
                    }
                    if let Some(hi) = hi {
                        if let Some(at) = Atom::cmp(&x, Rel::Le, &hi) {
                            st.add_atom(at);
                        }
                    }
                    let value = if rem {
                        x.add_scaled(-mag, &LinExpr::var(&q)).unwrap_or_default()
                    } else if c < 0 {
                        LinExpr::var(&q).scale(-1).unwrap_or_default()
                    } else {
                        LinExpr::var(&q)
                    };
                    if c == -1 && ctx.sem != IntSemantics::Math {
                        // INT_MIN / -1 and INT_MIN % -1 are undefined behaviour in `c` and
                        // `wrap` alike (LLVM: the quotient overflows; the interpreter faults).
                        // The remainder was missed before (found by the differential check:
                        // `nondet() % -1` was "memory safety proved").
                        if let Some(m) = smin(bits) {
                            let above = Atom::cmp(&x, Rel::Gt, &LinExpr::constant(m)).unwrap_or(Atom::truth(true));
                            if !ctx.entails(&st, std::slice::from_ref(&above)) {
                                let mut bad = st.clone();
                                if let Some(at) = Atom::cmp(&x, Rel::Eq, &LinExpr::constant(m)) {
                                    bad.add_atom(at);
                                }
                                out.ub.push((bad, format!("possible overflow in signed {what} (undefined behaviour)")));
                                st.add_atom(above);
                            }
                        }
                    }
                    if !signed && ctx.sem == IntSemantics::Math {
                        out.branches.extend(math_reduce(ctx, st, value, bits).into_iter().map(|(state, value)| Branch { state, value }));
                        continue;
                    }
                    let (st, value) = if !rem && mag == 1 && ctx.sem != IntSemantics::Math { wrap(ctx, st, value, bits) } else { (st, value) };
                    out.branches.push(Branch { state: st, value });
                }
            }
            return out;
        }
    }
    // Variable divisor: division by zero is undefined behaviour in every mode.
    let mut ub = vec![];
    let mut s = s;
    let nz = Atom::cmp(b, Rel::Ne, &LinExpr::constant(0)).unwrap_or(Atom::truth(true));
    if !ctx.entails(&s, std::slice::from_ref(&nz)) {
        let mut bad = s.clone();
        if let Some(z) = nz.negate() {
            bad.add_atom(z);
        }
        ub.push((bad, format!("possible {what} by zero (undefined behaviour)")));
        s.add_atom(nz);
    }
    // `c` and `wrap` alike, as the interpreter (the remainder too).
    if signed && ctx.sem != IntSemantics::Math {
        let not_m1 = Atom::cmp(b, Rel::Ne, &LinExpr::constant(-1)).unwrap_or(Atom::truth(true));
        let not_min = smin(bits).and_then(|m| Atom::cmp(a, Rel::Ne, &LinExpr::constant(m))).unwrap_or(Atom::truth(true));
        if !ctx.entails(&s, std::slice::from_ref(&not_m1)) && !ctx.entails(&s, std::slice::from_ref(&not_min)) {
            ub.push((s.clone(), format!("possible overflow in signed {what} (undefined behaviour)")));
        }
    }
    let (mut s, v) = unknown(ctx, s, bits, ArithFlags::default(), what);
    if signed && rem {
        signed_remainder_bounds(ctx, &mut s, &v, a, b);
    }
    Outcome { branches: vec![Branch { state: s, value: LinExpr::var(&v) }], ub }
}

/// Bounds of a signed (truncated) remainder `r = a srem b` by a non-zero variable divisor
/// that ⟨s⟩ decides the signs for (issue 10: `m % n` with `m ≥ 0`, `n ≥ 1`, a searched
/// index): `r` has the sign of `a` and `|r| ≤ |a|` (`0 ≤ r ≤ a` for `a ≥ 0`, `a ≤ r ≤ 0` for
/// `a ≤ 0`), and `|r| < |b|` (`1 − b ≤ r ≤ b − 1` for `b ≥ 1`, `b + 1 ≤ r ≤ −b − 1` for
/// `b ≤ −1`). Each holds of C's and LLVM's `srem` (and of the interpreter's `%`) for every
/// value the entailed sign allows; an undecided sign adds nothing.
fn signed_remainder_bounds(ctx: &mut Ctx<'_>, s: &mut State, r: &Var, a: &LinExpr, b: &LinExpr) {
    let rv = LinExpr::var(r);
    let zero = LinExpr::constant(0);
    let one = LinExpr::constant(1);
    let holds = |ctx: &mut Ctx<'_>, s: &State, x: &LinExpr, rel: Rel| Atom::cmp(x, rel, &zero).is_some_and(|at| ctx.entails(s, &[at]));
    let mut facts = vec![];
    if holds(ctx, s, a, Rel::Ge) {
        facts.push(Atom::cmp(&rv, Rel::Ge, &zero));
        facts.push(Atom::cmp(&rv, Rel::Le, a));
    } else if holds(ctx, s, a, Rel::Le) {
        facts.push(Atom::cmp(&rv, Rel::Le, &zero));
        facts.push(Atom::cmp(&rv, Rel::Ge, a));
    }
    // b − 1 and b + 1, each computed once (None on coefficient overflow: no bound)
    let (b_minus_1, b_plus_1) = (b.add_scaled(-1, &one), b.add_scaled(1, &one));
    if holds(ctx, s, &b_minus_1.clone().unwrap_or_default(), Rel::Ge) {
        facts.push(b_minus_1.and_then(|bm1| Atom::cmp(&rv, Rel::Le, &bm1)));
        facts.push(one.add_scaled(-1, b).and_then(|lo| Atom::cmp(&rv, Rel::Ge, &lo)));
    } else if holds(ctx, s, &b_plus_1.clone().unwrap_or_default(), Rel::Le) {
        facts.push(b_plus_1.and_then(|lo| Atom::cmp(&rv, Rel::Ge, &lo)));
        facts.push(zero.add_scaled(-1, b).and_then(|x| x.add_scaled(-1, &one)).and_then(|hi| Atom::cmp(&rv, Rel::Le, &hi)));
    }
    s.add_atoms(facts);
}

/// Upper bounds of `r = a | b` or `r = a ^ b` for operands `s` proves non-negative and below
/// `2^width`: `r ≤ a + b` (each bit of the result is a bit of `a` or of `b`, so `a ^ b ≤ a | b
/// ≤ a + b`), and `r ≤ 2^k − 1` for the least `k < width` with `a, b ≤ 2^k − 1` that ⟨s⟩ proves
/// (no bit at or above `k` is set in either operand, so none is in the result). The second
/// bounds a checksum `s ^= v` over values of a known range, which the first alone lets drift;
/// `k` is found by bisection (one query when the operands are not bounded below `2^(width−1)`).
pub fn or_xor_upper_bounds(ctx: &mut Ctx<'_>, s: &State, r: &LinExpr, a: &LinExpr, b: &LinExpr, width: u32) -> Vec<Atom> {
    let mut out: Vec<Atom> = a.add_scaled(1, b).and_then(|sum| Atom::cmp(r, Rel::Le, &sum)).into_iter().collect();
    let below = |k: u32| -> Vec<Atom> {
        let cap = LinExpr::constant((1i128 << k) - 1);
        [a, b].into_iter().filter_map(|x| Atom::cmp(x, Rel::Le, &cap)).collect()
    };
    if !(2..=64).contains(&width) {
        return out;
    }
    // the least proved k lies in [lo, hi]: hi = width − 1 must hold for the search to start
    let (mut lo, mut hi) = (0u32, width - 1);
    if !ctx.entails(s, &below(hi)) {
        return out;
    }
    while lo < hi {
        let mid = (lo + hi) / 2;
        if ctx.entails(s, &below(mid)) {
            hi = mid;
        } else {
            lo = mid + 1;
        }
    }
    out.extend(Atom::cmp(r, Rel::Le, &LinExpr::constant((1i128 << hi) - 1)));
    out
}

fn bitwise(ctx: &mut Ctx<'_>, s: State, op: BinOp, bits: u32, a: &LinExpr, b: &LinExpr) -> Outcome {
    let (ca, cb) = (cst(a), cst(b));
    // identities
    match (op, ca, cb) {
        (BinOp::And, _, Some(-1)) | (BinOp::Or, _, Some(0)) | (BinOp::Xor, _, Some(0)) => return Outcome::one(s, a.clone()),
        (BinOp::And, Some(-1), _) | (BinOp::Or, Some(0), _) | (BinOp::Xor, Some(0), _) => return Outcome::one(s, b.clone()),
        (BinOp::And, _, Some(0)) | (BinOp::And, Some(0), _) => return Outcome::one(s, LinExpr::constant(0)),
        _ => {}
    }
    if bits == 1 {
        // exact encodings over {0,1}
        let mut s = s;
        let r = fresh_in_range(ctx, &mut s, "bool", 1);
        let rv = LinExpr::var(&r);
        let sum = a.add_scaled(1, b).unwrap_or_default();
        let mut add = |lhs: LinExpr, rel: Rel, rhs: LinExpr| {
            if let Some(at) = Atom::cmp(&lhs, rel, &rhs) {
                s.add_atom(at);
            }
        };
        match op {
            BinOp::And => {
                add(rv.clone(), Rel::Le, a.clone());
                add(rv.clone(), Rel::Le, b.clone());
                add(rv.clone(), Rel::Ge, sum.add_scaled(1, &LinExpr::constant(-1)).unwrap_or_default());
            }
            BinOp::Or => {
                add(rv.clone(), Rel::Ge, a.clone());
                add(rv.clone(), Rel::Ge, b.clone());
                add(rv.clone(), Rel::Le, sum);
            }
            _ => {
                add(rv.clone(), Rel::Le, sum.clone());
                add(rv.clone(), Rel::Ge, a.add_scaled(-1, b).unwrap_or_default());
                add(rv.clone(), Rel::Ge, b.add_scaled(-1, a).unwrap_or_default());
                add(rv.clone(), Rel::Le, LinExpr::constant(2).add_scaled(-1, &sum).unwrap_or_default());
            }
        }
        return Outcome::one(s, rv);
    }
    if op == BinOp::Xor && (ca == Some(-1) || cb == Some(-1)) {
        // bitwise not: ~x = −1 − x (exact in two's complement)
        let x = if ca == Some(-1) { b } else { a };
        let v = LinExpr::constant(-1).add_scaled(-1, x).unwrap_or_default();
        return Outcome::one(s, v);
    }
    let mut s = s;
    // `Math`: bitwise results of values outside the type's range may lie outside it too
    let in_range = ctx.sem != IntSemantics::Math || {
        let mut ranges = range_atoms(a, bits);
        ranges.extend(range_atoms(b, bits));
        ctx.entails(&s, &ranges)
    };
    let r = if in_range { fresh_in_range(ctx, &mut s, "bits", bits) } else { ctx.fresh("bits") };
    let rv = LinExpr::var(&r);
    let zero = LinExpr::constant(0);
    let ge0 = |x: &LinExpr| Atom::cmp(x, Rel::Ge, &zero).unwrap_or(Atom::truth(false));
    let a_nn = ctx.entails(&s, &[ge0(a)]);
    let b_nn = ctx.entails(&s, &[ge0(b)]);
    let mut facts = vec![];
    match op {
        BinOp::And => {
            if a_nn || b_nn {
                facts.push(Atom::cmp(&rv, Rel::Ge, &zero));
            }
            if a_nn {
                facts.push(Atom::cmp(&rv, Rel::Le, a));
            }
            if b_nn {
                facts.push(Atom::cmp(&rv, Rel::Le, b));
            }
        }
        BinOp::Or => {
            if a_nn && b_nn {
                facts.push(Atom::cmp(&rv, Rel::Ge, a));
                facts.push(Atom::cmp(&rv, Rel::Ge, b));
            }
        }
        _ => {
            if a_nn && b_nn {
                facts.push(Atom::cmp(&rv, Rel::Ge, &zero));
            }
        }
    }
    if op != BinOp::And && a_nn && b_nn {
        // both operands lie in [0, 2^(bits−1) − 1], the top bit is clear
        facts.extend(or_xor_upper_bounds(ctx, &s, &rv, a, b, bits.saturating_sub(1)).into_iter().map(Some));
    }
    for f in facts.into_iter().flatten() {
        s.add_atom(f);
    }
    Outcome::one(s, rv)
}
