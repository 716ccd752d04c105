//! The engine's own intermediate representation: an owned, `Send + Sync` image of the LLVM
//! module, with sizes and offsets already resolved from the DataLayout by the front end.
//!
//! Invariants (established by `frontend`, relied on by `symexec` and `interp`):
//! - every local value is defined exactly once (SSA) and has a dense `ValueId` per function;
//! - `getelementptr` is lowered to `Op::PtrAdd` with byte offsets (constant part plus
//!   scaled index operands), so no consumer needs the DataLayout;
//! - memory accesses carry their access size in bytes and the integer width of the value;
//! - anything the front end cannot translate becomes `Op::Unsupported` / `Terminator::Unsupported`
//!   with the LLVM text, which the analysis turns into MAYBE (never silently skipped).

pub mod annotation;
pub mod callgraph;
pub mod externals;
pub mod fingerprint;
pub mod global_reach;
pub mod format_string;
pub mod rust_names;
pub mod rust_trusted;

use serde::{Deserialize, Serialize};

/// Index of a function in `Module::functions`.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug, Serialize, Deserialize)]
pub struct FuncId(pub u32);
/// Index of a block in `Function::blocks`; block 0 is the entry.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug, Serialize, Deserialize)]
pub struct BlockId(pub u32);
/// A local SSA value (parameter or instruction result), dense per function.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug, Serialize, Deserialize)]
pub struct ValueId(pub u32);
/// Index of a global variable in `Module::globals`.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug, Serialize, Deserialize)]
pub struct GlobalId(pub u32);

/// Types as far as the analysis needs them.
#[derive(Clone, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
pub enum Type {
    /// Integer of the given bit width (i1, i8, i32, i64, ...).
    Int(u32),
    /// An (opaque) pointer; its width is `Module::pointer_bits`.
    Ptr,
    /// Floating point and vectors: values are not tracked.
    Float(u32),
    Void,
    /// Aggregates (only as allocation/global types; sizes in bytes).
    Aggregate { size: u64 },
    /// Anything else, with its LLVM spelling.
    Other(String),
}

impl Type {
    pub fn int_bits(&self) -> Option<u32> {
        match self {
            Type::Int(b) => Some(*b),
            _ => None,
        }
    }
}

/// Source position from debug info.
#[derive(Clone, PartialEq, Eq, Hash, Debug, Default, Serialize, Deserialize)]
pub struct SrcLoc {
    pub file: String,
    pub line: u32,
    pub col: u32,
}

/// An instruction operand.
#[derive(Clone, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
pub enum Operand {
    Local(ValueId),
    /// Integer constant, stored sign-extended from `bits` into i128.
    Int { bits: u32, value: i128 },
    NullPtr,
    Global(GlobalId),
    /// Address of a function (function pointers).
    Function(FuncId),
    /// `undef` of the type: an arbitrary value on every use.
    Undef(Type),
    /// `poison`: using it in a side-effecting way is undefined behaviour.
    Poison(Type),
    /// A constant expression or other constant the front end did not lower.
    Unsupported(String),
}

/// Integer binary operations, with LLVM's poison flags.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
pub enum BinOp {
    Add,
    Sub,
    Mul,
    UDiv,
    SDiv,
    URem,
    SRem,
    Shl,
    LShr,
    AShr,
    And,
    Or,
    Xor,
}

/// Flags on arithmetic that make overflow poison (`nsw`, `nuw`) or inexact division poison.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default, Serialize, Deserialize)]
pub struct ArithFlags {
    pub nsw: bool,
    pub nuw: bool,
    pub exact: bool,
    /// `or disjoint`
    pub disjoint: bool,
}

/// Integer comparison predicates.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
pub enum IntPred {
    Eq,
    Ne,
    Ugt,
    Uge,
    Ult,
    Ule,
    Sgt,
    Sge,
    Slt,
    Sle,
}

/// Integer and pointer casts.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
pub enum CastOp {
    Trunc,
    ZExt,
    SExt,
    PtrToInt,
    IntToPtr,
    /// Pointer-to-pointer and same-width casts: value unchanged.
    BitCast,
}

/// The callee of a call.
#[derive(Clone, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
pub enum Callee {
    /// A function of the module (defined or declared).
    Direct(FuncId),
    /// A call through a pointer.
    Indirect(Operand),
    /// Inline assembly or anything else.
    Unsupported(String),
}

