//! The tail-call view of a recursive function: the function's body as a loop whose back
//! edges are its recursive calls (`params := args; goto entry`), so that the loop
//! provers of this module can look for an infinite recursion as for an infinite loop.
//!
//! On a run that recurses forever, no recursive call returns: the code after the call is
//! never reached, and each level starts again at the entry with the call's arguments as
//! parameters. The view keeps exactly the part of each level the infinite run executes:
//! - a new preheader (block 0) enters the old entry block, which becomes the header; every
//!   parameter that some call site passes a different value gets a header phi (the phi
//!   *is* the parameter: it keeps the parameter's `ValueId`, the view's own parameter gets
//!   a fresh one), a parameter every call passes unchanged stays a live-in;
//! - each block with a direct recursive call is cut at its first one: the call and what
//!   follows are replaced by a branch to the header (the back edge); blocks no longer
//!   reachable are emptied (`unreachable`), phi entries of removed edges dropped;
//! - mutual recursion through one partner (`f` calls `g`, which calls `f` back directly and
//!   not itself): each call of `g` in the view is cut like a recursive call but continues
//!   into a copy of `g`'s body (its parameters replaced by the call's arguments, its values
//!   renumbered past the view's); the copy's calls of `f` are back edges and its returns
//!   leave the loop (a return of `g` would resume `f` after the call, which the view does
//!   not follow, so a recurrent set must exclude it);
//! - a *fresh write-only block* — `malloc` of a constant size whose result is only the
//!   address of stores at constant offsets inside that size (possibly through constant
//!   `PtrAdd`s) or compared with null — is removed with those stores, and each comparison
//!   becomes its constant outcome (not null): under the engine's model `malloc` never fails
//!   (SEMANTICS.md; a run where every allocation succeeds is a real run), the block is new
//!   (disjoint from every other live object), and nothing in the view reads it, so the
//!   stores can neither fault nor change anything the view computes. Every other operation stays and meets the encoder's refusals (an
//!   `alloca`, i.e. an object in the level's own frame, any other call, pointer phis, …).
//!
//! Because the header's phis have the parameters' `ValueId`s, a real entry of the function
//! (the interpreter's `BlockEntry` at its block 0) is an observation of the view's header:
//! the same registers hold the state. Why a closed set of the view gives a real infinite run
//! is argued in ARCHITECTURE.md ("Infinite recursion as a loop").

use super::math_ops::NotEncodable;
use crate::facts::loops::{natural_loops, Loop};
use crate::ir::externals::{classify, External};
use crate::ir::{Block, BlockId, Callee, FuncId, Function, Instr, IntPred, Module, Op, Operand, Terminator, Type, ValueId};
use std::collections::{BTreeMap, BTreeSet};

/// The header of every view (the original entry block, after the new preheader).
pub const VIEW_HEADER: BlockId = BlockId(1);

/// A self-recursive function seen as a loop.
#[derive(Clone, Debug)]
pub struct RecursionView {
    /// The recursive function.
    pub original: FuncId,
    /// The view: the original's blocks shifted by one behind a new preheader.
    pub function: Function,
    /// The loop headed by `VIEW_HEADER` (its back edges are the recursive calls).
    pub lp: Loop,
}

/// Whether `f` calls `func` directly somewhere.
pub fn calls_itself(f: &Function, func: FuncId) -> bool {
    f.blocks.iter().flat_map(|b| &b.instrs).any(|i| is_call_of(&i.op, func))
}

/// Whether `func` is recursive in a way the view covers: it calls itself, or calls a
/// function that calls it back directly.
pub fn is_recursive(module: &Module, func: FuncId) -> bool {
    let f = module.function(func);
    calls_itself(f, func) || callees(f).any(|g| g != func && partner(module, func, g))
}

fn is_call_of(op: &Op, func: FuncId) -> bool {
    matches!(op, Op::Call { callee: Callee::Direct(c), .. } if *c == func)
}

