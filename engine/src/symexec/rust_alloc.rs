//! Rust's global allocator (`__rust_alloc`, `__rust_alloc_zeroed`, `__rust_dealloc`,
//! `__rust_realloc`, `__rust_no_alloc_shim_is_unstable*`) as heap operations.
//!
//! Unlike `malloc` (whose success the C rules assume, as the interpreter does), the Rust
//! allocator's failure is part of the program's behaviour (`handle_alloc_error`, `try_reserve`),
//! so allocation and reallocation split into success and a null result: more runs than the
//! interpreter (which always succeeds) can replay, never fewer. The contract of `GlobalAlloc`
//! is checked: a size of 0 is undefined behaviour, and `dealloc`/`realloc` need the start of a
//! live heap block of exactly the size given (else an error state). Contents of new blocks,
//! zeroed ones included, are arbitrary (an over-approximation).

use super::ctx::Ctx;
use super::exec::{advance, alloc_block, define, done, err, operand, operand_in, Stop, StepResult, Succ};
use super::facts::Atom;
use super::ints::split;
use super::state::{AllocKind, State};
use crate::facts::views::View;
use crate::ir::externals::RustAlloc;
use crate::ir::{Operand, SrcLoc, ValueId};
use crate::logic::{LinExpr, Rel};

/// A call of the allocator entry point `op` with `args`, result `res`.
pub fn call(ctx: &mut Ctx<'_>, s: State, op: RustAlloc, args: &[Operand], res: Option<ValueId>, loc: &Option<SrcLoc>) -> StepResult {
    let arg = |i: usize| args.get(i).cloned().ok_or_else(|| Stop::Maybe(format!("allocator call with too few arguments{}", super::exec::loc_text(loc))));
    let pb = ctx.module.pointer_bits;
    match op {
        RustAlloc::NoAllocShim => done(vec![s]),
        RustAlloc::Alloc | RustAlloc::AllocZeroed => {
            let mut out = vec![];
            for (st, size) in operand_in(ctx, s, &arg(0)?, pb, View::Unsigned)? {
                let Some(st) = positive_size(ctx, st, &size, loc, "__rust_alloc", &mut out) else { continue };
                out.extend(alloc_block(ctx, st.clone(), res, &size, AllocKind::Heap, loc, "__rust_alloc")?);
                out.push(null_result(ctx, st, res));
            }
            Ok(out)
        }
        RustAlloc::Dealloc => {
            let mut out = vec![];
            for (mut st, size) in operand_in(ctx, s, &arg(1)?, pb, View::Unsigned)? {
                let p = operand(ctx, &mut st, &arg(0)?)?;
                match live_block(ctx, &st, &p, &size) {
                    Some(id) => {
                        st.allocs.retain(|a| a.id != id);
                        st.pt.retain(|x| x.alloc != id);
                        out.push(Succ::State(advance(st)));
                    }
                    None => out.push(err(st, "`__rust_dealloc` of a pointer that may not be the start of a live heap block of the size given", loc)),
                }
            }
            Ok(out)
        }
        RustAlloc::Realloc => {
            let mut out = vec![];
            for (st, old) in operand_in(ctx, s, &arg(1)?, pb, View::Unsigned)? {
                for (mut st, new) in operand_in(ctx, st, &arg(3)?, pb, View::Unsigned)? {
                    let p = operand(ctx, &mut st, &arg(0)?)?;
                    let Some(id) = live_block(ctx, &st, &p, &old) else {
                        out.push(err(st, "`__rust_realloc` of a pointer that may not be the start of a live heap block of the size given", loc));
                        continue;
                    };
                    let Some(st) = positive_size(ctx, st, &new, loc, "__rust_realloc", &mut out) else { continue };
                    // success: a new block (contents arbitrary), the old one freed; failure:
                    // null, the old block unchanged
                    let mut moved = st.clone();
                    moved.allocs.retain(|a| a.id != id);
                    moved.pt.retain(|x| x.alloc != id);
                    out.extend(alloc_block(ctx, moved, res, &new, AllocKind::Heap, loc, "__rust_realloc")?);
                    out.push(null_result(ctx, st, res));
                }
            }
            Ok(out)
        }
    }
}

/// The part of `s` where `size ≥ 1`; the part where it may be 0 becomes an error state in
/// `out` (`GlobalAlloc` requires a non-zero size).
fn positive_size(ctx: &mut Ctx<'_>, s: State, size: &LinExpr, loc: &Option<SrcLoc>, what: &str, out: &mut Vec<Succ>) -> Option<State> {
    let positive = Atom::cmp(size, Rel::Ge, &LinExpr::constant(1)).unwrap_or(Atom::truth(false));
    let mut ok = None;
    for (st, pos) in split(ctx, s, &positive) {
        if pos {
            ok = Some(st);
        } else {
            out.push(err(st, format!("`{what}` with size 0 (undefined behaviour)"), loc));
        }
    }
    ok
}

/// The allocation failed: the result is null.
fn null_result(ctx: &mut Ctx<'_>, mut s: State, res: Option<ValueId>) -> Succ {
    if let Some(x) = res {
        define(ctx, &mut s, x, &LinExpr::constant(0));
    }
    Succ::State(advance(s))
}

/// The heap block that provably starts at `p` and provably has `size` bytes, `size ≥ 1` (no
/// allocation has size 0, so a block that may be empty is never one the allocator gave). A
/// `&mut Vec`'s buffer (`VecBuffer`) qualifies when so proved non-empty: it is then the
/// global allocator's block of that size (`rust_vec`).
fn live_block(ctx: &mut Ctx<'_>, s: &State, p: &LinExpr, size: &LinExpr) -> Option<u32> {
    let heap: Vec<_> = s.allocs.iter().filter(|a| matches!(a.kind, AllocKind::Heap | AllocKind::VecBuffer)).map(|a| (a.id, a.start.clone(), a.end.clone())).collect();
    let positive = Atom::cmp(size, Rel::Ge, &LinExpr::constant(1))?;
    for (id, start, end) in heap {
        let at_start = Atom::cmp(p, Rel::Eq, &LinExpr::var(&start))?;
        // end = start + size − 1
        let last = LinExpr::var(&start).add_scaled(1, size)?.add_scaled(1, &LinExpr::constant(-1))?;
        let sized = Atom::cmp(&LinExpr::var(&end), Rel::Eq, &last)?;
        if ctx.entails(s, &[at_start, sized, positive.clone()]) {
            return Some(id);
        }
    }
    None
}
