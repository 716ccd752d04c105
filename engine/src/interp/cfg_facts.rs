//! Per-function control-flow facts the lasso detector needs: loop headers (targets of DFS
//! back edges) and the registers live right after a block's phis have executed.
//!
//! Dead registers are left out of state comparisons: a value that is not live cannot
//! influence the rest of the run, so two states that differ only in dead registers have the
//! same future (this is what makes `x = nondet()` loops with random inputs repeat).

use crate::ir::{BlockId, Callee, Function, Op, Operand, Terminator, ValueId};

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
        Op::Phi { .. } | Op::Unsupported { .. } => vec![],
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

fn terminator_operands(t: &Terminator) -> Vec<&Operand> {
    match t {
        Terminator::CondBr { cond, .. } => vec![cond],
        Terminator::Switch { value, .. } => vec![value],
        Terminator::Ret(Some(v)) => vec![v],
        _ => vec![],
    }
}

/// Loop headers and liveness of one function.
#[derive(Clone, Debug)]
pub struct FunctionFacts {
    /// `headers[b]`: block `b` is the target of a back edge.
    pub headers: Vec<bool>,
    /// `live_after_phis[b][v]`: value `v` may be read after block `b`'s phis ran.
    pub live_after_phis: Vec<Vec<bool>>,
}

impl FunctionFacts {
    pub fn compute(f: &Function) -> FunctionFacts {
        FunctionFacts { headers: loop_headers(f), live_after_phis: liveness(f) }
    }
}

fn loop_headers(f: &Function) -> Vec<bool> {
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

fn liveness(f: &Function) -> Vec<Vec<bool>> {
    let n = f.blocks.len();
    let nv = f.num_values as usize;
    let local = |o: &Operand| match o {
        Operand::Local(ValueId(v)) if (*v as usize) < nv => Some(*v as usize),
        _ => None,
    };
    // live_in[b]: live at entry of b, before its phis (phi results excluded).
    let mut live_in = vec![vec![false; nv]; n];
    let mut after_phis = vec![vec![false; nv]; n];
    let mut changed = true;
    while changed {
        changed = false;
        for b in (0..n).rev() {
            let block = &f.blocks[b];
            let mut live = vec![false; nv];
            for s in block.terminator.successors() {
                let Some(sb) = f.blocks.get(s.0 as usize) else { continue };
                for (v, l) in live_in[s.0 as usize].iter().enumerate() {
                    live[v] |= *l;
                }
                for instr in &sb.instrs {
                    if let Op::Phi { incoming, .. } = &instr.op {
                        for (o, from) in incoming {
                            if from.0 as usize == b {
                                if let Some(v) = local(o) {
                                    live[v] = true;
                                }
                            }
                        }
                    }
                }
            }
            for o in terminator_operands(&block.terminator) {
                if let Some(v) = local(o) {
                    live[v] = true;
                }
            }
            let mut phi_defs = vec![];
            for instr in block.instrs.iter().rev() {
                if let Op::Phi { .. } = instr.op {
                    if let Some(ValueId(r)) = instr.result {
                        phi_defs.push(r as usize);
                    }
                    continue;
                }
                if let Some(ValueId(r)) = instr.result {
                    if (r as usize) < nv {
                        live[r as usize] = false;
                    }
                }
                match operands(&instr.op) {
                    Some(os) => {
                        for o in os {
                            if let Some(v) = local(o) {
                                live[v] = true;
                            }
                        }
                    }
                    None => live.fill(true),
                }
            }
            let mut entry = live.clone();
            for r in phi_defs {
                if r < nv {
                    entry[r] = false;
                }
            }
            if entry != live_in[b] {
                live_in[b] = entry;
                changed = true;
            }
            after_phis[b] = live;
        }
    }
    after_phis
}
