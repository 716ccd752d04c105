//! View-aware bitvector rules (seed 004) for `IntSemantics::C` and `Wrap`: conversions
//! between the signed and unsigned views by refinement, wrap-around by exact case splits
//! instead of fresh multiples of 2^w, overflow checks for `nsw`/`nuw`, and the arithmetic
//! intrinsics. Every function takes operands already in the view it is told and returns its
//! results in that view.
//!
//! Soundness: all encodings are exact over ℤ. A case split adds the case's condition to the
//! refined state and computes the value that two's-complement arithmetic gives under it; the
//! cases cover all values the operands can have (they are in range by the range facts of their
//! view). Where the number of wraps is not small, the exact `r = e − 2^w·k` with a fresh `k`
//! is kept.

use super::ctx::Ctx;
use super::facts::{Atom, Fact};
use super::ints::{modulus, smax, smin, split, Branch, Outcome};
use super::state::State;
use crate::facts::views::View;
use crate::ir::{ArithFlags, BinOp};
use crate::logic::{Int, LinExpr, Rel, Var};
use crate::verdict::IntSemantics;

pub type StateValue = (State, LinExpr);

/// The value range of width `bits` in `view` (`i1` is {0, 1} in both).
pub fn bounds(bits: u32, view: View) -> Option<(Int, Int)> {
    if bits == 1 {
        return Some((0, 1));
    }
    match view {
        View::Signed => Some((smin(bits)?, smax(bits)?)),
        View::Unsigned => Some((0, modulus(bits)? - 1)),
    }
}

/// Range atoms `lo ≤ e ≤ hi` of `view`.
pub fn range_atoms(e: &LinExpr, bits: u32, view: View) -> Vec<Atom> {
    let Some((lo, hi)) = bounds(bits, view) else { return vec![] };
    [Atom::cmp(e, Rel::Ge, &LinExpr::constant(lo)), Atom::cmp(e, Rel::Le, &LinExpr::constant(hi))].into_iter().flatten().collect()
}

/// A fresh variable in the range of `view`.
pub fn fresh_in(ctx: &mut Ctx<'_>, s: &mut State, hint: &str, bits: u32, view: View) -> Var {
    let v = ctx.fresh(hint);
    for a in range_atoms(&LinExpr::var(&v), bits, view) {
        s.add_atom(a);
    }
    v
}

/// The mathematical reduction of the constant `c` into `view` (`c mod 2^w`, shifted for signed).
pub fn normalize(c: Int, bits: u32, view: View) -> Int {
    if bits == 1 {
        return c & 1;
    }
    let Some(m) = modulus(bits) else { return c };
    let u = c.rem_euclid(m);
    match view {
        View::Unsigned => u,
        View::Signed => {
            if u >= m / 2 {
                u - m
            } else {
                u
            }
        }
    }
}

/// `e` (stored in view `from`) read in view `to`: uns_n / sig_n by refinement on
/// `e ≥ 0` resp. `e ≤ smax` (no split when the state decides it).
pub fn convert(ctx: &mut Ctx<'_>, s: State, e: &LinExpr, bits: u32, from: View, to: View) -> Vec<StateValue> {
    if from == to || bits <= 1 {
        return vec![(s, e.clone())];
    }
    if e.is_constant() {
        return vec![(s, LinExpr::constant(normalize(e.constant, bits, to)))];
    }
    let Some(m) = modulus(bits) else { return vec![unknown_wide(ctx, s)] };
    let (at, shift) = match to {
        View::Unsigned => (Atom::cmp(e, Rel::Ge, &LinExpr::constant(0)), m),
        View::Signed => (smax(bits).and_then(|h| Atom::cmp(e, Rel::Le, &LinExpr::constant(h))), -m),
    };
    let Some(at) = at else { return vec![(s, e.clone())] };
    split(ctx, s, &at)
        .into_iter()
        .map(|(st, keep)| {
            let v = if keep { e.clone() } else { e.add_scaled(1, &LinExpr::constant(shift)).unwrap_or_else(|| e.clone()) };
            (st, v)
        })
        .collect()
}

