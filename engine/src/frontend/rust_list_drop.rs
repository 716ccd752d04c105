//! Drop glue of a Rust singly linked list (`Option<Box<Node>>` with `Node { …, next:
//! Option<Box<Node>> }`) as a loop: rustc's glue is three mutually recursive
//! `core::ptr::drop_in_place` instances, which the analysis would summarise as recursion
//! through a pointer to the slot that holds the list (a shape no summary keeps); the loop
//! walks the list and frees it cell by cell, which the list invariants of seed 001 prove.
//!
//! The three instances, recognised by their code (and by the path `core::ptr::drop_in_place`,
//! which only the compiler defines):
//! - `O(slot)` — `Option<Box<Node>>`: loads `p = *slot`, calls `B(slot)` exactly when `p` is
//!   not null (checked by evaluating its branches for `p = null` and `p ≠ null`), nothing else;
//! - `B(slot)` — `Box<Node>`: on its normal path loads `q = *slot`, calls `N(q)`, then calls
//!   `D(slot)` (`<Box<Node> as Drop>::drop`, which frees the cell) and returns;
//! - `N(n)` — `Node`: one block that only calls `O(n + k)`: the node owns nothing else that
//!   needs dropping (no `Drop` impl, no other owning field), `k` is the `next` field's offset.
//!
//! `O`'s body is replaced by: `p = *slot; while p ≠ null { n = *(p + k); tmp = p; D(&tmp);
//! p = n }`. On a list reached acyclically from `slot` both read the same `next` fields of
//! live cells and call `D` once per cell with a slot holding that cell's pointer; only the
//! order differs (the glue frees the last cell first). `D` is required not to unwind (no call
//! in its code may unwind, transitively), so `B`'s cleanup path, which runs only when `N` or
//! `D` unwinds, is never taken by the glue either. Where the list is cyclic or shared (only
//! possible through `unsafe` code) the glue recurses without end and the loop reads a freed
//! cell: neither is proved, by either form. Anything else keeps the glue unchanged.

use crate::ir::{
    externals::{self, External},
    rust_names, BlockId, Block, Callee, CastOp, FuncId, Function, Instr, IntPred, Module, Op, Operand, SrcLoc, Terminator, Type,
    ValueId,
};
use std::collections::{BTreeSet, HashMap};

/// Rewrites every recognised list drop glue `O` of `module` into its loop.
pub(super) fn iterate_list_drops(module: &mut Module) {
    if module.pointer_bits != 64 {
        return;
    }
    let mut rewrites = Vec::new();
    for (i, f) in module.functions.iter().enumerate() {
        if let Some(shape) = recognise(module, FuncId(i as u32), f) {
            rewrites.push((i, shape));
        }
    }
    for (i, shape) in rewrites {
        let f = &mut module.functions[i];
        tracing::debug!(function = %f.name, next_offset = shape.next_offset, "list drop glue iterated");
        rewrite(f, &shape);
    }
}

/// What the loop needs: the `next` field's offset and the cell's drop `D`.
struct ListDrop {
    next_offset: i128,
    drop_cell: FuncId,
}

fn is_drop_in_place(f: &Function) -> bool {
    rust_names::demangle_path(&f.name).is_some_and(|p| p == ["core", "ptr", "drop_in_place"])
}

/// The one pointer parameter of a defined `drop_in_place` instance returning nothing.
fn glue_param(f: &Function) -> Option<ValueId> {
    if f.is_declaration() || !is_drop_in_place(f) || f.ret != Type::Void {
        return None;
    }
    match f.params.as_slice() {
        [(p, Type::Ptr)] => Some(*p),
        _ => None,
    }
}