/// The operation of an instruction.
#[derive(Clone, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
pub enum Op {
    /// `alloca`: `elem_size * count` bytes of stack memory.
    Alloca { elem_size: u64, count: Operand, count_bits: u32 },
    /// Load `size` bytes as a value of type `ty`.
    Load { ty: Type, ptr: Operand, size: u64 },
    /// Store `value` (of type `ty`, `size` bytes).
    Store { ty: Type, value: Operand, ptr: Operand, size: u64 },
    /// Lowered getelementptr: `base + offset + Σ scale·index` (bytes; indices sign-extended
    /// from their width `bits`). `inbounds` is kept for bit-precise reasoning.
    PtrAdd { base: Operand, offset: i128, indices: Vec<GepIndex>, inbounds: bool },
    Bin { op: BinOp, flags: ArithFlags, bits: u32, lhs: Operand, rhs: Operand },
    ICmp { pred: IntPred, bits: u32, lhs: Operand, rhs: Operand },
    /// Casts; `from_bits`/`to_bits` are widths (pointer width for pointers).
    Cast { op: CastOp, from_bits: u32, to_bits: u32, value: Operand },
    Select { cond: Operand, then_value: Operand, else_value: Operand, ty: Type },
    /// Phi: one incoming value per predecessor block.
    Phi { ty: Type, incoming: Vec<(Operand, BlockId)> },
    /// A call; intrinsics and library functions are recognised by the callee's name.
    Call { callee: Callee, args: Vec<Operand>, ret: Type },
    /// `freeze`: an arbitrary but fixed value if the operand is undef/poison.
    Freeze { ty: Type, value: Operand },
    /// `extractvalue`: the field at `indices` (nested field/element numbers) of an aggregate
    /// value, e.g. the result or overflow bit of `llvm.sadd.with.overflow.i32`; `ty` is the
    /// type of the extracted field.
    ExtractValue { agg: Operand, indices: Vec<u32>, ty: Type },
    /// `insertvalue`: the aggregate `agg` (of type `ty`) with the field at `indices` replaced.
    InsertValue { agg: Operand, value: Operand, indices: Vec<u32>, ty: Type },
    /// `landingpad` (first instruction of an `invoke`'s unwind destination): the exception
    /// being propagated, an aggregate (`{ptr, i32}` for rustc) with arbitrary contents. Its
    /// clauses are not kept: whatever they select, the code after it branches on the
    /// (arbitrary) selector, which over-approximates every clause.
    LandingPad { ty: Type },
    /// Instructions the analysis cannot model (floating point arithmetic, vectors, atomics...).
    Unsupported { text: String },
}

/// One scaled index of a lowered getelementptr.
#[derive(Clone, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
pub struct GepIndex {
    pub value: Operand,
    pub bits: u32,
    pub scale: i128,
}

/// An instruction, with the local it defines (if any) and its source location.
#[derive(Clone, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
pub struct Instr {
    pub result: Option<ValueId>,
    pub op: Op,
    pub loc: Option<SrcLoc>,
}

/// Block terminators.
#[derive(Clone, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
pub enum Terminator {
    Br(BlockId),
    CondBr { cond: Operand, then_block: BlockId, else_block: BlockId },
    Switch { value: Operand, bits: u32, default: BlockId, cases: Vec<(i128, BlockId)> },
    Ret(Option<Operand>),
    Unreachable,
    /// The end of a block whose last instruction is the call of an `invoke`: control goes to
    /// `normal` when that call returns, to `unwind` (which starts with a `LandingPad`) when
    /// it unwinds (a panic, or a `Resume` in the callee).
    Invoke { normal: BlockId, unwind: BlockId },
    /// `resume`: continues unwinding the exception `value` out of this function.
    Resume(Operand),
    Unsupported { text: String },
}

impl Terminator {
    /// The blocks control may go to next.
    pub fn successors(&self) -> Vec<BlockId> {
        match self {
            Terminator::Br(b) => vec![*b],
            Terminator::CondBr { then_block, else_block, .. } => vec![*then_block, *else_block],
            Terminator::Switch { default, cases, .. } => {
                let mut v = vec![*default];
                v.extend(cases.iter().map(|(_, b)| *b));
                v
            }
            Terminator::Invoke { normal, unwind } => vec![*normal, *unwind],
            Terminator::Ret(_) | Terminator::Resume(_) | Terminator::Unreachable | Terminator::Unsupported { .. } => vec![],
        }
    }
}

/// A basic block.
#[derive(Clone, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
pub struct Block {
    pub name: String,
    pub instrs: Vec<Instr>,
    pub terminator: Terminator,
    pub term_loc: Option<SrcLoc>,
    /// When the terminator is a loop's back edge: the loop statement's source location
    /// (clang's `llvm.loop` start location, `frontend::loop_metadata`).
    #[serde(default)]
    pub loop_loc: Option<SrcLoc>,
}