/// The two's-complement reduction of the exact value `e` into `view`: `e` itself when it is
/// provably in range; otherwise, if `e` provably lies within one wrap of the range, the exact
/// cases `r = e`, `r = e − 2^w`, `r = e + 2^w` (only those not refuted); otherwise the exact
/// `r = e − 2^w·k` with a fresh `k` and `r` in range.
pub fn wrap_into(ctx: &mut Ctx<'_>, s: State, e: LinExpr, bits: u32, view: View) -> Vec<StateValue> {
    let (Some((lo, hi)), Some(m)) = (bounds(bits, view), modulus(bits)) else { return vec![unknown_wide(ctx, s)] };
    if e.is_constant() {
        return vec![(s, LinExpr::constant(normalize(e.constant, bits, view)))];
    }
    let ranges = range_atoms(&e, bits, view);
    if ctx.entails(&s, &ranges) {
        return vec![(s, e)];
    }
    let window = [Atom::cmp(&e, Rel::Ge, &LinExpr::constant(lo - m)), Atom::cmp(&e, Rel::Le, &LinExpr::constant(hi + m))];
    if window.iter().all(|a| a.is_some()) && ctx.entails(&s, &window.iter().flatten().cloned().collect::<Vec<_>>()) {
        let mut out = vec![];
        let ge_lo = Atom::cmp(&e, Rel::Ge, &LinExpr::constant(lo)).unwrap_or(Atom::truth(true));
        for (st, above) in split(ctx, s, &ge_lo) {
            if !above {
                out.push((st, e.add_scaled(1, &LinExpr::constant(m)).unwrap_or_else(|| e.clone())));
                continue;
            }
            let le_hi = Atom::cmp(&e, Rel::Le, &LinExpr::constant(hi)).unwrap_or(Atom::truth(true));
            for (st, inside) in split(ctx, st, &le_hi) {
                let v = if inside { e.clone() } else { e.add_scaled(1, &LinExpr::constant(-m)).unwrap_or_else(|| e.clone()) };
                out.push((st, v));
            }
        }
        return out;
    }
    let mut s = s;
    let k = ctx.fresh("k");
    let r = fresh_in(ctx, &mut s, "wrap", bits, view);
    if let Some(a) = e.add_scaled(-m, &LinExpr::var(&k)).and_then(|x| Atom::cmp(&LinExpr::var(&r), Rel::Eq, &x)) {
        s.add_atom(a);
    }
    // Bounds of `e` reduced into the range (an interval or seed 004's inBounds).
    if let (Some(lb), Some(ub)) = super::ints::syntactic_bounds(&s, &e) {
        super::inbounds::add_wrapped_range(ctx, &mut s, &LinExpr::var(&r), lb, ub, bits, view);
    }
    vec![(s, LinExpr::var(&r))]
}

/// A value of a width too large for exact constants (≥ 126 bits): unconstrained (sound).
fn unknown_wide(ctx: &mut Ctx<'_>, s: State) -> StateValue {
    let v = ctx.fresh("wide");
    (s, LinExpr::var(&v))
}

/// `e`, or the constant the state's equations pin it to (`v = c`, or a chain of copies ending
/// in one: `rust_cells::constant_value`): a product with a value known to be constant (an
/// inlined callee's parameter bound to `size_of::<T>()`) is linear.
fn pinned(s: &State, e: &LinExpr) -> LinExpr {
    match super::ints::syntactic_bounds(s, e) {
        (Some(lo), Some(hi)) if lo == hi && !e.is_constant() => return LinExpr::constant(lo),
        _ => {}
    }
    let mut vars = e.coeffs.iter();
    match (vars.next(), vars.next()) {
        (Some((v, k)), None) => super::rust_cells::constant_value(s, v).and_then(|c| c.checked_mul(*k)?.checked_add(e.constant)).map_or_else(|| e.clone(), LinExpr::constant),
        _ => e.clone(),
    }
}

fn cst(e: &LinExpr) -> Option<Int> {
    if e.is_constant() {
        Some(e.constant)
    } else {
        None
    }
}

