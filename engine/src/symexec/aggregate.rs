//! Aggregate register values (`{ptr, i64}` slices, `{i64, i64}` pairs returned by functions,
//! `{iN, i1}` overflow results, `{ptr, i32}` exceptions): `insertvalue`, `extractvalue` and
//! copies.
//!
//! An aggregate is a variable of its own that no fact mentions; its known fields are kept in
//! `Ctx::agg_parts` (index path ↦ value and view). Why this is sound: a field value is a fresh
//! variable equal to the inserted value (or a constant), so it is a non-root variable that
//! generalization projects away — after a merge (which may keep the aggregate's name for
//! several paths) the field is unconstrained, never wrong. A field that is not listed (an
//! aggregate loaded from memory, returned by an external, a `landingpad`, `undef`/`poison`, or
//! a field never inserted) is extracted as a fresh value in its type's range.

use super::ctx::{AggPart, Ctx};
use super::exec::{operand, Stop, StepResult, Succ, ADDR_MAX};
use super::facts::Atom;
use super::state::State;
use super::bv;
use crate::facts::views::View;
use crate::ir::{Operand, Type, ValueId};
use crate::logic::{LinExpr, Rel, Var};
use crate::verdict::IntSemantics;

/// A copy `w = e` of an aggregate (phi, select, return value, freeze) has the same fields.
pub fn copy_parts(ctx: &mut Ctx<'_>, e: &LinExpr, w: &Var) {
    if e.constant != 0 || e.coeffs.len() != 1 {
        return;
    }
    let Some((v, 1)) = e.coeffs.iter().next() else { return };
    if let Some(parts) = ctx.agg_parts.get(v).cloned() {
        ctx.agg_parts.insert(w.clone(), parts);
    }
}

/// The known fields of the aggregate operand `agg` (none for anything but a local).
fn parts_of(ctx: &Ctx<'_>, s: &State, agg: &Operand) -> Vec<AggPart> {
    match agg {
        Operand::Local(a) => s.top().lv.get(a).and_then(|v| ctx.agg_parts.get(v)).cloned().unwrap_or_default(),
        _ => vec![],
    }
}

fn advance(mut s: State) -> State {
    s.top_mut().idx += 1;
    s
}

/// `x = extractvalue agg, indices` of type `ty`.
pub fn extract(ctx: &mut Ctx<'_>, mut s: State, agg: &Operand, indices: &[u32], ty: &Type, res: Option<ValueId>) -> StepResult {
    let parts = parts_of(ctx, &s, agg);
    let Some(x) = res else { return Ok(vec![Succ::State(advance(s))]) };
    let bits = match ty {
        Type::Int(b) => *b,
        Type::Ptr => ctx.module.pointer_bits,
        _ => {
            // a nested aggregate: the fields below `indices`
            let w = ctx.fresh("agg");
            let sub: Vec<AggPart> = parts
                .into_iter()
                .filter_map(|p| {
                    let rest = p.path.strip_prefix(indices).filter(|r| !r.is_empty())?;
                    Some(AggPart { path: rest.to_vec(), ..p })
                })
                .collect();
            if !sub.is_empty() {
                ctx.agg_parts.insert(w.clone(), sub);
            }
            s.top_mut().lv.insert(x, w);
            return Ok(vec![Succ::State(advance(s))]);
        }
    };
    let is_ptr = matches!(ty, Type::Ptr);
    let math = ctx.sem == IntSemantics::Math;
    let want = if is_ptr || math { View::Signed } else { ctx.view(s.top().func, x) };
    let mut outs = vec![];
    match parts.into_iter().find(|p| p.path == indices) {
        Some(p) if is_ptr || math || bits == 1 => outs.push((s, p.value)),
        Some(p) => outs = bv::convert(ctx, s, &p.value, bits, p.view, want),
        None => {
            let w = if is_ptr {
                let w = ctx.fresh("part");
                s.add_atom(Atom::var_const(&w, Rel::Ge, 0));
                s.add_atom(Atom::var_const(&w, Rel::Le, ADDR_MAX));
                w
            } else if math && bits > 1 {
                ctx.fresh("part")
            } else {
                bv::fresh_in(ctx, &mut s, "part", bits, want)
            };
            outs.push((s, LinExpr::var(&w)));
        }
    }
    Ok(outs
        .into_iter()
        .map(|(mut st, e)| {
            super::exec::define(ctx, &mut st, x, &e);
            Succ::State(advance(st))
        })
        .collect())
}

/// `x = insertvalue agg, value, indices`: `agg`'s fields with the one at `indices` (and any
/// below it) replaced by `value` (its fields, if it is an aggregate itself).
pub fn insert(ctx: &mut Ctx<'_>, mut s: State, agg: &Operand, value: &Operand, indices: &[u32], res: Option<ValueId>) -> StepResult {
    let Some(x) = res else { return Ok(vec![Succ::State(advance(s))]) };
    let mut parts = parts_of(ctx, &s, agg);
    parts.retain(|p| !p.path.starts_with(indices) && !indices.starts_with(&p.path));
    let inner = parts_of(ctx, &s, value);
    if !inner.is_empty() {
        parts.extend(inner.into_iter().map(|p| AggPart { path: indices.iter().copied().chain(p.path).collect(), ..p }));
    } else if !matches!(value, Operand::Undef(_) | Operand::Poison(_)) {
        // a scalar: its value in the view it is stored in (constants are signed)
        let view = match value {
            Operand::Local(v) if ctx.sem != IntSemantics::Math => ctx.view(s.top().func, *v),
            _ => View::Signed,
        };
        let e = match operand(ctx, &mut s, value) {
            Ok(e) => e,
            // an operand the rules cannot read (e.g. a function address): the field stays unknown
            Err(Stop::Maybe(_)) => LinExpr::var(&ctx.fresh("unknown")),
            Err(stop) => return Err(stop),
        };
        let pv = if e.is_constant() {
            e
        } else {
            let pv = ctx.fresh("part");
            s.add_atoms([Atom::cmp(&LinExpr::var(&pv), Rel::Eq, &e)]);
            super::alignment::define(ctx, &pv, &e);
            LinExpr::var(&pv)
        };
        parts.push(AggPart { path: indices.to_vec(), value: pv, view });
    }
    let w = ctx.fresh("agg");
    ctx.agg_parts.insert(w.clone(), parts);
    s.top_mut().lv.insert(x, w);
    Ok(vec![Succ::State(advance(s))])
}