fn recognise(module: &Module, o_id: FuncId, o: &Function) -> Option<ListDrop> {
    let slot = glue_param(o)?;
    let b_id = option_glue(o, slot)?;
    let b = module.function(b_id);
    let b_slot = glue_param(b)?;
    let (n_id, d_id) = box_glue(b, b_slot)?;
    let n = module.function(n_id);
    let n_param = glue_param(n)?;
    let next_offset = node_glue(n, n_param, o_id)?;
    if [o_id, b_id, n_id].contains(&d_id) || may_unwind(module, d_id, &mut BTreeSet::new(), 0) {
        return None;
    }
    let d = module.function(d_id);
    if d.params.len() != 1 || d.params[0].1 != Type::Ptr || d.ret != Type::Void || d.is_vararg {
        return None;
    }
    Some(ListDrop { next_offset, drop_cell: d_id })
}

/// An abstract value of `O`'s evaluation: a known integer, the loaded pointer (null or not),
/// or its integer image.
#[derive(Clone, Copy, PartialEq, Debug)]
enum Val {
    Int(i128),
    Ptr { null: bool },
}

/// `O`'s callee `B` if `O` is the glue of `Option<Box<_>>`: one load of `*slot`, one call
/// `B(slot)`, made exactly when the loaded pointer is not null.
fn option_glue(o: &Function, slot: ValueId) -> Option<FuncId> {
    let mut loaded = None;
    let mut callee = None;
    for i in o.blocks.iter().flat_map(|b| &b.instrs) {
        match &i.op {
            Op::Load { ty: Type::Ptr, ptr: Operand::Local(p), .. } if *p == slot && loaded.is_none() => loaded = i.result,
            Op::Call { callee: Callee::Direct(f), args, .. } if callee.is_none() && args.as_slice() == [Operand::Local(slot)] => callee = Some(*f),
            Op::Cast { .. } | Op::ICmp { .. } | Op::Select { .. } | Op::Bin { .. } => {}
            _ => return None,
        }
    }
    let (loaded, callee) = (loaded?, callee?);
    (run_option_glue(o, loaded, true)? == 0 && run_option_glue(o, loaded, false)? == 1).then_some(callee)
}

/// Runs `O` with the loaded pointer null or not; the number of calls made before `Ret`, or
/// `None` when a branch depends on anything else.
fn run_option_glue(o: &Function, loaded: ValueId, null: bool) -> Option<u32> {
    let mut env: HashMap<ValueId, Val> = HashMap::from([(loaded, Val::Ptr { null })]);
    let mut block = BlockId(0);
    let mut calls = 0;
    for _ in 0..o.blocks.len() + 1 {
        let b = o.blocks.get(block.0 as usize)?;
        for i in &b.instrs {
            let value = match &i.op {
                Op::Call { .. } => {
                    calls += 1;
                    None
                }
                op => eval(op, &env),
            };
            if let (Some(r), Some(v)) = (i.result, value) {
                env.insert(r, v);
            }
        }
        block = match &b.terminator {
            Terminator::Ret(None) => return Some(calls),
            Terminator::Br(t) => *t,
            Terminator::CondBr { cond, then_block, else_block } => match value(cond, &env)? {
                Val::Int(0) => *else_block,
                Val::Int(_) => *then_block,
                Val::Ptr { .. } => return None,
            },
            _ => return None,
        };
    }
    None
}

fn value(o: &Operand, env: &HashMap<ValueId, Val>) -> Option<Val> {
    match o {
        Operand::Local(v) => env.get(v).copied(),
        Operand::Int { value, .. } => Some(Val::Int(*value)),
        Operand::NullPtr => Some(Val::Ptr { null: true }),
        _ => None,
    }
}