/// The exact mathematical result of a linear operation, if it is linear.
fn exact(op: BinOp, bits: u32, a: &LinExpr, b: &LinExpr) -> Option<LinExpr> {
    match op {
        BinOp::Add => a.add_scaled(1, b),
        BinOp::Sub => a.add_scaled(-1, b),
        BinOp::Mul => match (cst(a), cst(b)) {
            (Some(c), _) => b.scale(c),
            (_, Some(c)) => a.scale(c),
            _ => None,
        },
        BinOp::Shl => match cst(b) {
            Some(k) if k >= 0 && (k as u32) < bits && k < 126 => a.scale(1i128 << k),
            _ => None,
        },
        _ => None,
    }
}

/// `C` mode: for each of `nsw` (signed view) and `nuw` (unsigned view) set in `flags`, the
/// exact result must be in that view's range; returns the states where it is (the range
/// facts added) and the undefined-behaviour states.
fn overflow_checks(ctx: &mut Ctx<'_>, s: State, op: BinOp, flags: ArithFlags, bits: u32, view: View, a: &LinExpr, b: &LinExpr, what: &str) -> (Vec<State>, Vec<(State, String)>) {
    let mut good = vec![s];
    let mut ub = vec![];
    if ctx.sem != IntSemantics::C {
        return (good, ub);
    }
    for (flag, fview, kind) in [(flags.nsw, View::Signed, "signed"), (flags.nuw, View::Unsigned, "unsigned")] {
        if !flag {
            continue;
        }
        let mut next = vec![];
        for st in good {
            for (s1, ca) in convert(ctx, st, a, bits, view, fview) {
                // the shift amount is the same in both views (it must be < bits anyway)
                let bview = if op == BinOp::Shl { vec![(s1, b.clone())] } else { convert(ctx, s1, b, bits, view, fview) };
                for (s2, cb) in bview {
                    let Some(e) = exact(op, bits, &ca, &cb) else {
                        ub.push((s2.clone(), format!("possible {kind} overflow in {what} (undefined behaviour)")));
                        next.push(s2);
                        continue;
                    };
                    let ranges = range_atoms(&e, bits, fview);
                    if ctx.entails(&s2, &ranges) {
                        next.push(s2);
                        continue;
                    }
                    let mut bad = s2.clone();
                    bad.add_fact(Fact::Or(ranges.iter().filter_map(|x| x.negate()).collect()));
                    ub.push((bad, format!("possible {kind} overflow in {what} (undefined behaviour)")));
                    let mut ok = s2;
                    for r in ranges {
                        ok.add_atom(r);
                    }
                    next.push(ok);
                }
            }
        }
        good = next;
    }
    (good, ub)
}

fn op_name(op: BinOp) -> &'static str {
    match op {
        BinOp::Add => "addition",
        BinOp::Sub => "subtraction",
        BinOp::Mul => "multiplication",
        BinOp::Shl => "shift",
        _ => "operation",
    }
}

