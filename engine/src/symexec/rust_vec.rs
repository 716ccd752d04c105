//! The memory behind a `&Vec<T>` or `&mut Vec<T>` parameter of a root (`RustParam::VecRef`): the `Vec` itself (read-only behind `&`) with its pointer, capacity and length as known cells, and the buffer of `cap` elements they describe.
//!
//! Facts (std's documented guarantees for a valid `Vec<T>` of a sized, non-zero-sized `T`,
//! which hold when the caller has no undefined behaviour before the call): the buffer
//! pointer is non-null and aligned to `T`; the buffer is one block of `cap · size_of::<T>()`
//! bytes (none when `cap = 0`: the block may be empty and the pointer then dangles);
//! `len ≤ cap`; `cap · size_of::<T>() ≤ isize::MAX`. Both blocks are `RefParam` blocks that
//! are not mutable (a shared reference: neither the `Vec` nor, `T` being a primitive without
//! `UnsafeCell`, its elements can change during the call; a write is an error state) and
//! overlap-tolerant like every shared reference's block.
//!
//! Behind a `&mut Vec<T>` the same facts hold at entry, but the `Vec` is writable and unique
//! for the call (a `RefParam` block that is mutable: disjoint from every other block), and its
//! buffer is a `VecBuffer` block: owned by the `Vec` (disjoint from everything), empty when
//! `cap = 0` (the pointer dangles, nothing is allocated), else a heap block of the global
//! allocator of exactly `cap · size_of::<T>()` bytes (the layout `Vec::from_raw_parts`
//! documents as a `Vec`'s), which std's linked growth code may reallocate or free
//! (`rust_alloc` accepts it as a live heap block when it is provably non-empty and of the size
//! given). After a reallocation the old block is gone from the state: no cell, fact about its
//! contents or access through the old pointer survives (any such access is an error state).

use super::ctx::Ctx;
use super::exec;
use super::facts::Atom;
use super::state::{Alloc, AllocKind, PtEntry};
use crate::ir::RustParam;
use crate::logic::{LinExpr, Rel, Var};

/// The blocks, facts and known cells of a `&Vec<T>`/`&mut Vec<T>` parameter `p`; `None` for
/// another kind.
pub(super) fn blocks(ctx: &mut Ctx<'_>, p: &Var, param: RustParam) -> Option<(Vec<Alloc>, Vec<Atom>, Vec<PtEntry>)> {
    let RustParam::VecRef { mutable, size, elem_size, ptr_offset, cap_offset, len_offset } = param else { return None };
    if size == 0 || elem_size == 0 {
        return None;
    }
    let mut atoms = vec![];
    // the Vec: `size` bytes at p
    let vec_end = ctx.fresh("end");
    atoms.extend(Atom::cmp(&LinExpr::var(&vec_end), Rel::Eq, &LinExpr::var(p).add_scaled(1, &LinExpr::constant(size as i128 - 1))?));
    atoms.push(Atom::var_const(&vec_end, Rel::Le, exec::ADDR_MAX));
    atoms.push(Atom::var_const(p, Rel::Ge, 1));
    let vec_block = Alloc { id: ctx.fresh_alloc_id(), start: p.clone(), end: vec_end, kind: AllocKind::RefParam { mutable, may_be_empty: false }, pristine: None };
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
    let buf_kind = if mutable { AllocKind::VecBuffer } else { AllocKind::RefParam { mutable: false, may_be_empty: true } };
    let buf_block = Alloc { id: ctx.fresh_alloc_id(), start: buf.clone(), end: buf_end, kind: buf_kind, pristine: None };
    let mut cells = vec![];
    for (offset, value, is_ptr) in [(ptr_offset, buf, true), (cap_offset, cap, false), (len_offset, len, false)] {
        // a cell at the block's start is addressed by the start itself (exec's convention);
        // a writable `Vec`'s other fields by their canonical names (`rust_cells`), which the
        // stores of `push` use, so that merges match the cells
        let addr = if offset == 0 {
            p.clone()
        } else {
            let a = if mutable { Var::new(format!("cell.{}.{offset}", vec_block.id)) } else { ctx.fresh("t") };
            atoms.extend(Atom::cmp(&LinExpr::var(&a), Rel::Eq, &LinExpr::var(p).add_scaled(1, &LinExpr::constant(offset as i128))?));
            a
        };
        // `cap` and `len` are below 2^63 (`cap · size_of::<T>() ≤ isize::MAX`), so their signed
        // and unsigned readings agree: a writable `Vec` keeps them in the signed reading, the
        // view in which rustc's stores (`len + 1`, `grow_one`) record them, so that a merge
        // matches the entry's cells with the stored ones
        cells.push(PtEntry { addr, size: 8, is_ptr, unsigned: !is_ptr && !mutable, value, alloc: vec_block.id });
    }
    Some((vec![vec_block, buf_block], atoms, cells))
}