fn callees(f: &Function) -> impl Iterator<Item = FuncId> + '_ {
    f.blocks.iter().flat_map(|b| &b.instrs).filter_map(|i| match &i.op {
        Op::Call { callee: Callee::Direct(c), .. } => Some(*c),
        _ => None,
    })
}

/// Whether a call of `g` from `func` is inlined into the view: `g` is defined, not
/// variadic, calls `func` back directly and not itself.
fn partner(module: &Module, func: FuncId, g: FuncId) -> bool {
    let body = module.function(g);
    g != func && !body.is_declaration() && !body.is_vararg && calls_itself(body, func) && !calls_itself(body, g)
}

/// Where a block of the view is cut.
enum Cut {
    /// A call of the function itself: the back edge, with the call's arguments.
    Back(Vec<Operand>),
    /// A call of a partner (see `partner`): its body is inlined there.
    Inline(FuncId, Vec<Operand>),
}

/// The first call of `block` that cuts it in the view of `func` (a recursive call, or with
/// `inline`, a call of a partner), with its index.
fn first_cut(module: &Module, func: FuncId, block: &Block, inline: bool) -> Option<(usize, Cut)> {
    block.instrs.iter().enumerate().find_map(|(i, instr)| match &instr.op {
        Op::Call { callee: Callee::Direct(c), args, .. } if *c == func => Some((i, Cut::Back(args.clone()))),
        Op::Call { callee: Callee::Direct(c), args, .. } if inline && partner(module, func, *c) => Some((i, Cut::Inline(*c, args.clone()))),
        _ => None,
    })
}

/// Cuts `block` at `at`: the call and what follows give way to a branch to `to`.
fn cut_block(block: &mut Block, at: usize, to: BlockId) {
    block.term_loc = block.instrs[at].loc.clone();
    block.instrs.truncate(at);
    block.terminator = Terminator::Br(to);
    block.loop_loc = None;
}

