//! Translation of one LLVM function (definition or declaration) into an `ir::Function`:
//! dense value numbering, blocks, instructions, terminators and operands.

use super::constants::{const_int, ModuleMaps};
use super::ffi;
use super::layout::{self, Layout};
use crate::ir::externals::{classify, External, NoOp};
use crate::ir::*;
use inkwell::llvm_sys::core::*;
use inkwell::llvm_sys::prelude::*;
use inkwell::llvm_sys::{LLVMAtomicOrdering, LLVMIntPredicate, LLVMOpcode, LLVMTypeKind};
use std::collections::HashMap;

/// Calls that carry no meaning for the analysis and are dropped (debug info, lifetime markers).
fn is_dropped_call(callee_name: &str) -> bool {
    matches!(classify(callee_name), External::NoOp(NoOp::Dbg | NoOp::Lifetime))
}

/// Instructions the translation leaves out entirely (they produce no `Instr` and no value).
fn is_skipped(inst: LLVMValueRef) -> bool {
    // SAFETY: `inst` is a live instruction.
    unsafe {
        LLVMGetInstructionOpcode(inst) == LLVMOpcode::LLVMCall && {
            let callee = LLVMGetCalledValue(inst);
            !LLVMIsAFunction(callee).is_null() && is_dropped_call(&ffi::value_name(callee))
        }
    }
}

/// Poison-generating flags the IR has no field for (`trunc nuw/nsw`, `zext nneg`,
/// `icmp samesign`). clang -O0 and mem2reg never produce them; in optimised `.ll` input
/// they make the instruction `Unsupported`, because dropping them would hide poison (and so
/// undefined behaviour) from the analysis.
fn has_unrepresented_poison_flags(v: LLVMValueRef, code: LLVMOpcode) -> bool {
    // SAFETY: `v` is an instruction; each accessor is called only for the opcodes it supports.
    unsafe {
        match code {
            LLVMOpcode::LLVMTrunc => LLVMGetNUW(v) != 0 || LLVMGetNSW(v) != 0,
            LLVMOpcode::LLVMZExt => LLVMGetNNeg(v) != 0,
            LLVMOpcode::LLVMICmp => LLVMGetICmpSameSign(v) != 0,
            _ => false,
        }
    }
}

fn opcode(v: LLVMValueRef) -> LLVMOpcode {
    // SAFETY: `v` is a live instruction or constant expression.
    unsafe {
        if LLVMIsAInstruction(v).is_null() {
            LLVMGetConstOpcode(v)
        } else {
            LLVMGetInstructionOpcode(v)
        }
    }
}

fn operand_at(v: LLVMValueRef, i: u32) -> LLVMValueRef {
    // SAFETY: callers stay below `num_operands(v)`.
    unsafe { LLVMGetOperand(v, i) }
}

fn num_operands(v: LLVMValueRef) -> u32 {
    // SAFETY: `v` is a live user.
    unsafe { LLVMGetNumOperands(v).max(0) as u32 }
}

fn type_of(v: LLVMValueRef) -> LLVMTypeRef {
    // SAFETY: `v` is a live value.
    unsafe { LLVMTypeOf(v) }
}

fn instructions(block: LLVMBasicBlockRef) -> impl Iterator<Item = LLVMValueRef> {
    // SAFETY: iteration over a live block's instruction list, which is not modified meanwhile.
    let first = unsafe { LLVMGetFirstInstruction(block) };
    std::iter::successors((!first.is_null()).then_some(first), |&i| {
        let next = unsafe { LLVMGetNextInstruction(i) };
        (!next.is_null()).then_some(next)
    })
}

fn blocks_of(func: LLVMValueRef) -> Vec<LLVMBasicBlockRef> {
    let mut out = Vec::new();
    // SAFETY: iteration over a live function's block list.
    unsafe {
        let mut b = LLVMGetFirstBasicBlock(func);
        while !b.is_null() {
            out.push(b);
            b = LLVMGetNextBasicBlock(b);
        }
    }
    out
}

