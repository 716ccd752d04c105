//! One iteration of an innermost natural loop as a bit-vector transition: from the header's
//! integer phis (`pre` state variables) and the loop's live-ins (constant during the loop)
//! to the phis after a back edge (`post`), or out of the loop (`exit`), or into undefined
//! behaviour (`ub`), with the iteration's nondeterministic inputs as free variables.

use super::encode::{encode_region, Env, RegionBudget, RegionEncoding, RegionTarget, Unsupported};
use crate::facts::loops::Loop;
use crate::ir::{BlockId, Function, Module, Op, Operand, Terminator, Type, ValueId};
use crate::logic::bv::{BvFormula, BvTerm};
use crate::verdict::IntSemantics;
use std::collections::{BTreeMap, BTreeSet};

/// A state variable or live-in of a loop: the SSA value, its variable name, its width.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct LoopVar {
    pub value: ValueId,
    /// Variable name in the formulas (source name plus the value number, unique).
    pub name: String,
    pub width: u32,
}

impl LoopVar {
    pub fn term(&self) -> BvTerm {
        BvTerm::Var { name: self.name.as_str().into(), width: self.width }
    }
}

/// One loop iteration, bit-precisely.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct LoopStep {
    pub header: BlockId,
    /// The integer phis of the header (the loop state), as variables.
    pub state: Vec<LoopVar>,
    /// Integer values defined before the loop and used in it (constant during the loop).
    pub live_ins: Vec<LoopVar>,
    /// A back edge to the header is taken.
    pub stay: BvFormula,
    /// Value of each state phi after the back edge (meaningful where `stay` holds).
    pub post: BTreeMap<ValueId, BvTerm>,
    /// The iteration leaves the loop (exit edge, return, program exit, blocked assume).
    pub exit: BvFormula,
    /// Undefined behaviour or poison creation in the iteration.
    pub ub: BvFormula,
    /// Nondeterministic inputs of the iteration (name, width).
    pub inputs: Vec<(String, u32)>,
    /// The underlying region encoding (all edges with their values).
    pub region: RegionEncoding,
}

impl LoopStep {
    /// The state variable of a header phi.
    pub fn var_of(&self, v: ValueId) -> Option<&LoopVar> {
        self.state.iter().chain(&self.live_ins).find(|x| x.value == v)
    }
}

/// The variable name of value `v`: its source name (if any) and its number.
pub fn var_name(f: &Function, v: ValueId) -> String {
    match f.value_names.get(v.0 as usize) {
        Some(Some(n)) => format!("{n}#{}", v.0),
        _ => format!("%{}", v.0),
    }
}

pub(crate) fn operands(op: &Op) -> Vec<&Operand> {
    match op {
        Op::Alloca { count, .. } => vec![count],
        Op::Load { ptr, .. } => vec![ptr],
        Op::Store { value, ptr, .. } => vec![value, ptr],
        Op::PtrAdd { base, indices, .. } => std::iter::once(base).chain(indices.iter().map(|i| &i.value)).collect(),
        Op::Bin { lhs, rhs, .. } | Op::ICmp { lhs, rhs, .. } => vec![lhs, rhs],
        Op::Cast { value, .. } | Op::Freeze { value, .. } => vec![value],
        Op::Select { cond, then_value, else_value, .. } => vec![cond, then_value, else_value],
        Op::Phi { incoming, .. } => incoming.iter().map(|(o, _)| o).collect(),
        Op::Call { args, .. } => args.iter().collect(),
        Op::LandingPad { .. } => vec![],
        Op::ExtractValue { agg, .. } => vec![agg],
        Op::InsertValue { agg, value, .. } => vec![agg, value],
        Op::Unsupported { .. } => vec![],
    }
}

/// The values a loop reads that are defined outside it (constant while the loop runs): the
/// operands of its instructions and terminators, except the header phis' entry values.
pub fn read_from_outside(f: &Function, lp: &Loop) -> BTreeSet<ValueId> {
    let defined: BTreeSet<ValueId> = lp.blocks.iter().flat_map(|b| f.block(*b).instrs.iter().filter_map(|i| i.result)).collect();
    let mut used: BTreeSet<ValueId> = BTreeSet::new();
    let mut note = |o: &Operand| {
        if let Operand::Local(v) = o {
            if !defined.contains(v) {
                used.insert(*v);
            }
        }
    };
    for &b in &lp.blocks {
        let block = f.block(b);
        for instr in &block.instrs {
            match &instr.op {
                // Header phis take outside values only on entry, which is not part of a step.
                Op::Phi { incoming, .. } if b == lp.header => {
                    incoming.iter().filter(|(_, p)| lp.blocks.contains(p)).for_each(|(o, _)| note(o));
                }
                op => operands(op).into_iter().for_each(&mut note),
            }
        }
        match &block.terminator {
            Terminator::CondBr { cond, .. } => note(cond),
            Terminator::Switch { value, .. } => note(value),
            Terminator::Ret(Some(o)) => note(o),
            _ => {}
        }
    }
    used
}

/// Encodes one iteration of the innermost loop `lp` of `f`.
pub fn encode_loop_step(module: &Module, f: &Function, lp: &Loop, sem: IntSemantics, budget: &RegionBudget) -> Result<LoopStep, Unsupported> {
    if !lp.innermost {
        return Err(Unsupported("the loop contains an inner loop".into()));
    }
    let types = f.value_types();
    let width_of = |v: ValueId| -> Result<u32, Unsupported> {
        match types.get(v.0 as usize).cloned().flatten() {
            Some(Type::Int(w)) if (1..=64).contains(&w) => Ok(w),
            other => Err(Unsupported(format!("loop value {} of type {other:?}", f.value_name(v)))),
        }
    };
    let header = f.block(lp.header);
    let mut state = Vec::new();
    for instr in &header.instrs {
        if let (Op::Phi { .. }, Some(r)) = (&instr.op, instr.result) {
            state.push(LoopVar { value: r, name: var_name(f, r), width: width_of(r)? });
        }
    }
    let used = read_from_outside(f, lp);
    // Phis of exit targets may use loop values, but their outside operands are not live-ins.
    let mut live_ins = Vec::new();
    for v in used {
        live_ins.push(LoopVar { value: v, name: var_name(f, v), width: width_of(v)? });
    }
    let env: Env = state.iter().chain(&live_ins).map(|x| (x.value, x.term())).collect();
    let prefix = format!("in{}_", lp.header.0);
    let region = encode_region(module, f, lp.header, &env, &lp.blocks, sem, &prefix, budget)?;
    let mut stay_parts = Vec::new();
    let mut exit_parts = Vec::new();
    let mut post: BTreeMap<ValueId, BvTerm> = BTreeMap::new();
    for e in &region.edges {
        if e.to == RegionTarget::Block(lp.header) {
            stay_parts.push(e.cond.clone());
            for x in &state {
                let v = e.values.get(&x.value).cloned().ok_or_else(|| Unsupported(format!("no value for {} on a back edge", x.name)))?;
                let merged = match post.remove(&x.value) {
                    None => v,
                    Some(rest) => BvTerm::ite(e.cond.clone(), v, rest)?,
                };
                post.insert(x.value, merged);
            }
        } else {
            exit_parts.push(e.cond.clone());
        }
    }
    if stay_parts.is_empty() {
        return Err(Unsupported("no back edge reaches the header".into()));
    }
    Ok(LoopStep {
        header: lp.header,
        state,
        live_ins,
        stay: BvFormula::or(stay_parts),
        post,
        exit: BvFormula::or(exit_parts),
        ub: region.ub.clone(),
        inputs: region.inputs.clone(),
        region,
    })
}