/// Integer binary operation of width `bits` whose operands and result are in `view`
/// (`udiv`/`urem`/`lshr`: unsigned; `sdiv`/`srem`/`ashr`: signed — the caller passes that
/// view; the shift amount is passed as an unsigned value).
pub fn binop(ctx: &mut Ctx<'_>, s: State, op: BinOp, flags: ArithFlags, bits: u32, view: View, a: &LinExpr, b: &LinExpr) -> Outcome {
    let c_mode = ctx.sem == IntSemantics::C;
    let (a, b) = if matches!(op, BinOp::Mul | BinOp::Shl) { (&pinned(&s, a), &pinned(&s, b)) } else { (a, b) };
    match op {
        BinOp::Add | BinOp::Sub | BinOp::Mul | BinOp::Shl => {
            if op == BinOp::Shl {
                if let Some(k) = cst(b) {
                    if k < 0 || k as u32 >= bits {
                        return shift_out_of_range(ctx, s, bits, view, c_mode);
                    }
                }
            }
            if let Some(e) = exact(op, bits, a, b) {
                let (good, ub) = overflow_checks(ctx, s, op, flags, bits, view, a, b, op_name(op));
                let mut out = Outcome { branches: vec![], ub };
                for st in good {
                    for (st, v) in wrap_into(ctx, st, e.clone(), bits, view) {
                        out.branches.push(Branch { state: st, value: v });
                    }
                }
                return out;
            }
            nonlinear(ctx, s, op, flags, bits, view, a, b)
        }
        BinOp::UDiv | BinOp::URem => unsigned_division(ctx, s, op, bits, a, b),
        BinOp::SDiv | BinOp::SRem => super::ints::binop(ctx, s, op, flags, bits, a, b),
        BinOp::LShr | BinOp::AShr => match cst(b) {
            Some(0) => Outcome::one(s, a.clone()),
            Some(k) if k > 0 && (k as u32) < bits && k < 126 => {
                let d = 1i128 << k;
                let mut s = s;
                let q = ctx.fresh("shr");
                // d·q ≤ a ≤ d·q + d − 1  (floor division, exact in either view)
                let dq = LinExpr::var(&q).scale(d).unwrap_or_default();
                s.add_atoms([Atom::cmp(&dq, Rel::Le, a), dq.add_scaled(1, &LinExpr::constant(d - 1)).and_then(|up| Atom::cmp(a, Rel::Le, &up))]);
                Outcome::one(s, LinExpr::var(&q))
            }
            Some(_) => shift_out_of_range(ctx, s, bits, view, c_mode),
            None => {
                let (s, bad) = check_shift_amount(ctx, s, b, bits, c_mode);
                let mut s = s;
                let r = fresh_in(ctx, &mut s, "shr", bits, view);
                if op == BinOp::LShr {
                    // a logical right shift never increases the unsigned value
                    s.add_atoms([Atom::cmp(&LinExpr::var(&r), Rel::Le, a)]);
                }
                Outcome { branches: vec![Branch { state: s, value: LinExpr::var(&r) }], ub: bad }
            }
        },
        BinOp::And | BinOp::Or | BinOp::Xor => {
            if view == View::Signed || bits == 1 {
                return super::ints::binop(ctx, s, op, flags, bits, a, b);
            }
            unsigned_bitwise(ctx, s, op, bits, a, b)
        }
    }
}

fn shift_out_of_range(ctx: &mut Ctx<'_>, s: State, bits: u32, view: View, c_mode: bool) -> Outcome {
    if c_mode {
        return Outcome { branches: vec![], ub: vec![(s, "shift by at least the bit width (undefined behaviour)".into())] };
    }
    let mut s = s;
    let v = fresh_in(ctx, &mut s, "shift", bits, view);
    Outcome::one(s, LinExpr::var(&v))
}

fn check_shift_amount(ctx: &mut Ctx<'_>, s: State, b: &LinExpr, bits: u32, c_mode: bool) -> (State, Vec<(State, String)>) {
    if !c_mode {
        return (s, vec![]);
    }
    let hi = Atom::cmp(b, Rel::Lt, &LinExpr::constant(bits as i128)).unwrap_or(Atom::truth(false));
    if ctx.entails(&s, std::slice::from_ref(&hi)) {
        return (s, vec![]);
    }
    let mut bad = s.clone();
    if let Some(n) = hi.negate() {
        bad.add_atom(n);
    }
    let mut good = s;
    good.add_atom(hi);
    (good, vec![(bad, "shift amount may be at least the bit width (undefined behaviour)".into())])
}

