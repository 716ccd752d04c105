//! The memory behind a `&Vec<T>` parameter of a root (`RustParam::VecRef`): the `Vec` itself, read-only, with its pointer, capacity and length as known cells, and the buffer of `cap` elements they describe.
//!
//! Facts (std's documented guarantees for a valid `Vec<T>` of a sized, non-zero-sized `T`,
//! which hold when the caller has no undefined behaviour before the call): the buffer
//! pointer is non-null and aligned to `T`; the buffer is one block of `cap · size_of::<T>()`
//! bytes (none when `cap = 0`: the block may be empty and the pointer then dangles);
//! `len ≤ cap`; `cap · size_of::<T>() ≤ isize::MAX`. Both blocks are `RefParam` blocks that
//! are not mutable (a shared reference: neither the `Vec` nor, `T` being a primitive without
//! `UnsafeCell`, its elements can change during the call; a write is an error state) and
//! overlap-tolerant like every shared reference's block.

use super::ctx::Ctx;
use super::exec;
use super::facts::Atom;
use super::state::{Alloc, AllocKind, PtEntry};
use crate::ir::RustParam;
use crate::logic::{LinExpr, Rel, Var};

/// The blocks, facts and known cells of a `&Vec<T>` parameter `p`; `None` for another kind.
pub(super) fn blocks(ctx: &mut Ctx<'_>, p: &Var, param: RustParam) -> Option<(Vec<Alloc>, Vec<Atom>, Vec<PtEntry>)> {
    let RustParam::VecRef { size, elem_size, ptr_offset, cap_offset, len_offset } = param else { return None };
    if size == 0 || elem_size == 0 {
        return None;
    }
    let mut atoms = vec![];
    // the Vec: `size` bytes at p
    let vec_end = ctx.fresh("end");
    atoms.extend(Atom::cmp(&LinExpr::var(&vec_end), Rel::Eq, &LinExpr::var(p).add_scaled(1, &LinExpr::constant(size as i128 - 1))?));
    atoms.push(Atom::var_const(&vec_end, Rel::Le, exec::ADDR_MAX));
    atoms.push(Atom::var_const(p, Rel::Ge, 1));
    let vec_block = Alloc { id: ctx.fresh_alloc_id(), start: p.clone(), end: vec_end, kind: AllocKind::RefParam { mutable: false, may_be_empty: false }, pristine: None };
    // its fields
    let (buf, cap, len) = (ctx.fresh("buf"), ctx.fresh("cap"), ctx.fresh("len"));
    atoms.push(Atom::var_const(&buf, Rel::Ge, 1));
    atoms.push(Atom::var_const(&len, Rel::Ge, 0));
    atoms.extend(Atom::cmp(&LinExpr::var(&len), Rel::Le, &LinExpr::var(&cap)));
    let bytes = LinExpr::var(&cap).scale(elem_size as i128)?;
    atoms.extend(Atom::cmp(&bytes, Rel::Le, &LinExpr::constant(exec::ADDR_MAX)));
    super::alignment::set(ctx, &buf, elem_size);
    // the buffer: cap · elem_size bytes at buf, possibly empty
    let buf_end = ctx.fresh("end");
    atoms.extend(Atom::cmp(&LinExpr::var(&buf_end), Rel::Eq, &LinExpr::var(&buf).add_scaled(1, &bytes)?.add_scaled(1, &LinExpr::constant(-1))?));
    atoms.push(Atom::var_const(&buf_end, Rel::Le, exec::ADDR_MAX));
    let buf_block = Alloc { id: ctx.fresh_alloc_id(), start: buf.clone(), end: buf_end, kind: AllocKind::RefParam { mutable: false, may_be_empty: true }, pristine: None };
    let mut cells = vec![];
    for (offset, value, is_ptr) in [(ptr_offset, buf, true), (cap_offset, cap, false), (len_offset, len, false)] {
        // a cell at the block's start is addressed by the start itself (exec's convention)
        let addr = if offset == 0 {
            p.clone()
        } else {
            let a = ctx.fresh("t");
            atoms.extend(Atom::cmp(&LinExpr::var(&a), Rel::Eq, &LinExpr::var(p).add_scaled(1, &LinExpr::constant(offset as i128))?));
            a
        };
        cells.push(PtEntry { addr, size: 8, is_ptr, unsigned: !is_ptr, value, alloc: vec_block.id });
    }
    Some((vec![vec_block, buf_block], atoms, cells))
}