/// Pure instructions over known values; `None` (unknown) for anything not decided.
fn eval(op: &Op, env: &HashMap<ValueId, Val>) -> Option<Val> {
    match op {
        Op::Cast { op: CastOp::PtrToInt | CastOp::IntToPtr | CastOp::BitCast, value: v, .. } => value(v, env),
        Op::Cast { op: CastOp::Trunc | CastOp::ZExt, to_bits, value: v, .. } => match value(v, env)? {
            Val::Int(x) if *to_bits < 64 => Some(Val::Int(x & ((1i128 << to_bits) - 1))),
            Val::Int(x) if x >= 0 => Some(Val::Int(x)),
            _ => None,
        },
        Op::Select { cond, then_value, else_value, .. } => match value(cond, env)? {
            Val::Int(0) => value(else_value, env),
            Val::Int(_) => value(then_value, env),
            Val::Ptr { .. } => None,
        },
        Op::ICmp { pred: pred @ (IntPred::Eq | IntPred::Ne), lhs, rhs, .. } => {
            let same = match (value(lhs, env)?, value(rhs, env)?) {
                (Val::Int(a), Val::Int(b)) => a == b,
                // a pointer against 0 or null; against anything else it is unknown
                (Val::Ptr { null }, Val::Int(0) | Val::Ptr { null: true }) | (Val::Int(0) | Val::Ptr { null: true }, Val::Ptr { null }) => null,
                _ => return None,
            };
            Some(Val::Int(i128::from(same == (*pred == IntPred::Eq))))
        }
        _ => None,
    }
}

/// `(N, D)` if `B(slot)`'s normal path is `q = *slot; N(q); D(slot); return`. Blocks only an
/// unwinding `N` or `D` reaches are not looked at (`D` is checked not to unwind, `N` only
/// calls `O`).
fn box_glue(b: &Function, slot: ValueId) -> Option<(FuncId, FuncId)> {
    let mut q = None;
    let mut calls = Vec::new();
    let mut block = BlockId(0);
    for _ in 0..b.blocks.len() + 1 {
        let blk = b.blocks.get(block.0 as usize)?;
        for i in &blk.instrs {
            match &i.op {
                Op::Load { ty: Type::Ptr, ptr: Operand::Local(p), .. } if *p == slot && q.is_none() => q = i.result,
                Op::Call { callee: Callee::Direct(f), args, .. } => calls.push((*f, args.clone())),
                // the landing pad's spill slot, used only on the unwind path
                Op::Alloca { .. } => {}
                _ => return None,
            }
        }
        block = match &blk.terminator {
            Terminator::Ret(None) => break,
            Terminator::Br(t) | Terminator::Invoke { normal: t, .. } => *t,
            _ => return None,
        };
    }
    match (q, calls.as_slice()) {
        (Some(q), [(n, n_args), (d, d_args)]) if n_args.as_slice() == [Operand::Local(q)] && d_args.as_slice() == [Operand::Local(slot)] => Some((*n, *d)),
        _ => None,
    }
}

/// `k` if `N(n)` is one block calling `O(n + k)` and nothing else.
fn node_glue(n: &Function, param: ValueId, o: FuncId) -> Option<i128> {
    let [blk] = n.blocks.as_slice() else { return None };
    if blk.terminator != Terminator::Ret(None) {
        return None;
    }
    let mut field = (param, 0i128);
    let mut called = false;
    for i in &blk.instrs {
        match &i.op {
            Op::PtrAdd { base: Operand::Local(b), offset, indices, .. } if *b == param && indices.is_empty() && i.result.is_some() => {
                field = (i.result?, *offset);
            }
            Op::Call { callee: Callee::Direct(f), args, .. } if *f == o && !called && args.as_slice() == [Operand::Local(field.0)] => called = true,
            _ => return None,
        }
    }
    (called && field.1 >= 0).then_some(field.1)
}

/// Whether a call of `f` may unwind: some call in its code (transitively, at most 8 deep) is
/// of an unwinding panic, of an unknown declaration, indirect, or too deep to follow.
fn may_unwind(module: &Module, f: FuncId, seen: &mut BTreeSet<FuncId>, depth: u32) -> bool {
    if !seen.insert(f) {
        return false;
    }
    let func = module.function(f);
    if func.is_declaration() {
        return match externals::classify(&func.name) {
            External::Panic { unwinds } => unwinds,
            External::Unknown(_) => true,
            _ => false,
        };
    }
    if depth >= 8 || func.blocks.iter().any(|b| matches!(b.terminator, Terminator::Resume(_) | Terminator::Unsupported { .. })) {
        return true;
    }
    func.blocks.iter().flat_map(|b| &b.instrs).any(|i| match &i.op {
        Op::Call { callee: Callee::Direct(g), .. } => may_unwind(module, *g, seen, depth + 1),
        Op::Call { .. } => true,
        _ => false,
    })
}