/// Products of two non-constant operands (or shifts by a variable amount): a fresh value in
/// range; the product facts when the mathematical product provably fits the view (then it is
/// the result); `nsw`/`nuw` overflow that is not excluded is undefined behaviour in `C`.
fn nonlinear(ctx: &mut Ctx<'_>, s: State, op: BinOp, flags: ArithFlags, bits: u32, view: View, a: &LinExpr, b: &LinExpr) -> Outcome {
    let c_mode = ctx.sem == IntSemantics::C;
    let mut ub = vec![];
    let mut s = s;
    if op == BinOp::Shl {
        let (s2, bad) = check_shift_amount(ctx, s, b, bits, c_mode);
        s = s2;
        ub.extend(bad);
        if c_mode && (flags.nsw || flags.nuw) {
            ub.push((s.clone(), "possible overflow in a shift by a variable amount (undefined behaviour)".into()));
        }
        let v = fresh_in(ctx, &mut s, "shl", bits, view);
        return Outcome { branches: vec![Branch { state: s, value: LinExpr::var(&v) }], ub };
    }
    let (la, ua) = super::ints::syntactic_bounds(&s, a);
    let (lb, ubb) = super::ints::syntactic_bounds(&s, b);
    let boxb = match (la, ua, lb, ubb) {
        (Some(la), Some(ua), Some(lb), Some(ub)) => {
            let ps = [la.checked_mul(lb), la.checked_mul(ub), ua.checked_mul(lb), ua.checked_mul(ub)];
            if ps.iter().all(|p| p.is_some()) {
                let ps: Vec<Int> = ps.iter().flatten().copied().collect();
                Some((ps.iter().copied().min().unwrap_or(0), ps.iter().copied().max().unwrap_or(0)))
            } else {
                None
            }
        }
        _ => None,
    };
    let fits_in = |v: View| boxb.is_some_and(|(lo, hi)| bounds(bits, v).is_some_and(|(l, h)| lo >= l && hi <= h));
    let fits = fits_in(view);
    if c_mode && ((flags.nsw && !(view == View::Signed && fits)) || (flags.nuw && !(view == View::Unsigned && fits))) {
        ub.push((s.clone(), "possible overflow in non-linear multiplication (undefined behaviour)".into()));
    }
    let v = fresh_in(ctx, &mut s, "mul", bits, view);
    let r = LinExpr::var(&v);
    if fits {
        if let Some((lo, hi)) = boxb {
            s.add_atoms([Atom::cmp(&r, Rel::Ge, &LinExpr::constant(lo)), Atom::cmp(&r, Rel::Le, &LinExpr::constant(hi))]);
        }
        if let (Some(la), Some(lb)) = (la, lb) {
            if la >= 0 && lb >= 0 {
                // (a − la)(b − lb) ≥ 0  ⇒  a·b ≥ la·b + lb·a − la·lb
                let env = b.scale(la).and_then(|x| x.add_scaled(lb, a)).and_then(|x| x.add_scaled(1, &LinExpr::constant(-(la.checked_mul(lb)?))));
                s.add_atoms([env.and_then(|e| Atom::cmp(&r, Rel::Ge, &e))]);
            }
        }
        if a == b {
            s.add_atoms([Atom::cmp(&r, Rel::Ge, a), a.scale(-1).and_then(|na| Atom::cmp(&r, Rel::Ge, &na))]);
        }
    } else if let Some((lo, hi)) = boxb {
        // The product wraps: its reduced box is an interval or a wrapped union (inBounds).
        super::inbounds::add_wrapped_range(ctx, &mut s, &r, lo, hi, bits, view);
    }
    Outcome { branches: vec![Branch { state: s, value: r }], ub }
}

