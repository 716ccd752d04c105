//! Symbolic rules for the bit intrinsics and the memory-reading libc functions the
//! interpreter models exactly (`interp::libc`). Here they are over-approximated soundly:
//! - `llvm.ctlz`/`cttz`/`ctpop`: a fresh result in `[0, w]`; `bswap`/`bitreverse`: a fresh
//!   value in the result's range; a zero operand of `ctlz`/`cttz` with the poison flag is an
//!   error state under `c` (like `llvm.abs` of the minimum) and any value otherwise; under
//!   `math` (no bit pattern) MAYBE;
//! - `putchar`: an arbitrary `int`; `puts`/`printf`: every string they read (the format and
//!   the `%s` arguments) must be a constant global holding a nul (else MAYBE: reading an
//!   arbitrary string is not modelled), then an arbitrary `int`; nothing is written;
//! - `strlen` of a constant global string: its length; `strcmp` of two constant strings: an
//!   arbitrary `int`; `memcmp`/`strncmp` with a constant length `n`: both `[p, p + n)` inside
//!   one live allocation (else the error state, as for `memcpy`), an arbitrary `int`;
//!   `memchr(s, c, n)` with a constant `n`: `[s, s + n)` inside one allocation, the result
//!   null or `s + k` with `0 ≤ k < n`. Anything else: MAYBE with the reason.

use super::bv;
use super::ctx::Ctx;
use super::exec::{as_var, bind, done, err, find_alloc, loc_text, operand, res_view, Stop, StepResult, Succ};
use super::facts::Atom;
use super::ints::split;
use super::state::State;
use crate::ir::externals::{BitOp, External, MemRead, OutputFn};
use crate::ir::format_string::{self, Conversion};
use crate::ir::{GlobalInit, Operand, SrcLoc, Type, ValueId};
use crate::logic::{LinExpr, Rel};
use crate::verdict::IntSemantics;

/// The call of `name` (of family `kind`, one of `Bits`, `Output`, `MemRead`, `Strlen`).
#[allow(clippy::too_many_arguments, reason = "the call's parts, as `exec::call` has them")]
pub(super) fn call(ctx: &mut Ctx<'_>, s: State, kind: External<'_>, name: &str, args: &[Operand], ret: &Type, res: Option<ValueId>, loc: &Option<SrcLoc>) -> StepResult {
    let maybe = |why: String| Err(Stop::Maybe(format!("{why}{}", loc_text(loc))));
    match kind {
        External::Bits(op) => bits(ctx, s, op, name, args, ret, res, loc),
        External::Output(OutputFn::Putchar) => arbitrary_result(ctx, s, ret, res),
        External::Output(f) => {
            let Some(text) = args.first().and_then(|a| constant_string(ctx, a)) else {
                return maybe(format!("`{name}` of a string that is not a constant"));
            };
            if f == OutputFn::Printf {
                let format = match format_string::parse(&text, ctx.module.pointer_bits) {
                    Ok(f) => f,
                    Err(e) => return maybe(e.to_string()),
                };
                for (i, c) in format.conversions.iter().enumerate() {
                    if *c == Conversion::Str && args.get(i + 1).and_then(|a| constant_string(ctx, a)).is_none() {
                        return maybe(format!("`{name}` prints a `%s` argument that is not a constant string"));
                    }
                }
                if args.len() < format.conversions.len() + 1 {
                    return maybe(format!("`{name}` with fewer arguments than conversions"));
                }
            }
            arbitrary_result(ctx, s, ret, res)
        }
        External::Strlen => match args.first().and_then(|a| constant_string(ctx, a)) {
            Some(text) => {
                let mut s = s;
                if let Some(x) = res {
                    super::exec::define(ctx, &mut s, x, &LinExpr::constant(text.len() as i128));
                }
                done(vec![s])
            }
            None => maybe(format!("`{name}` of a string that is not a constant")),
        },
        External::MemRead(MemRead::Strcmp) => {
            if args.len() < 2 || !args[..2].iter().all(|a| constant_string(ctx, a).is_some()) {
                return maybe(format!("`{name}` of strings that are not constants"));
            }
            arbitrary_result(ctx, s, ret, res)
        }
        External::MemRead(f) => {
            let n = match args.get(2) {
                Some(Operand::Int { value, .. }) if *value >= 0 => *value,
                _ => return maybe(format!("`{name}` with a non-constant length")),
            };
            let mut s = s;
            let a = operand(ctx, &mut s, &args[0])?;
            let a = as_var(ctx, &mut s, &a, "src");
            if n > 0 && find_alloc(ctx, &s, &a, args.first(), n as u64).is_none() {
                return Ok(vec![err(s, format!("`{name}` reads memory that may be unallocated or out of bounds"), loc)]);
            }
            if f == MemRead::Memchr {
                return memchr_result(ctx, s, &a, n, res);
            }
            if f == MemRead::Strncmp && args[..2].iter().all(|o| constant_string(ctx, o).is_some()) {
                return arbitrary_result(ctx, s, ret, res);
            }
            let b = operand(ctx, &mut s, &args[1])?;
            let b = as_var(ctx, &mut s, &b, "src");
            if n > 0 && find_alloc(ctx, &s, &b, args.get(1), n as u64).is_none() {
                return Ok(vec![err(s, format!("`{name}` reads memory that may be unallocated or out of bounds"), loc)]);
            }
            arbitrary_result(ctx, s, ret, res)
        }
        _ => maybe(format!("call of unknown external function `{name}`")),
    }
}