/// Translates one function of the module.
pub(super) fn translate_function(func: LLVMValueRef, maps: &ModuleMaps) -> Function {
    let layout = maps.layout;
    // SAFETY: `func` is a live function of the module.
    let (fn_ty, param_count, is_decl) = unsafe {
        (LLVMGlobalGetValueType(func), LLVMCountParams(func), LLVMIsDeclaration(func) != 0)
    };
    let mut cx = FunctionTranslator {
        maps,
        layout,
        values: HashMap::new(),
        blocks: HashMap::new(),
        names: Vec::new(),
        pending: Vec::new(),
        debug_names: HashMap::new(),
    };
    let mut params = Vec::new();
    for i in 0..param_count {
        // SAFETY: `i < param_count`.
        let p = unsafe { LLVMGetParam(func, i) };
        let id = cx.define(p);
        params.push((id, layout.ty(type_of(p))));
    }
    let llvm_blocks = if is_decl { Vec::new() } else { blocks_of(func) };
    cx.debug_names = super::debug_names::debug_variable_names(func, &llvm_blocks);
    for (i, &b) in llvm_blocks.iter().enumerate() {
        cx.blocks.insert(b, BlockId(i as u32));
    }
    for &b in &llvm_blocks {
        for inst in instructions(b) {
            if !is_skipped(inst) && !layout::is_void(type_of(inst)) {
                cx.define(inst);
            }
        }
    }
    let mut blocks: Vec<Block> = llvm_blocks.iter().enumerate().map(|(i, &b)| cx.block(b, i)).collect();
    for (b, instr) in std::mem::take(&mut cx.pending) {
        blocks[b.0 as usize].instrs.push(instr);
    }
    // SAFETY: `fn_ty` is a function type.
    let (ret, is_vararg) = unsafe { (layout.ty(LLVMGetReturnType(fn_ty)), LLVMIsFunctionVarArg(fn_ty) != 0) };
    let mut attrs: Vec<ParamAttrs> = (0..param_count).map(|i| param_attrs(func, i)).collect();
    if !is_decl {
        let types: Vec<Type> = params.iter().map(|(_, t)| t.clone()).collect();
        let sret: Vec<Option<u64>> = (0..param_count).map(|i| sret_size(func, i, &layout)).collect();
        for (a, r) in attrs.iter_mut().zip(super::rust_debuginfo::rust_params(func, &types, &sret)) {
            a.rust = r;
        }
    }
    Function {
        name: ffi::value_name(func),
        param_attrs: attrs,
        linkage: linkage(func),
        address_taken: super::uses::address_taken(func),
        params,
        ret,
        blocks,
        num_values: cx.names.len() as u32,
        value_names: cx.names,
        is_vararg,
        loc: if is_decl { None } else { ffi::debug_loc(func) },
    }
}

/// The linkage of a function.
fn linkage(func: LLVMValueRef) -> Linkage {
    use inkwell::llvm_sys::LLVMLinkage::*;
    // SAFETY: `func` is a live function of the module.
    match unsafe { LLVMGetLinkage(func) } {
        LLVMExternalLinkage | LLVMDLLImportLinkage | LLVMDLLExportLinkage => Linkage::External,
        LLVMInternalLinkage => Linkage::Internal,
        LLVMPrivateLinkage | LLVMLinkerPrivateLinkage | LLVMLinkerPrivateWeakLinkage => Linkage::Private,
        LLVMLinkOnceAnyLinkage => Linkage::LinkOnce { odr: false },
        LLVMLinkOnceODRLinkage | LLVMLinkOnceODRAutoHideLinkage => Linkage::LinkOnce { odr: true },
        LLVMWeakAnyLinkage => Linkage::Weak { odr: false },
        LLVMWeakODRLinkage => Linkage::Weak { odr: true },
        LLVMExternalWeakLinkage => Linkage::ExternalWeak,
        LLVMAvailableExternallyLinkage => Linkage::AvailableExternally,
        LLVMAppendingLinkage | LLVMGhostLinkage | LLVMCommonLinkage => Linkage::Other,
    }
}

