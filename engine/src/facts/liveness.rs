//! Loop headers (targets of DFS back edges) and liveness of a function's locals.
//!
//! Liveness is the least fixpoint of the usual backward equations (phi operands are live at
//! the end of their incoming block). Two use rules exist, kept as they were before the facts
//! were shared: the interpreter counts every operand; symbolic execution does not count the
//! operands of `extractvalue`/`insertvalue` (`AggregateOperands::Ignored`). Dead registers
//! are left out of the interpreter's state comparisons: a value that is not live cannot
//! influence the rest of the run, so two states that differ only in dead registers have the
//! same future (this is what makes `x = nondet()` loops with random inputs repeat).

use crate::ir::{BlockId, Callee, Function, Op, Operand, Terminator, ValueId};
use std::collections::BTreeSet;

/// Whether the operands of `extractvalue`/`insertvalue` count as uses.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum AggregateOperands {
    Counted,
    Ignored,
}

/// Operands an instruction reads (phis excluded: their uses belong to the predecessors);
/// `None` for an operation this module does not know (then every register counts as read).
pub fn operands(op: &Op) -> Option<Vec<&Operand>> {
    Some(match op {
        Op::Alloca { count, .. } => vec![count],
        Op::Load { ptr, .. } => vec![ptr],
        Op::Store { value, ptr, .. } => vec![value, ptr],
        Op::PtrAdd { base, indices, .. } => {
            let mut v = vec![base];
            v.extend(indices.iter().map(|i| &i.value));
            v
        }
        Op::Bin { lhs, rhs, .. } | Op::ICmp { lhs, rhs, .. } => vec![lhs, rhs],
        Op::Cast { value, .. } | Op::Freeze { value, .. } => vec![value],
        Op::ExtractValue { agg, .. } => vec![agg],
        Op::InsertValue { agg, value, .. } => vec![agg, value],
        Op::Select { cond, then_value, else_value, .. } => vec![cond, then_value, else_value],
        Op::Phi { .. } | Op::LandingPad { .. } | Op::Unsupported { .. } => vec![],
        Op::Call { callee, args, .. } => {
            let mut v: Vec<&Operand> = args.iter().collect();
            if let Callee::Indirect(o) = callee {
                v.push(o);
            }
            v
        }
        #[allow(unreachable_patterns)]
        _ => return None,
    })
}

fn operand_use(o: &Operand, out: &mut BTreeSet<ValueId>) {
    if let Operand::Local(v) = o {
        out.insert(*v);
    }
}

/// Adds the locals the terminator reads.
pub fn terminator_uses(t: &Terminator, out: &mut BTreeSet<ValueId>) {
    match t {
        Terminator::CondBr { cond, .. } => operand_use(cond, out),
        Terminator::Switch { value, .. } => operand_use(value, out),
        Terminator::Ret(Some(v)) | Terminator::Resume(v) => operand_use(v, out),
        _ => {}
    }
}

/// Adds the locals `op` reads under `rule` (an operation `operands` does not know reads
/// every local of the function: `all`).
fn op_uses_or_all(op: &Op, rule: AggregateOperands, out: &mut BTreeSet<ValueId>, all: u32) {
    if rule == AggregateOperands::Ignored && matches!(op, Op::ExtractValue { .. } | Op::InsertValue { .. }) {
        return;
    }
    match operands(op) {
        Some(os) => os.into_iter().for_each(|o| operand_use(o, out)),
        None => out.extend((0..all).map(ValueId)),
    }
}

/// Adds the locals `op` reads under `rule`.
pub fn op_uses(op: &Op, rule: AggregateOperands, out: &mut BTreeSet<ValueId>) {
    op_uses_or_all(op, rule, out, 0)
}

/// Per block: the locals live at its end (least fixpoint).
pub fn live_out(f: &Function, rule: AggregateOperands) -> Vec<BTreeSet<ValueId>> {
    let n = f.blocks.len();
    let all = f.num_values;
    let mut live_in: Vec<BTreeSet<ValueId>> = vec![BTreeSet::new(); n];
    let mut live_out: Vec<BTreeSet<ValueId>> = vec![BTreeSet::new(); n];
    loop {
        let mut changed = false;
        for b in (0..n).rev() {
            let block = &f.blocks[b];
            let mut out = BTreeSet::new();
            for s in block.terminator.successors() {
                let si = s.0 as usize;
                if si >= n {
                    continue;
                }
                out.extend(live_in[si].iter().cloned());
                for instr in &f.blocks[si].instrs {
                    if let Op::Phi { incoming, .. } = &instr.op {
                        for (o, from) in incoming {
                            if from.0 as usize == b {
                                operand_use(o, &mut out);
                            }
                        }
                    }
                }
            }
            let mut inn = out.clone();
            terminator_uses(&block.terminator, &mut inn);
            for instr in block.instrs.iter().rev() {
                if let Some(r) = instr.result {
                    inn.remove(&r);
                }
                op_uses_or_all(&instr.op, rule, &mut inn, all);
            }
            if out != live_out[b] || inn != live_in[b] {
                live_out[b] = out;
                live_in[b] = inn;
                changed = true;
            }
        }
        if !changed {
            break;
        }
    }
    live_out
}

/// `after[b][v]`: local `v` may be read after block `b`'s phis ran, from the `live_out` sets
/// of the same use rule.
pub fn after_phis(f: &Function, live_out: &[BTreeSet<ValueId>]) -> Vec<Vec<bool>> {
    let nv = f.num_values as usize;
    f.blocks
        .iter()
        .zip(live_out)
        .map(|(block, out)| {
            let mut live = out.clone();
            terminator_uses(&block.terminator, &mut live);
            for instr in block.instrs.iter().rev().filter(|i| !matches!(i.op, Op::Phi { .. })) {
                if let Some(r) = instr.result {
                    live.remove(&r);
                }
                op_uses_or_all(&instr.op, AggregateOperands::Counted, &mut live, f.num_values);
            }
            let mut flags = vec![false; nv];
            for v in live {
                if let Some(x) = flags.get_mut(v.0 as usize) {
                    *x = true;
                }
            }
            flags
        })
        .collect()
}

/// `headers[b]`: block `b` is the target of a back edge of the depth-first search from the
/// entry (successors in terminator order).
pub fn loop_headers(f: &Function) -> Vec<bool> {
    let n = f.blocks.len();
    let mut headers = vec![false; n];
    if n == 0 {
        return headers;
    }
    // 0 = unvisited, 1 = on stack, 2 = done.
    let mut state = vec![0u8; n];
    let mut stack: Vec<(usize, Vec<BlockId>, usize)> = vec![(0, f.blocks[0].terminator.successors(), 0)];
    state[0] = 1;
    while let Some((b, succs, i)) = stack.last_mut() {
        if *i < succs.len() {
            let s = succs[*i].0 as usize;
            *i += 1;
            if s >= n {
                continue;
            }
            match state[s] {
                0 => {
                    state[s] = 1;
                    let ss = f.blocks[s].terminator.successors();
                    stack.push((s, ss, 0));
                }
                1 => headers[s] = true,
                _ => {}
            }
        } else {
            state[*b] = 2;
            stack.pop();
        }
    }
    headers
}