/// The names of the loop's blocks (entry, header, body, exit), which [`is_list_drop_loop`]
/// recognises the rewritten glue by.
const LOOP_BLOCKS: [&str; 4] = ["start", "list.head", "list.cell", "list.end"];

/// Whether `f` is a list drop glue this module rewrote into its loop (a `drop_in_place`
/// instance whose blocks are the loop's). Symbolic execution runs such a glue in place
/// rather than through a summary: its argument is a list the caller holds, which a summary
/// entry cannot take (`symexec::lists_rust`). Executing a callee in place is always exact,
/// so a wrong match costs time, never a verdict.
pub(crate) fn is_list_drop_loop(f: &Function) -> bool {
    is_drop_in_place(f) && f.blocks.len() == LOOP_BLOCKS.len() && f.blocks.iter().zip(LOOP_BLOCKS).all(|(b, n)| b.name == n)
}

/// Replaces `O`'s body by the loop (module docs).
fn rewrite(f: &mut Function, shape: &ListDrop) {
    let slot = f.params[0].0;
    let loc: Option<SrcLoc> = f.blocks.iter().flat_map(|b| &b.instrs).find_map(|i| i.loc.clone());
    fn fresh(name: &str, f: &mut Function) -> ValueId {
        let v = ValueId(f.num_values);
        f.num_values += 1;
        f.value_names.resize(f.num_values as usize, None);
        f.value_names[v.0 as usize] = Some(name.to_string());
        v
    }
    let (tmp, first, cell, is_null, field, next) =
        (fresh("cell.slot", f), fresh("first", f), fresh("cell", f), fresh("at_end", f), fresh("next.addr", f), fresh("next", f));
    let instr = |result: Option<ValueId>, op: Op| Instr { result, op, loc: loc.clone() };
    let block = |name: &str, instrs: Vec<Instr>, terminator: Terminator| Block {
        name: name.to_string(),
        instrs,
        terminator,
        term_loc: loc.clone(),
        loop_loc: None,
    };
    let (entry, head, body, exit) = (BlockId(0), BlockId(1), BlockId(2), BlockId(3));
    let [start_name, head_name, cell_name, end_name] = LOOP_BLOCKS;
    f.blocks = vec![
        block(
            start_name,
            vec![
                instr(Some(tmp), Op::Alloca { elem_size: 8, count: Operand::Int { bits: 64, value: 1 }, count_bits: 64 }),
                instr(Some(first), Op::Load { ty: Type::Ptr, ptr: Operand::Local(slot), size: 8 }),
            ],
            Terminator::Br(head),
        ),
        block(
            head_name,
            vec![
                instr(Some(cell), Op::Phi { ty: Type::Ptr, incoming: vec![(Operand::Local(first), entry), (Operand::Local(next), body)] }),
                instr(Some(is_null), Op::ICmp { pred: IntPred::Eq, bits: 64, lhs: Operand::Local(cell), rhs: Operand::NullPtr }),
            ],
            Terminator::CondBr { cond: Operand::Local(is_null), then_block: exit, else_block: body },
        ),
        block(
            cell_name,
            vec![
                instr(Some(field), Op::PtrAdd { base: Operand::Local(cell), offset: shape.next_offset, indices: vec![], inbounds: true }),
                instr(Some(next), Op::Load { ty: Type::Ptr, ptr: Operand::Local(field), size: 8 }),
                instr(None, Op::Store { ty: Type::Ptr, value: Operand::Local(cell), ptr: Operand::Local(tmp), size: 8 }),
                instr(None, Op::Call { callee: Callee::Direct(shape.drop_cell), args: vec![Operand::Local(tmp)], ret: Type::Void }),
            ],
            Terminator::Br(head),
        ),
        block(end_name, vec![], Terminator::Ret(None)),
    ];
}