/// `udiv`/`urem` on unsigned views: exact floor division by a positive constant, a range
/// bound otherwise; a divisor that may be 0 is undefined behaviour in every mode.
fn unsigned_division(ctx: &mut Ctx<'_>, s: State, op: BinOp, bits: u32, a: &LinExpr, b: &LinExpr) -> Outcome {
    let rem = op == BinOp::URem;
    let what = if rem { "remainder" } else { "division" };
    let mut s = s;
    if let Some(d) = cst(b) {
        if d == 0 {
            return Outcome { branches: vec![], ub: vec![(s, format!("{what} by zero (undefined behaviour)"))] };
        }
        if d == 1 {
            return Outcome::one(s, if rem { LinExpr::constant(0) } else { a.clone() });
        }
        let q = ctx.fresh("q");
        let dq = LinExpr::var(&q).scale(d).unwrap_or_default();
        s.add_atoms([Atom::cmp(&dq, Rel::Le, a), dq.add_scaled(1, &LinExpr::constant(d - 1)).and_then(|up| Atom::cmp(a, Rel::Le, &up))]);
        let v = if rem { a.add_scaled(-d, &LinExpr::var(&q)).unwrap_or_default() } else { LinExpr::var(&q) };
        return Outcome::one(s, v);
    }
    let mut ub = vec![];
    let nz = Atom::cmp(b, Rel::Ge, &LinExpr::constant(1)).unwrap_or(Atom::truth(true));
    if !ctx.entails(&s, std::slice::from_ref(&nz)) {
        let mut bad = s.clone();
        if let Some(z) = Atom::cmp(b, Rel::Eq, &LinExpr::constant(0)) {
            bad.add_atom(z);
        }
        ub.push((bad, format!("possible {what} by zero (undefined behaviour)")));
        s.add_atom(nz);
    }
    // exact for b = 1; for b ≥ 2 the quotient is at most a/2 (a linear consequence of
    // q·b ≤ a that bounds e.g. `i <= n / i` away from the top of the range)
    let mut branches = vec![];
    let is_one = Atom::cmp(b, Rel::Eq, &LinExpr::constant(1)).unwrap_or(Atom::truth(false));
    for (mut st, one) in split(ctx, s, &is_one) {
        if one {
            branches.push(Branch { state: st, value: if rem { LinExpr::constant(0) } else { a.clone() } });
            continue;
        }
        let r = fresh_in(ctx, &mut st, what, bits, View::Unsigned);
        let rv = LinExpr::var(&r);
        st.add_atoms([Atom::cmp(&rv, Rel::Le, a)]);
        if rem {
            st.add_atoms([b.add_scaled(1, &LinExpr::constant(-1)).and_then(|bm| Atom::cmp(&rv, Rel::Le, &bm))]);
        } else {
            st.add_atoms([rv.scale(2).and_then(|r2| Atom::cmp(&r2, Rel::Le, a))]);
        }
        branches.push(Branch { state: st, value: rv });
    }
    Outcome { branches, ub }
}

/// `and`/`or`/`xor` on unsigned views: exact for `~x`, masks `2^k − 1` and the identities,
/// otherwise the order facts `x & y ≤ min(x, y)`, `x | y ≥ max(x, y)`.
fn unsigned_bitwise(ctx: &mut Ctx<'_>, s: State, op: BinOp, bits: u32, a: &LinExpr, b: &LinExpr) -> Outcome {
    let Some(m) = modulus(bits) else { return super::ints::binop(ctx, s, op, ArithFlags::default(), bits, a, b) };
    let umax = m - 1;
    let (ca, cb) = (cst(a), cst(b));
    let (x, c) = match (ca, cb) {
        (_, Some(c)) => (a, Some(c)),
        (Some(c), _) => (b, Some(c)),
        _ => (a, None),
    };
    match (op, c) {
        (BinOp::And, Some(c)) if c == umax => return Outcome::one(s, x.clone()),
        (BinOp::And, Some(0)) => return Outcome::one(s, LinExpr::constant(0)),
        (BinOp::Or, Some(0)) | (BinOp::Xor, Some(0)) => return Outcome::one(s, x.clone()),
        (BinOp::Or, Some(c)) if c == umax => return Outcome::one(s, LinExpr::constant(umax)),
        (BinOp::Xor, Some(c)) if c == umax => return Outcome::one(s, LinExpr::constant(umax).add_scaled(-1, x).unwrap_or_default()),
        _ => {}
    }
    let mut s = s;
    if let (BinOp::And, Some(c)) = (op, c) {
        if c > 0 && (c + 1) & c == 0 {
            // x & (2^k − 1) = x mod 2^k = x − 2^k·q with 0 ≤ x − 2^k·q ≤ 2^k − 1
            let q = ctx.fresh("q");
            let r = x.add_scaled(-(c + 1), &LinExpr::var(&q)).unwrap_or_default();
            s.add_atoms([Atom::cmp(&r, Rel::Ge, &LinExpr::constant(0)), Atom::cmp(&r, Rel::Le, &LinExpr::constant(c))]);
            return Outcome::one(s, r);
        }
    }
    let r = fresh_in(ctx, &mut s, "bits", bits, View::Unsigned);
    let rv = LinExpr::var(&r);
    match op {
        BinOp::And => {
            s.add_atoms([Atom::cmp(&rv, Rel::Le, a), Atom::cmp(&rv, Rel::Le, b)]);
            if let Some(c) = c {
                if c > 0 && c & 1 == 0 {
                    // clearing bit 0 (x & ~1): x − 1 ≤ r, and r is even
                    if (c | 1) == umax {
                        let h = ctx.fresh("half");
                        s.add_atoms([Atom::cmp(&rv, Rel::Eq, &LinExpr::var(&h).scale(2).unwrap_or_default()), x.add_scaled(1, &LinExpr::constant(-1)).and_then(|xm| Atom::cmp(&rv, Rel::Ge, &xm))]);
                    }
                }
            }
        }
        BinOp::Or => s.add_atoms([Atom::cmp(&rv, Rel::Ge, a), Atom::cmp(&rv, Rel::Ge, b)]),
        _ => {}
    }
    if op != BinOp::And {
        // unsigned operands are non-negative and below 2^bits
        let ub = super::ints::or_xor_upper_bounds(ctx, &s, &rv, a, b, bits);
        s.add_atoms(ub.into_iter().map(Some));
    }
    Outcome::one(s, rv)
}