/// The bytes before the first nul of a constant global whose bytes up to that nul are known.
fn constant_string(ctx: &Ctx<'_>, o: &Operand) -> Option<Vec<u8>> {
    let Operand::Global(g) = o else { return None };
    let g = ctx.module.globals.get(g.0 as usize)?;
    if !g.is_constant {
        return None;
    }
    let GlobalInit::Bytes(bytes) = &g.init else { return None };
    let mut out = vec![];
    for b in bytes {
        match b {
            Some(0) => return Some(out),
            Some(b) => out.push(*b),
            None => return None,
        }
    }
    None
}

/// An arbitrary value of the return type (nothing for `void`).
fn arbitrary_result(ctx: &mut Ctx<'_>, mut s: State, ret: &Type, res: Option<ValueId>) -> StepResult {
    super::exec::arbitrary_result(ctx, &mut s, ret, res);
    done(vec![s])
}

/// `memchr`'s result: null, or `s + k` with `0 ≤ k < n` (`n > 0`).
fn memchr_result(ctx: &mut Ctx<'_>, s: State, start: &crate::logic::Var, n: i128, res: Option<ValueId>) -> StepResult {
    let mut out = vec![];
    let mut none = s.clone();
    if let Some(x) = res {
        super::exec::define(ctx, &mut none, x, &LinExpr::constant(0));
    }
    out.push(none);
    if n > 0 {
        let mut found = s;
        let k = ctx.fresh("offset");
        found.add_atom(Atom::var_const(&k, Rel::Ge, 0));
        found.add_atom(Atom::var_const(&k, Rel::Le, n - 1));
        if let Some(x) = res {
            let e = LinExpr::var(start).add_scaled(1, &LinExpr::var(&k)).unwrap_or_else(|| LinExpr::var(start));
            super::exec::define(ctx, &mut found, x, &e);
        }
        out.push(found);
    }
    done(out)
}

#[allow(clippy::too_many_arguments, reason = "the call's parts")]
fn bits(ctx: &mut Ctx<'_>, mut s: State, op: BitOp, name: &str, args: &[Operand], ret: &Type, res: Option<ValueId>, loc: &Option<SrcLoc>) -> StepResult {
    let Type::Int(w) = *ret else { return Err(Stop::Maybe(format!("`{name}` of a non-integer type{}", loc_text(loc)))) };
    if ctx.sem == IntSemantics::Math {
        return Err(Stop::Maybe(format!("`{name}` under mathematical integers (no bit pattern){}", loc_text(loc))));
    }
    let counts = matches!(op, BitOp::Ctlz | BitOp::Cttz | BitOp::Ctpop);
    let zero_is_poison = matches!((op, args.get(1)), (BitOp::Ctlz | BitOp::Cttz, Some(Operand::Int { value, .. })) if value & 1 == 1);
    let mut out = vec![];
    let mut states = vec![s.clone()];
    if zero_is_poison {
        let a = args.first().ok_or_else(|| Stop::Maybe(format!("`{name}` without argument")))?;
        let a = operand(ctx, &mut s, a)?;
        let zero = Atom::cmp(&a, Rel::Eq, &LinExpr::constant(0)).unwrap_or(Atom::truth(false));
        states.clear();
        for (st, is_zero) in split(ctx, s, &zero) {
            if !is_zero {
                states.push(st);
            } else if ctx.sem == IntSemantics::C {
                out.push(err(st, format!("`{name}` of zero (poison, undefined behaviour in C)"), loc));
            } else {
                // poison under `wrap`: any value
                out.extend(arbitrary_result(ctx, st, ret, res)?);
            }
        }
    }
    for mut st in states {
        if let Some(x) = res {
            let rv = res_view(ctx, &st, res);
            let v = bv::fresh_in(ctx, &mut st, "bits", w, rv);
            if counts {
                st.add_atom(Atom::var_const(&v, Rel::Ge, 0));
                st.add_atom(Atom::var_const(&v, Rel::Le, i128::from(w)));
            }
            bind(&mut st, x, v);
        }
        out.push(Succ::State(super::exec::advance(st)));
    }
    Ok(out)
}