/// Builds the tail-call view of `func` (see the module doc), or says why not.
pub fn tail_call_view(module: &Module, func: FuncId) -> Result<RecursionView, NotEncodable> {
    let f = module.function(func);
    if f.is_declaration() || f.is_vararg {
        return Err(NotEncodable(format!("{} has no body or is variadic", f.name)));
    }
    let mut view = f.clone();
    let mut blocks = Vec::with_capacity(f.blocks.len() + 1);
    blocks.push(Block { name: format!("{}.recursion", f.blocks[0].name), instrs: vec![], terminator: Terminator::Br(VIEW_HEADER), term_loc: None, loop_loc: None });
    // Back edges: (block of the view, the recursive call's arguments).
    let mut back: Vec<(BlockId, Vec<Operand>)> = Vec::new();
    let mut inlines: Vec<(BlockId, FuncId, Vec<Operand>)> = Vec::new();
    for block in &f.blocks {
        let mut block = block.clone();
        shift_targets(&mut block, |b| BlockId(b.0 + 1));
        let here = BlockId(blocks.len() as u32);
        match first_cut(module, func, &block, true) {
            Some((at, Cut::Back(args))) => {
                cut_block(&mut block, at, VIEW_HEADER);
                back.push((here, args));
            }
            Some((at, Cut::Inline(g, args))) => {
                cut_block(&mut block, at, BlockId(0));
                inlines.push((here, g, args));
            }
            None => {}
        }
        blocks.push(block);
    }
    // Each call of a partner: its body, with its parameters replaced by the arguments and its
    // values renumbered; its calls of `func` are back edges, its returns leave the view.
    let mut next = f.num_values;
    for (site, g, args) in inlines {
        let body = module.function(g);
        if args.len() != body.params.len() {
            return Err(NotEncodable(format!("a call of {} with {} arguments", body.name, args.len())));
        }
        let (offset, first) = (next, blocks.len() as u32);
        next += body.num_values;
        view.value_names.resize(next as usize, None);
        for (v, name) in body.value_names.iter().enumerate() {
            view.value_names[offset as usize + v] = name.as_ref().map(|n| format!("{}.{n}", body.name));
        }
        let params: BTreeMap<ValueId, Operand> = body.params.iter().map(|(p, _)| *p).zip(args).collect();
        let rename = |o: &mut Operand| {
            if let Operand::Local(v) = o {
                *o = params.get(v).cloned().unwrap_or(Operand::Local(ValueId(v.0 + offset)));
            }
        };
        blocks[site.0 as usize].terminator = Terminator::Br(BlockId(first));
        for block in &body.blocks {
            let mut block = block.clone();
            block.name = format!("{}.{}", body.name, block.name);
            for instr in &mut block.instrs {
                instr.result = instr.result.map(|r| ValueId(r.0 + offset));
                for_each_operand(&mut instr.op, &rename);
            }
            if let Some(o) = terminator_operand(&mut block.terminator) {
                rename(o);
            }
            shift_targets(&mut block, |b| BlockId(b.0 + first));
            let here = BlockId(blocks.len() as u32);
            if let Some((at, Cut::Back(call_args))) = first_cut(module, func, &block, false) {
                cut_block(&mut block, at, VIEW_HEADER);
                back.push((here, call_args));
            }
            blocks.push(block);
        }
    }
    if back.is_empty() {
        return Err(NotEncodable(format!("{} does not call itself", f.name)));
    }
    if back.iter().any(|(_, args)| args.len() != f.params.len()) {
        return Err(NotEncodable("a recursive call with a different number of arguments".into()));
    }
    let mut params = Vec::with_capacity(f.params.len());
    let mut phis = Vec::new();
    for (k, (p, ty)) in f.params.iter().enumerate() {
        if back.iter().all(|(_, args)| args[k] == Operand::Local(*p)) {
            params.push((*p, ty.clone()));
            continue;
        }
        let fresh = ValueId(next);
        next += 1;
        view.value_names.resize(next as usize, None);
        view.value_names[fresh.0 as usize] = f.value_names.get(p.0 as usize).cloned().flatten().map(|n| format!("{n}.caller"));
        params.push((fresh, ty.clone()));
        let mut incoming = vec![(Operand::Local(fresh), BlockId(0))];
        incoming.extend(back.iter().map(|(b, args)| (args[k].clone(), *b)));
        phis.push(Instr { result: Some(*p), op: Op::Phi { ty: ty.clone(), incoming }, loc: None });
    }
    view.params = params;
    view.num_values = next;
    view.value_names.resize(next as usize, None);
    blocks[VIEW_HEADER.0 as usize].instrs.splice(0..0, phis);
    view.blocks = blocks;
    empty_unreachable(&mut view);
    remove_write_only_blocks(module, &mut view);
    let lp = natural_loops(&view).loops.into_iter().find(|l| l.header == VIEW_HEADER).ok_or_else(|| NotEncodable("no recursive call is reachable".into()))?;
    Ok(RecursionView { original: func, function: view, lp })
}

/// Applies `f` to every operand of `op`.
fn for_each_operand(op: &mut Op, f: &impl Fn(&mut Operand)) {
    match op {
        Op::Alloca { count, .. } => f(count),
        Op::Load { ptr, .. } => f(ptr),
        Op::Store { value, ptr, .. } => {
            f(value);
            f(ptr);
        }
        Op::PtrAdd { base, indices, .. } => {
            f(base);
            indices.iter_mut().for_each(|i| f(&mut i.value));
        }
        Op::Bin { lhs, rhs, .. } | Op::ICmp { lhs, rhs, .. } => {
            f(lhs);
            f(rhs);
        }
        Op::Cast { value, .. } | Op::Freeze { value, .. } => f(value),
        Op::Select { cond, then_value, else_value, .. } => {
            f(cond);
            f(then_value);
            f(else_value);
        }
        Op::Phi { incoming, .. } => incoming.iter_mut().for_each(|(o, _)| f(o)),
        Op::Call { callee, args, .. } => {
            if let Callee::Indirect(o) = callee {
                f(o);
            }
            args.iter_mut().for_each(f);
        }
        Op::ExtractValue { agg, .. } => f(agg),
        Op::InsertValue { agg, value, .. } => {
            f(agg);
            f(value);
        }
        Op::LandingPad { .. } | Op::Unsupported { .. } => {}
    }
}