/// `llvm.{s,u}{add,sub,mul}.with.overflow`: the wrapped result (in `view`, the intrinsic's
/// signedness) and the overflow bit, by the exact cases of `wrap_into`.
pub fn with_overflow(ctx: &mut Ctx<'_>, s: State, op: BinOp, bits: u32, view: View, a: &LinExpr, b: &LinExpr) -> Vec<(State, LinExpr, LinExpr)> {
    let (a, b) = if op == BinOp::Mul { (&pinned(&s, a), &pinned(&s, b)) } else { (a, b) };
    let Some(e) = exact(op, bits, a, b) else {
        // non-linear product: unknown result and bit, except when the product provably fits
        let o = nonlinear(ctx, s, op, ArithFlags::default(), bits, view, a, b);
        let mut out = vec![];
        for br in o.branches {
            let mut st = br.state;
            let f = fresh_in(ctx, &mut st, "ovf", 1, view);
            out.push((st, br.value, LinExpr::var(&f)));
        }
        return out;
    };
    if bounds(bits, view).is_none() || modulus(bits).is_none() {
        let mut s = s;
        let (v, f) = (ctx.fresh("wide"), fresh_in(ctx, &mut s, "ovf", 1, view));
        return vec![(s, LinExpr::var(&v), LinExpr::var(&f))];
    }
    let ranges = range_atoms(&e, bits, view);
    let mut out = vec![];
    if ctx.entails(&s, &ranges) {
        return vec![(s, e, LinExpr::constant(0))];
    }
    for (st, v) in wrap_into(ctx, s, e.clone(), bits, view) {
        // the value differs from the exact result iff the operation overflowed
        let same = Atom::cmp(&v, Rel::Eq, &e).unwrap_or(Atom::truth(false));
        if v == e {
            out.push((st, v, LinExpr::constant(0)));
            continue;
        }
        for (st, eq) in split(ctx, st, &same) {
            out.push((st, v.clone(), LinExpr::constant(if eq { 0 } else { 1 })));
        }
    }
    out
}

/// `llvm.{u,s}{add,sub}.sat`: the exact result clamped to the range of `view`.
pub fn saturating(ctx: &mut Ctx<'_>, s: State, op: BinOp, bits: u32, view: View, a: &LinExpr, b: &LinExpr) -> Vec<StateValue> {
    let (Some(e), Some((lo, hi))) = (exact(op, bits, a, b), bounds(bits, view)) else {
        let mut s = s;
        let v = fresh_in(ctx, &mut s, "sat", bits, view);
        return vec![(s, LinExpr::var(&v))];
    };
    let mut out = vec![];
    let ge = Atom::cmp(&e, Rel::Ge, &LinExpr::constant(lo)).unwrap_or(Atom::truth(true));
    for (st, above) in split(ctx, s, &ge) {
        if !above {
            out.push((st, LinExpr::constant(lo)));
            continue;
        }
        let le = Atom::cmp(&e, Rel::Le, &LinExpr::constant(hi)).unwrap_or(Atom::truth(true));
        for (st, inside) in split(ctx, st, &le) {
            out.push((st, if inside { e.clone() } else { LinExpr::constant(hi) }));
        }
    }
    out
}