/// The size of the type of parameter `i`'s `sret` attribute, if it has one.
fn sret_size(func: LLVMValueRef, i: u32, layout: &Layout) -> Option<u64> {
    let name = "sret";
    // SAFETY: `name` is valid for `len` bytes; `func` is a live function; `sret` is a type
    // attribute.
    unsafe {
        let kind = LLVMGetEnumAttributeKindForName(name.as_ptr() as *const _, name.len());
        let a = LLVMGetEnumAttributeAtIndex(func, i + 1, kind);
        if a.is_null() {
            return None;
        }
        let t = LLVMGetTypeAttributeValue(a);
        (!t.is_null()).then(|| layout.store_size(t))
    }
}

/// The attributes of parameter `i` of `func`.
fn param_attrs(func: LLVMValueRef, i: u32) -> ParamAttrs {
    // Attribute index 0 is the return value, parameters start at 1.
    let index = i + 1;
    let attr = |name: &str| {
        // SAFETY: `name` is valid for `len` bytes; `func` is a live function.
        unsafe {
            let kind = LLVMGetEnumAttributeKindForName(name.as_ptr() as *const _, name.len());
            let a = LLVMGetEnumAttributeAtIndex(func, index, kind);
            (!a.is_null()).then(|| LLVMGetEnumAttributeValue(a))
        }
    };
    ParamAttrs {
        nonnull: attr("nonnull").is_some(),
        noundef: attr("noundef").is_some(),
        dereferenceable: attr("dereferenceable"),
        dereferenceable_or_null: attr("dereferenceable_or_null"),
        align: attr("align"),
        readonly: attr("readonly").is_some(),
        noalias: attr("noalias").is_some(),
        rust: None,
    }
}

struct FunctionTranslator<'m> {
    maps: &'m ModuleMaps,
    layout: Layout,
    values: HashMap<LLVMValueRef, ValueId>,
    blocks: HashMap<LLVMBasicBlockRef, BlockId>,
    names: Vec<Option<String>>,
    /// Instructions materialising constant expressions used by phis, to be appended at the
    /// end of the predecessor block.
    pending: Vec<(BlockId, Instr)>,
    /// Source variable names from debug records (`debug_names`), preferred to LLVM names.
    debug_names: HashMap<LLVMValueRef, String>,
}