/// The operand a terminator reads, if any.
fn terminator_operand(t: &mut Terminator) -> Option<&mut Operand> {
    match t {
        Terminator::CondBr { cond, .. } => Some(cond),
        Terminator::Switch { value, .. } => Some(value),
        Terminator::Ret(Some(o)) | Terminator::Resume(o) => Some(o),
        _ => None,
    }
}

/// Renumbers the block targets of `block` (terminator, phi predecessors) by `shift`.
fn shift_targets(block: &mut Block, shift: impl Fn(BlockId) -> BlockId) {
    for instr in &mut block.instrs {
        if let Op::Phi { incoming, .. } = &mut instr.op {
            incoming.iter_mut().for_each(|(_, p)| *p = shift(*p));
        }
    }
    match &mut block.terminator {
        Terminator::Br(b) => *b = shift(*b),
        Terminator::CondBr { then_block, else_block, .. } => {
            *then_block = shift(*then_block);
            *else_block = shift(*else_block);
        }
        Terminator::Switch { default, cases, .. } => {
            *default = shift(*default);
            cases.iter_mut().for_each(|(_, b)| *b = shift(*b));
        }
        Terminator::Invoke { normal, unwind } => {
            *normal = shift(*normal);
            *unwind = shift(*unwind);
        }
        Terminator::Ret(_) | Terminator::Unreachable | Terminator::Resume(_) | Terminator::Unsupported { .. } => {}
    }
}

/// Empties the blocks the preheader no longer reaches and drops phi entries of edges that
/// are gone.
fn empty_unreachable(view: &mut Function) {
    let mut reached = BTreeSet::new();
    let mut todo = vec![BlockId(0)];
    while let Some(b) = todo.pop() {
        if reached.insert(b) {
            todo.extend(view.block(b).terminator.successors());
        }
    }
    let edges: BTreeSet<(BlockId, BlockId)> =
        reached.iter().flat_map(|b| view.block(*b).terminator.successors().into_iter().map(move |s| (*b, s))).collect();
    for (i, block) in view.blocks.iter_mut().enumerate() {
        let b = BlockId(i as u32);
        if !reached.contains(&b) {
            block.instrs.clear();
            block.terminator = Terminator::Unreachable;
            continue;
        }
        for instr in &mut block.instrs {
            if let Op::Phi { incoming, .. } = &mut instr.op {
                incoming.retain(|(_, p)| edges.contains(&(*p, b)));
            }
        }
    }
}

