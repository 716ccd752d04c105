//! A small builder for hand-written IR modules in tests.

use crate::interp::{run, Outcome, RunConfig, RunResult, SequenceInputs};
use crate::ir::*;
use crate::verdict::IntSemantics;

/// Builds one function.
pub struct FnBuilder {
    pub func: Function,
}

impl FnBuilder {
    pub fn new(name: &str, params: &[Type], ret: Type) -> FnBuilder {
        let params: Vec<(ValueId, Type)> = params.iter().enumerate().map(|(i, t)| (ValueId(i as u32), t.clone())).collect();
        let n = params.len() as u32;
        FnBuilder {
            func: Function {
                name: name.into(),
                params,
                ret,
                blocks: vec![],
                num_values: n,
                value_names: vec![None; n as usize],
                is_vararg: false, param_attrs: vec![], linkage: Linkage::External, address_taken: false,
                loc: None,
            },
        }
    }

    pub fn param(&self, i: u32) -> Operand {
        Operand::Local(ValueId(i))
    }

    pub fn block(&mut self, name: &str) -> BlockId {
        self.func.blocks.push(Block { name: name.into(), instrs: vec![], terminator: Terminator::Unreachable, term_loc: None, loop_loc: None });
        BlockId(self.func.blocks.len() as u32 - 1)
    }

    /// Appends an instruction with a result.
    pub fn push(&mut self, b: BlockId, op: Op) -> Operand {
        let v = ValueId(self.func.num_values);
        self.func.num_values += 1;
        self.func.value_names.push(None);
        self.func.blocks[b.0 as usize].instrs.push(Instr { result: Some(v), op, loc: None });
        Operand::Local(v)
    }

    /// Appends an instruction without a result.
    pub fn push_void(&mut self, b: BlockId, op: Op) {
        self.func.blocks[b.0 as usize].instrs.push(Instr { result: None, op, loc: None });
    }

    /// Reserves a value id for a phi whose incoming values refer to later values.
    pub fn phi(&mut self, b: BlockId, ty: Type, incoming: Vec<(Operand, BlockId)>) -> Operand {
        self.push(b, Op::Phi { ty, incoming })
    }

    /// Replaces the incoming list of the phi defining `phi`.
    pub fn set_phi(&mut self, b: BlockId, phi: &Operand, incoming: Vec<(Operand, BlockId)>) {
        for i in &mut self.func.blocks[b.0 as usize].instrs {
            if Operand::Local(i.result.unwrap_or(ValueId(u32::MAX))) == *phi {
                if let Op::Phi { incoming: inc, .. } = &mut i.op {
                    *inc = incoming.clone();
                }
            }
        }
    }

    pub fn term(&mut self, b: BlockId, t: Terminator) {
        self.func.blocks[b.0 as usize].terminator = t;
    }

    pub fn finish(self) -> Function {
        self.func
    }
}

pub fn decl(name: &str, params: &[Type], ret: Type) -> Function {
    FnBuilder::new(name, params, ret).finish()
}

pub fn module(functions: Vec<Function>) -> Module {
    Module { source_name: "test".into(), pointer_bits: 64, functions, globals: vec![], annotations: Default::default(), malformed_annotations: vec![] }
}

pub fn c(bits: u32, v: i128) -> Operand {
    Operand::Int { bits, value: v }
}

pub fn i32t() -> Type {
    Type::Int(32)
}

pub fn bin(op: BinOp, bits: u32, lhs: Operand, rhs: Operand) -> Op {
    Op::Bin { op, flags: ArithFlags::default(), bits, lhs, rhs }
}

pub fn nsw(op: BinOp, bits: u32, lhs: Operand, rhs: Operand) -> Op {
    Op::Bin { op, flags: ArithFlags { nsw: true, ..Default::default() }, bits, lhs, rhs }
}

pub fn icmp(pred: IntPred, bits: u32, lhs: Operand, rhs: Operand) -> Op {
    Op::ICmp { pred, bits, lhs, rhs }
}

pub fn call(m_index: u32, args: Vec<Operand>, ret: Type) -> Op {
    Op::Call { callee: Callee::Direct(FuncId(m_index)), args, ret }
}

/// Runs function 0 of `m` with the given inputs (stop when exhausted) and semantics.
pub fn run_with(m: &Module, sem: IntSemantics, args: &[i128], inputs: Vec<i128>) -> RunResult {
    let cfg = RunConfig::new(sem, super::run_limits(), 10_000);
    run(m, &crate::facts::ModuleFacts::new(m), FuncId(0), args, &cfg, &mut SequenceInputs::new(inputs, None))
}

pub fn violation_kind(o: &Outcome) -> Option<&str> {
    match o {
        Outcome::Violation { kind, .. } => Some(kind.as_str()),
        _ => None,
    }
}