impl FunctionTranslator<'_> {
    /// Gives an LLVM value the next dense `ValueId`.
    fn define(&mut self, v: LLVMValueRef) -> ValueId {
        let name = self.debug_names.get(&v).cloned().or_else(|| ffi::readable_name(&ffi::value_name(v)));
        let id = self.fresh(name);
        self.values.insert(v, id);
        id
    }

    fn fresh(&mut self, name: Option<String>) -> ValueId {
        self.names.push(name);
        ValueId(self.names.len() as u32 - 1)
    }

    fn block_id(&self, b: LLVMBasicBlockRef) -> Option<BlockId> {
        self.blocks.get(&b).copied()
    }

    fn block(&mut self, b: LLVMBasicBlockRef, index: usize) -> Block {
        let name = match ffi::block_name(b) {
            n if n.is_empty() => format!("bb{index}"),
            n => n,
        };
        let mut instrs = Vec::new();
        let mut terminator = Terminator::Unsupported { text: "block without terminator".into() };
        let mut term_loc = None;
        let mut loop_loc = None;
        for inst in instructions(b) {
            if is_skipped(inst) {
                continue;
            }
            let loc = ffi::debug_loc(inst);
            // SAFETY: `inst` is a live instruction.
            if unsafe { !LLVMIsATerminatorInst(inst).is_null() } {
                if opcode(inst) == LLVMOpcode::LLVMInvoke {
                    // `invoke` = its call as the block's last instruction + `Terminator::Invoke`
                    let op = self.call(inst, &mut instrs, &loc);
                    let result = self.values.get(&inst).copied();
                    instrs.push(Instr { result, op, loc: loc.clone() });
                }
                terminator = self.terminator(inst, &mut instrs, &loc);
                term_loc = loc;
                loop_loc = super::loop_metadata::loop_start(inst);
                break;
            }
            let op = self.op(inst, &mut instrs, &loc);
            let result = self.values.get(&inst).copied();
            instrs.push(Instr { result, op, loc });
        }
        Block { name, instrs, terminator, term_loc, loop_loc }
    }

    /// The operand for an LLVM value; constant expressions are materialised as instructions
    /// appended to `out` (before the instruction that uses them).
    fn operand(&mut self, v: LLVMValueRef, out: &mut Vec<Instr>, loc: &Option<SrcLoc>) -> Operand {
        if let Some(&id) = self.values.get(&v) {
            return Operand::Local(id);
        }
        if let Some(op) = self.maps.constant_operand(v) {
            return op;
        }
        // SAFETY: `v` is a live value.
        if unsafe { !LLVMIsAConstantExpr(v).is_null() } {
            let op = self.op(v, out, loc);
            if let Op::Unsupported { .. } = op {
                return Operand::Unsupported(ffi::value_text(v));
            }
            let id = self.fresh(None);
            out.push(Instr { result: Some(id), op, loc: loc.clone() });
            return Operand::Local(id);
        }
        Operand::Unsupported(ffi::value_text(v))
    }

    fn operand_of(&mut self, v: LLVMValueRef, i: u32, out: &mut Vec<Instr>, loc: &Option<SrcLoc>) -> Operand {
        self.operand(operand_at(v, i), out, loc)
    }

    fn unsupported(v: LLVMValueRef) -> Op {
        Op::Unsupported { text: ffi::value_text(v) }
    }

    /// The operation of an instruction or constant expression `v`.
    fn op(&mut self, v: LLVMValueRef, out: &mut Vec<Instr>, loc: &Option<SrcLoc>) -> Op {
        // SAFETY: `v` is a live instruction or constant expression.
        let is_inst = unsafe { !LLVMIsAInstruction(v).is_null() };
        let code = opcode(v);
        if is_inst && has_unrepresented_poison_flags(v, code) {
            return match self.poison_check(v, code, out, loc) {
                Some(()) => self.op_without_flags(v, code, out, loc),
                None => Self::unsupported(v),
            };
        }
        self.op_without_flags(v, code, out, loc)
    }

    /// `trunc nuw`/`trunc nsw`/`zext nneg` are poison exactly when an equivalent flagged
    /// operation on the operand is: `trunc nuw x to iN` iff `shl nuw x, M−N` (the bits shifted
    /// out are those dropped), `trunc nsw` iff `shl nsw x, M−N` (they all equal the new sign
    /// bit), `zext nneg x` iff `add nuw x, 2^(M−1)` (x is negative). That operation is emitted
    /// before the flag-less cast (its result unused), so every consumer checks the poison
    /// condition with the rules it already has for `nuw`/`nsw`. `None`: no such encoding.
    fn poison_check(&mut self, v: LLVMValueRef, code: LLVMOpcode, out: &mut Vec<Instr>, loc: &Option<SrcLoc>) -> Option<()> {
        // SAFETY: `v` is a cast instruction of the opcode given.
        let from = type_of(operand_at(v, 0));
        if !layout::is_int(from) || !layout::is_int(type_of(v)) {
            return None;
        }
        let (m, n) = (layout::int_width(from), layout::int_width(type_of(v)));
        let value = self.operand_of(v, 0, out, loc);
        let (op, flags, rhs) = match code {
            LLVMOpcode::LLVMTrunc if n < m => {
                let (nuw, nsw) = unsafe { (LLVMGetNUW(v) != 0, LLVMGetNSW(v) != 0) };
                (BinOp::Shl, ArithFlags { nuw, nsw, ..ArithFlags::default() }, (m - n) as i128)
            }
            LLVMOpcode::LLVMZExt if m > 1 && m < 128 => (BinOp::Add, ArithFlags { nuw: true, ..ArithFlags::default() }, 1i128 << (m - 1)),
            _ => return None,
        };
        // `Operand::Int` holds its value sign-extended from its width
        let rhs = Operand::Int { bits: m, value: if rhs >= 1i128 << (m - 1) { rhs - (1i128 << m) } else { rhs } };
        let id = self.fresh(None);
        out.push(Instr { result: Some(id), op: Op::Bin { op, flags, bits: m, lhs: value, rhs }, loc: loc.clone() });
        Some(())
    }

    /// The operation of `v`, ignoring poison flags the IR has no field for.
    fn op_without_flags(&mut self, v: LLVMValueRef, code: LLVMOpcode, out: &mut Vec<Instr>, loc: &Option<SrcLoc>) -> Op {
        use LLVMOpcode::*;
        // SAFETY (whole function): `v` is a live instruction or constant expression and every
        // accessor below is only called for the opcodes it is defined for.
        let is_inst = unsafe { !LLVMIsAInstruction(v).is_null() };
        let layout = self.layout;
        match code {
            LLVMAlloca => {
                let elem_size = layout.alloc_size(unsafe { LLVMGetAllocatedType(v) });
                let count_ty = type_of(operand_at(v, 0));
                let Some(count_bits) = layout.scalar_bits(count_ty) else { return Self::unsupported(v) };
                Op::Alloca { elem_size, count: self.operand_of(v, 0, out, loc), count_bits }
            }
            LLVMLoad => {
                let atomic = unsafe { LLVMGetOrdering(v) } != LLVMAtomicOrdering::LLVMAtomicOrderingNotAtomic;
                // A volatile load may observe changes the program does not make: not modelled.
                if atomic || unsafe { LLVMGetVolatile(v) } != 0 {
                    return Self::unsupported(v);
                }
                let t = type_of(v);
                Op::Load { ty: layout.ty(t), ptr: self.operand_of(v, 0, out, loc), size: layout.store_size(t) }
            }
            LLVMStore => {
                if unsafe { LLVMGetOrdering(v) } != LLVMAtomicOrdering::LLVMAtomicOrderingNotAtomic {
                    return Self::unsupported(v);
                }
                let t = type_of(operand_at(v, 0));
                let value = self.operand_of(v, 0, out, loc);
                let ptr = self.operand_of(v, 1, out, loc);
                Op::Store { ty: layout.ty(t), value, ptr, size: layout.store_size(t) }
            }
            LLVMGetElementPtr => self.gep(v, out, loc),
            LLVMAdd | LLVMSub | LLVMMul | LLVMUDiv | LLVMSDiv | LLVMURem | LLVMSRem | LLVMShl | LLVMLShr
            | LLVMAShr | LLVMAnd | LLVMOr | LLVMXor => {
                let t = type_of(v);
                if !layout::is_int(t) {
                    return Self::unsupported(v);
                }
                let op = match code {
                    LLVMAdd => BinOp::Add,
                    LLVMSub => BinOp::Sub,
                    LLVMMul => BinOp::Mul,
                    LLVMUDiv => BinOp::UDiv,
                    LLVMSDiv => BinOp::SDiv,
                    LLVMURem => BinOp::URem,
                    LLVMSRem => BinOp::SRem,
                    LLVMShl => BinOp::Shl,
                    LLVMLShr => BinOp::LShr,
                    LLVMAShr => BinOp::AShr,
                    LLVMAnd => BinOp::And,
                    LLVMOr => BinOp::Or,
                    _ => BinOp::Xor,
                };
                let mut flags = ArithFlags::default();
                if is_inst {
                    unsafe {
                        match op {
                            BinOp::Add | BinOp::Sub | BinOp::Mul | BinOp::Shl => {
                                flags.nsw = LLVMGetNSW(v) != 0;
                                flags.nuw = LLVMGetNUW(v) != 0;
                            }
                            BinOp::UDiv | BinOp::SDiv | BinOp::LShr | BinOp::AShr => flags.exact = LLVMGetExact(v) != 0,
                            BinOp::Or => flags.disjoint = LLVMGetIsDisjoint(v) != 0,
                            _ => {}
                        }
                    }
                }
                let lhs = self.operand_of(v, 0, out, loc);
                let rhs = self.operand_of(v, 1, out, loc);
                Op::Bin { op, flags, bits: layout::int_width(t), lhs, rhs }
            }
            LLVMICmp => {
                let Some(bits) = layout.scalar_bits(type_of(operand_at(v, 0))) else { return Self::unsupported(v) };
                let pred = match unsafe { LLVMGetICmpPredicate(v) } {
                    LLVMIntPredicate::LLVMIntEQ => IntPred::Eq,
                    LLVMIntPredicate::LLVMIntNE => IntPred::Ne,
                    LLVMIntPredicate::LLVMIntUGT => IntPred::Ugt,
                    LLVMIntPredicate::LLVMIntUGE => IntPred::Uge,
                    LLVMIntPredicate::LLVMIntULT => IntPred::Ult,
                    LLVMIntPredicate::LLVMIntULE => IntPred::Ule,
                    LLVMIntPredicate::LLVMIntSGT => IntPred::Sgt,
                    LLVMIntPredicate::LLVMIntSGE => IntPred::Sge,
                    LLVMIntPredicate::LLVMIntSLT => IntPred::Slt,
                    LLVMIntPredicate::LLVMIntSLE => IntPred::Sle,
                };
                let lhs = self.operand_of(v, 0, out, loc);
                let rhs = self.operand_of(v, 1, out, loc);
                Op::ICmp { pred, bits, lhs, rhs }
            }
            LLVMTrunc | LLVMZExt | LLVMSExt | LLVMPtrToInt | LLVMIntToPtr | LLVMBitCast | LLVMAddrSpaceCast => {
                let (from, to) = (type_of(operand_at(v, 0)), type_of(v));
                let shape_ok = match code {
                    LLVMTrunc | LLVMZExt | LLVMSExt => layout::is_int(from) && layout::is_int(to),
                    LLVMPtrToInt => layout::is_ptr(from) && layout::is_int(to),
                    LLVMIntToPtr => layout::is_int(from) && layout::is_ptr(to),
                    LLVMAddrSpaceCast => layout::is_ptr(from) && layout::is_ptr(to),
                    // int<->float and vector bitcasts reinterpret bits the analysis does not track.
                    _ => (layout::is_int(from) && layout::is_int(to)) || (layout::is_ptr(from) && layout::is_ptr(to)),
                };
                let (Some(from_bits), Some(to_bits)) = (layout.scalar_bits(from), layout.scalar_bits(to)) else {
                    return Self::unsupported(v);
                };
                if !shape_ok {
                    return Self::unsupported(v);
                }
                let op = match code {
                    LLVMTrunc => CastOp::Trunc,
                    LLVMZExt => CastOp::ZExt,
                    LLVMSExt => CastOp::SExt,
                    LLVMPtrToInt => CastOp::PtrToInt,
                    LLVMIntToPtr => CastOp::IntToPtr,
                    _ => CastOp::BitCast,
                };
                Op::Cast { op, from_bits, to_bits, value: self.operand_of(v, 0, out, loc) }
            }
            LLVMSelect => {
                if layout::kind(type_of(operand_at(v, 0))) != LLVMTypeKind::LLVMIntegerTypeKind {
                    return Self::unsupported(v);
                }
                let cond = self.operand_of(v, 0, out, loc);
                let then_value = self.operand_of(v, 1, out, loc);
                let else_value = self.operand_of(v, 2, out, loc);
                Op::Select { cond, then_value, else_value, ty: layout.ty(type_of(v)) }
            }
            LLVMPHI if is_inst => self.phi(v, loc),
            // catch and filter clauses (`catch_unwind`) decide by the exception's type whether
            // control goes on here: not modelled; cleanup-only pads run for every exception
            LLVMLandingPad if is_inst && unsafe { LLVMGetNumClauses(v) } == 0 => Op::LandingPad { ty: layout.ty(type_of(v)) },
            LLVMFreeze => Op::Freeze { ty: layout.ty(type_of(v)), value: self.operand_of(v, 0, out, loc) },
            LLVMCall if is_inst => self.call(v, out, loc),
            LLVMExtractValue | LLVMInsertValue if is_inst => {
                // SAFETY: extractvalue/insertvalue carry `LLVMGetNumIndices` constant indices.
                let indices = unsafe {
                    let n = LLVMGetNumIndices(v) as usize;
                    let ptr = LLVMGetIndices(v);
                    if ptr.is_null() { Vec::new() } else { std::slice::from_raw_parts(ptr, n).to_vec() }
                };
                let agg = self.operand_of(v, 0, out, loc);
                let ty = layout.ty(type_of(v));
                if code == LLVMExtractValue {
                    Op::ExtractValue { agg, indices, ty }
                } else {
                    let value = self.operand_of(v, 1, out, loc);
                    Op::InsertValue { agg, value, indices, ty }
                }
            }
            _ => Self::unsupported(v),
        }
    }

    /// Lowers a getelementptr to `PtrAdd` using the DataLayout.
    fn gep(&mut self, v: LLVMValueRef, out: &mut Vec<Instr>, loc: &Option<SrcLoc>) -> Op {
        let layout = self.layout;
        // SAFETY: `v` is a GEP instruction or GEP constant expression.
        let (source_ty, inbounds) = unsafe { (LLVMGetGEPSourceElementType(v), LLVMIsInBounds(v) != 0) };
        if !layout::is_ptr(type_of(v)) {
            return Self::unsupported(v); // vector GEP
        }
        let base = self.operand_of(v, 0, out, loc);
        let mut offset: i128 = 0;
        let mut indices = Vec::new();
        let mut current = source_ty;
        for i in 1..num_operands(v) {
            let index = operand_at(v, i);
            let scale = if i == 1 {
                layout.alloc_size(source_ty)
            } else {
                match layout::kind(current) {
                    LLVMTypeKind::LLVMStructTypeKind => {
                        let Some((_, field)) = const_int(index) else { return Self::unsupported(v) };
                        if field < 0 || field >= layout::struct_len(current) as i128 {
                            return Self::unsupported(v);
                        }
                        offset = offset.wrapping_add(layout.field_offset(current, field as u32) as i128);
                        current = layout::struct_field(current, field as u32);
                        continue;
                    }
                    LLVMTypeKind::LLVMArrayTypeKind | LLVMTypeKind::LLVMVectorTypeKind => {
                        current = layout::element_type(current);
                        layout.alloc_size(current)
                    }
                    _ => return Self::unsupported(v),
                }
            } as i128;
            if let Some((_, value)) = const_int(index) {
                offset = offset.wrapping_add(value.wrapping_mul(scale));
            } else {
                let index_ty = type_of(index);
                if !layout::is_int(index_ty) {
                    return Self::unsupported(v);
                }
                let value = self.operand(index, out, loc);
                indices.push(GepIndex { value, bits: layout::int_width(index_ty), scale });
            }
        }
        Op::PtrAdd { base, offset, indices, inbounds }
    }

    fn phi(&mut self, v: LLVMValueRef, loc: &Option<SrcLoc>) -> Op {
        // SAFETY: `v` is a phi instruction.
        let count = unsafe { LLVMCountIncoming(v) };
        let mut incoming = Vec::new();
        for i in 0..count {
            let (value, block) = unsafe { (LLVMGetIncomingValue(v, i), LLVMGetIncomingBlock(v, i)) };
            let Some(pred) = self.block_id(block) else { return Self::unsupported(v) };
            let mut materialised = Vec::new();
            let operand = self.operand(value, &mut materialised, loc);
            self.pending.extend(materialised.into_iter().map(|instr| (pred, instr)));
            incoming.push((operand, pred));
        }
        Op::Phi { ty: self.layout.ty(type_of(v)), incoming }
    }

    fn call(&mut self, v: LLVMValueRef, out: &mut Vec<Instr>, loc: &Option<SrcLoc>) -> Op {
        // SAFETY: `v` is a call instruction.
        let (called, fn_ty, nargs) =
            unsafe { (LLVMGetCalledValue(v), LLVMGetCalledFunctionType(v), LLVMGetNumArgOperands(v)) };
        let callee = if unsafe { !LLVMIsAInlineAsm(called).is_null() } {
            Callee::Unsupported(ffi::value_text(called))
        } else {
            match self.operand(called, out, loc) {
                Operand::Function(f) => Callee::Direct(f),
                Operand::Unsupported(text) => Callee::Unsupported(text),
                other => Callee::Indirect(other),
            }
        };
        let args = (0..nargs).map(|i| self.operand_of(v, i, out, loc)).collect();
        // SAFETY: `fn_ty` is a function type.
        let ret = self.layout.ty(unsafe { LLVMGetReturnType(fn_ty) });
        Op::Call { callee, args, ret }
    }

    fn successor(&self, term: LLVMValueRef, i: u32) -> Option<BlockId> {
        // SAFETY: callers stay below the terminator's successor count.
        self.block_id(unsafe { LLVMGetSuccessor(term, i) })
    }

    fn terminator(&mut self, term: LLVMValueRef, out: &mut Vec<Instr>, loc: &Option<SrcLoc>) -> Terminator {
        let unsupported = || Terminator::Unsupported { text: ffi::value_text(term) };
        // SAFETY (whole function): `term` is a terminator; accessors match its opcode.
        match opcode(term) {
            LLVMOpcode::LLVMBr => {
                if unsafe { LLVMIsConditional(term) } != 0 {
                    let cond = self.operand(unsafe { LLVMGetCondition(term) }, out, loc);
                    match (self.successor(term, 0), self.successor(term, 1)) {
                        (Some(then_block), Some(else_block)) => Terminator::CondBr { cond, then_block, else_block },
                        _ => unsupported(),
                    }
                } else {
                    self.successor(term, 0).map(Terminator::Br).unwrap_or_else(unsupported)
                }
            }
            LLVMOpcode::LLVMSwitch => {
                let cond = operand_at(term, 0);
                let Some(bits) = layout::is_int(type_of(cond)).then(|| layout::int_width(type_of(cond))) else {
                    return unsupported();
                };
                let value = self.operand(cond, out, loc);
                let Some(default) = self.successor(term, 0) else { return unsupported() };
                let successors = unsafe { LLVMGetNumSuccessors(term) };
                let mut cases = Vec::new();
                for i in 1..successors {
                    // Case `i` of LLVMGetSwitchCaseValue pairs with successor `i` (0 = default).
                    let case_value = unsafe { LLVMGetSwitchCaseValue(term, i) };
                    match (const_int(case_value), self.successor(term, i)) {
                        (Some((_, c)), Some(target)) => cases.push((c, target)),
                        _ => return unsupported(),
                    }
                }
                Terminator::Switch { value, bits, default, cases }
            }
            LLVMOpcode::LLVMRet => {
                if num_operands(term) == 0 {
                    Terminator::Ret(None)
                } else {
                    Terminator::Ret(Some(self.operand_of(term, 0, out, loc)))
                }
            }
            LLVMOpcode::LLVMUnreachable => Terminator::Unreachable,
            // the call itself was emitted as the block's last instruction (see `block`)
            LLVMOpcode::LLVMInvoke => {
                let (normal, unwind) = unsafe { (LLVMGetNormalDest(term), LLVMGetUnwindDest(term)) };
                match (self.block_id(normal), self.block_id(unwind)) {
                    (Some(normal), Some(unwind)) => Terminator::Invoke { normal, unwind },
                    _ => unsupported(),
                }
            }
            LLVMOpcode::LLVMResume => Terminator::Resume(self.operand_of(term, 0, out, loc)),
            _ => unsupported(),
        }
    }
}