/// Removes every fresh write-only block (see the module doc) with its stores and offsets.
fn remove_write_only_blocks(module: &Module, view: &mut Function) {
    let mut uses: BTreeMap<ValueId, Vec<(usize, usize)>> = BTreeMap::new();
    let mut escapes: BTreeSet<ValueId> = BTreeSet::new();
    for (b, block) in view.blocks.iter().enumerate() {
        for (i, instr) in block.instrs.iter().enumerate() {
            for o in crate::bitprecise::step::operands(&instr.op) {
                if let Operand::Local(v) = o {
                    uses.entry(*v).or_default().push((b, i));
                }
            }
            // A store of the pointer itself lets it escape (the address is the other operand).
            if let Op::Store { value: Operand::Local(v), .. } = &instr.op {
                escapes.insert(*v);
            }
        }
        match &block.terminator {
            Terminator::CondBr { cond: Operand::Local(v), .. } | Terminator::Switch { value: Operand::Local(v), .. } | Terminator::Ret(Some(Operand::Local(v))) | Terminator::Resume(Operand::Local(v)) => {
                escapes.insert(*v);
            }
            _ => {}
        }
    }
    let mut edits: BTreeMap<(usize, usize), Edit> = BTreeMap::new();
    for (b, block) in view.blocks.iter().enumerate() {
        for (i, instr) in block.instrs.iter().enumerate() {
            let (Some(r), Op::Call { callee: Callee::Direct(c), args, ret: Type::Ptr }) = (instr.result, &instr.op) else { continue };
            let [Operand::Int { value: size, .. }] = args.as_slice() else { continue };
            if classify(&module.function(*c).name) != External::Malloc || !module.function(*c).is_declaration() {
                continue;
            }
            let mut part = vec![((b, i), Edit::Remove)];
            if write_only(view, &uses, &escapes, r, 0, *size, &mut part) {
                edits.extend(part);
            }
        }
    }
    for (b, block) in view.blocks.iter_mut().enumerate() {
        for (i, instr) in block.instrs.iter_mut().enumerate() {
            if let (Some(Edit::NotNull), Op::ICmp { pred, .. }) = (edits.get(&(b, i)), &instr.op) {
                // `p == null` is `1 == 0`, `p != null` is `1 != 0`.
                let one = Operand::Int { bits: 8, value: 1 };
                let zero = Operand::Int { bits: 8, value: 0 };
                instr.op = Op::ICmp { pred: *pred, bits: 8, lhs: one, rhs: zero };
            }
        }
        let mut i = 0;
        block.instrs.retain(|_| {
            let keep = edits.get(&(b, i)) != Some(&Edit::Remove);
            i += 1;
            keep
        });
    }
}

/// What happens to an instruction that uses a fresh write-only block.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Edit {
    /// The allocation, an offset into the block, a store into it.
    Remove,
    /// A comparison of the block's address with null: its outcome is "not null".
    NotNull,
}

/// Whether every use of the pointer `v` (at byte `offset` of a fresh block of `size` bytes)
/// is the address of a store inside the block, a comparison of the block's start with null,
/// or a constant offset whose uses are such; collects those instructions in `part`.
fn write_only(view: &Function, uses: &BTreeMap<ValueId, Vec<(usize, usize)>>, escapes: &BTreeSet<ValueId>, v: ValueId, offset: i128, size: i128, part: &mut Vec<((usize, usize), Edit)>) -> bool {
    if escapes.contains(&v) {
        return false;
    }
    for &(b, i) in uses.get(&v).map(Vec::as_slice).unwrap_or_default() {
        let instr = &view.blocks[b].instrs[i];
        match &instr.op {
            Op::Store { ptr: Operand::Local(p), size: bytes, .. } if *p == v => {
                if offset < 0 || offset.checked_add(*bytes as i128).is_none_or(|end| end > size) {
                    return false;
                }
                part.push(((b, i), Edit::Remove));
            }
            Op::ICmp { pred: IntPred::Eq | IntPred::Ne, lhs, rhs, .. } if offset == 0 && matches!((lhs, rhs), (Operand::Local(p), Operand::NullPtr) | (Operand::NullPtr, Operand::Local(p)) if *p == v) => {
                part.push(((b, i), Edit::NotNull));
            }
            Op::PtrAdd { base: Operand::Local(p), offset: k, indices, .. } if *p == v && indices.is_empty() => {
                let (Some(q), Some(at)) = (instr.result, offset.checked_add(*k)) else { return false };
                part.push(((b, i), Edit::Remove));
                if !write_only(view, uses, escapes, q, at, size, part) {
                    return false;
                }
            }
            _ => return false,
        }
    }
    true
}