/// LLVM linkage of a function: whether code outside the module may call it or replace it.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default, Serialize, Deserialize)]
pub enum Linkage {
    /// Visible to and callable from other modules (also every declaration).
    #[default]
    External,
    /// `internal` (C `static`): only this module calls it.
    Internal,
    /// `private`: like internal, not even in the symbol table.
    Private,
    /// `linkonce`/`linkonce_odr` (inline functions, templates): may be dropped or replaced
    /// by an equivalent (`odr`) or arbitrary definition elsewhere.
    LinkOnce { odr: bool },
    /// `weak`/`weak_odr`: may be replaced by a strong definition elsewhere.
    Weak { odr: bool },
    /// `extern_weak` declarations.
    ExternalWeak,
    /// `available_externally`: a copy of a definition that lives elsewhere.
    AvailableExternally,
    /// Any other (common, appending, …).
    Other,
}

/// What LLVM's parameter attributes promise about one parameter (a call violating them is
/// undefined behaviour or makes the parameter poison).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default, Serialize, Deserialize)]
pub struct ParamAttrs {
    pub nonnull: bool,
    pub noundef: bool,
    /// `dereferenceable(N)`: N bytes readable at the pointer.
    pub dereferenceable: Option<u64>,
    /// `dereferenceable_or_null(N)`.
    pub dereferenceable_or_null: Option<u64>,
    /// `align(N)` in bytes.
    pub align: Option<u64>,
    pub readonly: bool,
    pub noalias: bool,
    /// What rustc's debug info says the parameter is in the Rust source, for pointer
    /// parameters that are references (`frontend::rust_debuginfo`); `None` for every other
    /// parameter and for C.
    #[serde(default)]
    pub rust: Option<RustParam>,
}

/// A pointer parameter that is a Rust reference, by its source type (rustc's debug info).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
pub enum RustParam {
    /// `&T` (`mutable: false`) or `&mut T` to a `T` of `size` bytes; `freeze`: `T` is a
    /// primitive type (no `UnsafeCell` inside, so memory behind a `&T` is immutable).
    Ref { mutable: bool, size: u64, freeze: bool },
    /// The data pointer of `&[T]`/`&str` (`&mut [T]`, `&mut str`), whose length (in elements
    /// of `elem_size` bytes) is the parameter at index `len_param`; `freeze` as for `Ref`.
    Slice { mutable: bool, elem_size: u64, len_param: u32, freeze: bool },
    /// `&Vec<T>` (`mutable: false`) or `&mut Vec<T>` (std's `alloc::vec::Vec`, `T` a
    /// primitive of `elem_size` bytes, aligned to its size): `size` bytes at the pointer
    /// (read-only behind `&`), holding the buffer pointer at `ptr_offset`, the capacity at
    /// `cap_offset` and the length at `len_offset` (offsets from debug info); the buffer
    /// covers `cap · elem_size` bytes and `len ≤ cap`.
    VecRef { mutable: bool, size: u64, elem_size: u64, ptr_offset: u64, cap_offset: u64, len_offset: u64 },
}

/// A function; declarations have no blocks.
#[derive(Clone, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
pub struct Function {
    pub name: String,
    pub params: Vec<(ValueId, Type)>,
    /// Attributes of each parameter, in `params` order (empty when unknown, e.g. built IR).
    #[serde(default)]
    pub param_attrs: Vec<ParamAttrs>,
    #[serde(default)]
    pub linkage: Linkage,
    /// Whether the function is used other than as the callee of a direct call (function
    /// pointers, global initializers such as vtables or `llvm.global_ctors`): then code the
    /// analysis does not see may call it.
    #[serde(default)]
    pub address_taken: bool,
    pub ret: Type,
    pub blocks: Vec<Block>,
    /// Number of local values (params + results): `ValueId`s are `0..num_values`.
    pub num_values: u32,
    /// Source-level names of locals where debug info or LLVM names give one.
    pub value_names: Vec<Option<String>>,
    pub is_vararg: bool,
    pub loc: Option<SrcLoc>,
}

impl Function {
    pub fn is_declaration(&self) -> bool {
        self.blocks.is_empty()
    }
    /// Whether code outside the analysed module may call this function: any linkage but
    /// `internal`/`private`, or an address that escapes ([`Function::address_taken`]).
    pub fn callable_from_outside(&self) -> bool {
        !matches!(self.linkage, Linkage::Internal | Linkage::Private) || self.address_taken
    }
    /// The source location of the loop statement whose blocks are `blocks` and whose header is
    /// `header`: the `llvm.loop` location of a latch (a block of the loop that jumps to the
    /// header), else the first located instruction of the header (LLVM input without it).
    pub fn loop_statement(&self, header: BlockId, blocks: impl IntoIterator<Item = BlockId>) -> Option<&SrcLoc> {
        let latch = blocks.into_iter().filter_map(|b| self.blocks.get(b.0 as usize)).filter(|b| b.terminator.successors().contains(&header)).find_map(|b| b.loop_loc.as_ref());
        latch.or_else(|| {
            let h = self.blocks.get(header.0 as usize)?;
            h.instrs.iter().filter_map(|i| i.loc.as_ref()).chain(h.term_loc.as_ref()).find(|l| l.line > 0)
        })
    }

    pub fn block(&self, b: BlockId) -> &Block {
        &self.blocks[b.0 as usize]
    }
    /// The type of every local value, indexed by `ValueId` (parameters from `params`, results
    /// from their defining instruction); `None` where the definition does not say (e.g. an
    /// `Unsupported` instruction). Computed on demand: call once per analysis, not per use.
    pub fn value_types(&self) -> Vec<Option<Type>> {
        let mut types = vec![None; self.num_values as usize];
        for (v, t) in &self.params {
            if let Some(slot) = types.get_mut(v.0 as usize) {
                *slot = Some(t.clone());
            }
        }
        // Two rounds: a bitcast takes its operand's type, which may be defined in a later block.
        for _ in 0..2 {
            for instr in self.blocks.iter().flat_map(|b| &b.instrs) {
                let Some(result) = instr.result else { continue };
                let ty = match &instr.op {
                    Op::Alloca { .. } | Op::PtrAdd { .. } => Some(Type::Ptr),
                    Op::Load { ty, .. }
                    | Op::Select { ty, .. }
                    | Op::Phi { ty, .. }
                    | Op::Freeze { ty, .. }
                    | Op::ExtractValue { ty, .. }
                    | Op::InsertValue { ty, .. }
                    | Op::LandingPad { ty } => Some(ty.clone()),
                    Op::Call { ret, .. } => Some(ret.clone()),
                    Op::Bin { bits, .. } => Some(Type::Int(*bits)),
                    Op::ICmp { .. } => Some(Type::Int(1)),
                    Op::Cast { op: CastOp::IntToPtr, .. } => Some(Type::Ptr),
                    Op::Cast { op: CastOp::BitCast, value, .. } => match value {
                        Operand::Local(v) => types.get(v.0 as usize).cloned().flatten(),
                        Operand::Int { bits, .. } => Some(Type::Int(*bits)),
                        Operand::NullPtr | Operand::Global(_) | Operand::Function(_) => Some(Type::Ptr),
                        Operand::Undef(t) | Operand::Poison(t) => Some(t.clone()),
                        Operand::Unsupported(_) => None,
                    },
                    Op::Cast { to_bits, .. } => Some(Type::Int(*to_bits)),
                    Op::Store { .. } | Op::Unsupported { .. } => None,
                };
                if let Some(slot) = types.get_mut(result.0 as usize) {
                    *slot = ty;
                }
            }
        }
        types
    }

    /// A readable name for a local value (source name if known, else `%N`).
    pub fn value_name(&self, v: ValueId) -> String {
        match self.value_names.get(v.0 as usize) {
            Some(Some(n)) => n.clone(),
            _ => format!("%{}", v.0),
        }
    }
}

/// Initial contents of a global.
#[derive(Clone, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
pub enum GlobalInit {
    /// Defined elsewhere: contents unknown.
    External,
    /// All bytes zero.
    Zero,
    /// Known bytes (little-endian images of the initializer); `None` = not a known byte
    /// (e.g. a pointer inside the initializer).
    Bytes(Vec<Option<u8>>),
}

/// A global variable.
#[derive(Clone, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
pub struct Global {
    pub name: String,
    pub size: u64,
    pub is_constant: bool,
    pub init: GlobalInit,
    /// The globals whose addresses the initializer holds (at any depth of its constant
    /// expressions), sorted and without duplicates: what a run can reach from this global
    /// (`global_reach`). Empty for declarations.
    #[serde(default)]
    pub refs: Vec<GlobalId>,
}

/// A whole translated module.
#[derive(Clone, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
pub struct Module {
    pub source_name: String,
    pub pointer_bits: u32,
    pub functions: Vec<Function>,
    pub globals: Vec<Global>,
    /// Source annotations per function symbol (`annotation.rs`); the analyses ignore them.
    #[serde(default)]
    pub annotations: std::collections::BTreeMap<String, Vec<annotation::Annotation>>,
    /// `termcheck:` annotation texts that could not be read.
    #[serde(default)]
    pub malformed_annotations: Vec<annotation::MalformedAnnotation>,
}

impl Module {
    pub fn function(&self, f: FuncId) -> &Function {
        &self.functions[f.0 as usize]
    }
    pub fn function_by_name(&self, name: &str) -> Option<FuncId> {
        self.functions.iter().position(|f| f.name == name).map(|i| FuncId(i as u32))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn assert_send_sync<T: Send + Sync>() {}

    #[test]
    fn ir_is_send_and_sync() {
        assert_send_sync::<Module>();
    }
}
