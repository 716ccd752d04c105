//! The replay interpreter of `cargo xtask replay`: runs a C program's IR, as the engine's front
//! end lowers it, over unbounded integers, fed a witness's inputs. A second implementation of
//! engine/src/interp/SEMANTICS.md (written from the document; none of `engine/src/interp` is
//! used), for the witnesses the native harness cannot reproduce: values that leave C's
//! fixed-width types under `--int-semantics math`, and runs that read uninitialised values
//! (`freeze`, `undef`, `uninit-read` inputs), which no C call can give.
//!
//! What it executes (everything else stops the run as *unsupported*, never guessed):
//! integer and pointer registers (any width, mathematical values under `math`), `alloca`,
//! loads and stores of integers and pointers, `PtrAdd`, the integer operations of
//! `replay_math_ops.rs`, `select`, `phi`, `freeze`, `br`/`switch`/`ret`/`unreachable`, calls of
//! defined functions (direct and through function addresses), `__VERIFIER_nondet_*`,
//! `__VERIFIER_assume`, the functions that end a run (`abort`, `exit`, …), `malloc`/`calloc`/
//! `free`, `memset`/`memcpy`/`memmove` (libc and intrinsics) and
//! `llvm.smax/smin/umax/umin/abs/assume`; `llvm.dbg.*`/`llvm.lifetime.*` are dropped
//! by the front end.
//!
//! Memory follows SEMANTICS.md ("Memory", "Math and conversions"): byte-addressed blocks with
//! uninitialised, known and poison bytes; an access outside one live block is undefined
//! behaviour; an uninitialised read draws one input of the loaded width (`uninit-read`),
//! which the bytes keep. Under `math` memory holds mathematical values: a store of a value
//! outside its width keeps the value beside its bytes, and a load of the same size at the
//! same place reads it back (any other write over those bytes forgets it).
//!
//! Undefined behaviour ends the run (as SEMANTICS.md's "Where poison becomes undefined
//! behaviour" says), and so does the *creation* of poison from non-poison operands (an `nsw`
//! overflow under `c`, a shift past the width): a NO needs a run free of undefined
//! behaviour, and the engine reports no lasso whose run created poison.

use crate::replay_math_ops::{self as ops, Num, Val};
use num_traits::{Signed, ToPrimitive, Zero};
use std::collections::BTreeMap;
use termcheck_engine::ir::{BlockId, Callee, FuncId, GlobalInit, Instr, Module, Op, Operand, Terminator, Type, ValueId};
use termcheck_engine::verdict::IntSemantics;

/// Values wider than this many bits end the run as "too large" (a budget, like the step
/// budget: a run of repeated squaring would otherwise fill the memory).
pub const MAX_VALUE_BITS: u64 = 1 << 16;
/// Calls deeper than this end the run (a budget).
const MAX_CALL_DEPTH: usize = 10_000;
/// Larger allocations are unsupported (SEMANTICS.md's `max_alloc_bytes`).
const MAX_ALLOC_BYTES: u64 = 1 << 20;
/// The first block's address; blocks are 16-byte aligned and 4096 bytes apart.
const FIRST_ADDRESS: u64 = 0x10000;
/// Addresses below this are null dereferences.
const NULL_PAGE: u64 = 4096;
/// Where function addresses start (never readable memory); function `i` is at `+ 16·i`.
const FUNCTION_ADDRESSES: u64 = 1 << 46;

/// Why a run stopped before its budget.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Stop {
    /// The run terminates: the entry returned, or `exit`/`abort`/an assertion failure.
    Ended(String),
    /// Undefined behaviour: a memory fault, poison where SEMANTICS.md makes it UB, the
    /// creation of poison, division by zero, `unreachable`; `kind` is the violation kind of
    /// the engine's reports (`invalid-read`, `null-dereference`, …, `undefined-behaviour`).
    Undefined { kind: &'static str, what: String },
    /// `__VERIFIER_assume` of a false condition: not a run of the program.
    Blocked(String),
    /// The run asks for an input the witness does not give (or gives of another kind).
    Inputs(String),
    /// An instruction, operand or function this interpreter does not execute.
    Unsupported(String),
    /// A budget other than steps: a value past `MAX_VALUE_BITS`, calls past `MAX_CALL_DEPTH`.
    Budget(String),
}

/// The source of the run's nondeterministic values: `(name, bits)` of the draw, in order.
pub trait Inputs {
    fn next(&mut self, name: &str, bits: u32) -> Result<Num, Stop>;
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Byte {
    Uninit,
    Known(u8),
    Poison,
    /// Contents the program cannot know (an external global, a pointer in an initializer).
    Unknown,
}

#[derive(Clone, Debug, PartialEq, Eq)]
struct Block {
    base: u64,
    bytes: Vec<Byte>,
    live: bool,
    heap: bool,
    constant: bool,
    /// Under `math`: values outside their width stored at an offset, with the store's size.
    wide: BTreeMap<u64, (u64, Num)>,
}

impl Block {
    /// Forgets the kept mathematical values overlapping `[off, off + len)` (a write there).
    fn forget_wide(&mut self, off: u64, len: u64) {
        let overlapping: Vec<u64> = self.wide.range(..off + len).filter(|(o, (s, _))| **o + *s > off).map(|(o, _)| *o).collect();
        for o in overlapping {
            self.wide.remove(&o);
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Default)]
struct Memory {
    blocks: Vec<Block>,
    next: u64,
}

impl Memory {
    fn allocate(&mut self, bytes: Vec<Byte>, heap: bool, constant: bool) -> Result<u64, Stop> {
        if bytes.len() as u64 > MAX_ALLOC_BYTES {
            return Err(Stop::Unsupported(format!("an allocation of {} bytes", bytes.len())));
        }
        let base = self.next.max(FIRST_ADDRESS);
        self.next = (base + bytes.len() as u64 + 4096).next_multiple_of(16);
        self.blocks.push(Block { base, bytes, live: true, heap, constant, wide: BTreeMap::new() });
        Ok(base)
    }

    /// The live block holding `[addr, addr + len)` and the offset of `addr` in it.
    fn find(&self, addr: &Num, len: u64, write: bool) -> Result<(usize, u64), Stop> {
        let what = if write { "write" } else { "read" };
        let Some(a) = addr.to_u64() else { return Err(fault(if write { "invalid-write" } else { "invalid-read" }, format!("{what} at the address {addr}"))) };
        if a < NULL_PAGE {
            return Err(fault("null-dereference", format!("null dereference ({what} at {a:#x})")));
        }
        let i = self.blocks.partition_point(|b| b.base <= a);
        let Some(i) = i.checked_sub(1) else { return Err(fault(if write { "invalid-write" } else { "invalid-read" }, format!("invalid {what} at {a:#x}"))) };
        let b = &self.blocks[i];
        let end = b.base + b.bytes.len() as u64;
        if a.saturating_add(len) > end {
            return Err(fault(if write { "invalid-write" } else { "invalid-read" }, format!("invalid {what} of {len} bytes at {a:#x}")));
        }
        if !b.live {
            return Err(fault("use-after-free", format!("use after free ({what} at {a:#x})")));
        }
        if write && b.constant {
            return Err(fault("invalid-write", format!("write into a constant at {a:#x}")));
        }
        Ok((i, a - b.base))
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
struct Frame {
    func: FuncId,
    block: BlockId,
    ip: usize,
    regs: Vec<Option<Val>>,
    allocas: Vec<usize>,
}

/// One run of a module's entry function.
pub struct Machine<'m> {
    module: &'m Module,
    sem: IntSemantics,
    frames: Vec<Frame>,
    memory: Memory,
    globals: Vec<u64>,
    inputs: &'m mut dyn Inputs,
    /// Instructions and terminators executed.
    pub steps: u64,
    /// Inputs drawn so far.
    pub inputs_drawn: usize,
    /// The widest value computed so far, in bits.
    pub widest: u64,
    /// Set when a step entered a block (of the top frame): a header check looks then.
    pub entered_block: bool,
}

/// A copy of a run's state (`Machine::snapshot`).
pub struct Snapshot {
    frames: Vec<Frame>,
    memory: Memory,
}

/// What the entry function is called with: an integer, or a block of bytes (a pointer
/// `offset` bytes into it, the block allocated by the caller).
pub enum EntryArg {
    Int(Num),
    Block { bytes: Vec<u8>, offset: u64 },
}

impl<'m> Machine<'m> {
    /// A run of `entry` with `args` (one per parameter), drawing from `inputs`.
    pub fn start(module: &'m Module, entry: &str, args: Vec<EntryArg>, sem: IntSemantics, inputs: &'m mut dyn Inputs) -> Result<Machine<'m>, Stop> {
        let mut m = Machine { module, sem, frames: Vec::new(), memory: Memory::default(), globals: Vec::new(), inputs, steps: 0, inputs_drawn: 0, widest: 0, entered_block: false };
        for g in &module.globals {
            let bytes = match &g.init {
                GlobalInit::External => vec![Byte::Unknown; g.size as usize],
                GlobalInit::Zero => vec![Byte::Known(0); g.size as usize],
                GlobalInit::Bytes(b) => b.iter().map(|b| b.map_or(Byte::Unknown, Byte::Known)).collect(),
            };
            let base = m.memory.allocate(bytes, false, g.is_constant)?;
            m.globals.push(base);
        }
        let f = module.function_by_name(entry).ok_or_else(|| Stop::Unsupported(format!("no function `{entry}`")))?;
        let func = module.function(f);
        if func.is_declaration() || func.params.len() != args.len() {
            return Err(Stop::Unsupported(format!("`{entry}` has no body or {} parameters for {} arguments", func.params.len(), args.len())));
        }
        let mut vals = Vec::new();
        for a in args {
            vals.push(Val::Int(match a {
                EntryArg::Int(v) => v,
                EntryArg::Block { bytes, offset } => Num::from(m.memory.allocate(bytes.into_iter().map(Byte::Known).collect(), true, false)? + offset),
            }));
        }
        m.push_frame(f, vals);
        Ok(m)
    }

    /// The run's whole state (frames and memory): a run with no further inputs to read is
    /// deterministic, so one that comes back to a state it was in never ends.
    pub fn snapshot(&self) -> Snapshot {
        Snapshot { frames: self.frames.clone(), memory: self.memory.clone() }
    }

    /// Whether the run is in the state `s`.
    pub fn is_in(&self, s: &Snapshot) -> bool {
        self.frames == s.frames && self.memory == s.memory
    }

    /// The function, block and frame depth the run is in.
    pub fn position(&self) -> Option<(FuncId, BlockId, usize)> {
        self.frames.last().map(|f| (f.func, f.block, self.frames.len()))
    }

    /// The value of register `v` of the top frame (`None`: unassigned or poison).
    pub fn register(&self, v: ValueId) -> Option<Num> {
        match self.frames.last()?.regs.get(v.0 as usize)? {
            Some(Val::Int(x)) => Some(x.clone()),
            _ => None,
        }
    }

    /// The address of global `i`.
    pub fn global(&self, i: usize) -> Option<Num> {
        self.globals.get(i).map(|a| Num::from(*a))
    }

    /// The integer of `size` bytes (`bits` wide) at `addr`, read without drawing an input
    /// (`None`: not a live readable cell, or not fully known).
    pub fn peek(&self, addr: &Num, size: u64, bits: u32) -> Option<Num> {
        let (i, off) = self.memory.find(addr, size, false).ok()?;
        let b = &self.memory.blocks[i];
        if let Some((s, v)) = b.wide.get(&off).filter(|(s, _)| *s == size) {
            let _ = s;
            return Some(v.clone());
        }
        let mut raw = Num::zero();
        for k in (0..size).rev() {
            let Byte::Known(x) = b.bytes[(off + k) as usize] else { return None };
            raw = (raw << 8usize) + Num::from(x);
        }
        Some(ops::signed(&raw, bits))
    }

    fn push_frame(&mut self, f: FuncId, args: Vec<Val>) {
        let func = self.module.function(f);
        let mut regs = vec![None; func.num_values as usize];
        for ((p, _), v) in func.params.iter().zip(args) {
            if let Some(slot) = regs.get_mut(p.0 as usize) {
                *slot = Some(v);
            }
        }
        self.frames.push(Frame { func: f, block: BlockId(0), ip: 0, regs, allocas: Vec::new() });
        self.entered_block = true;
    }

    fn bits_of(&self, ty: &Type) -> Result<u32, Stop> {
        match ty {
            Type::Int(b) if *b >= 1 => Ok(*b),
            Type::Ptr => Ok(self.module.pointer_bits),
            other => Err(Stop::Unsupported(format!("values of type {other:?}"))),
        }
    }

    fn draw(&mut self, name: &str, bits: u32) -> Result<Num, Stop> {
        let v = self.inputs.next(name, bits)?;
        self.inputs_drawn += 1;
        Ok(ops::signed(&v, bits))
    }

    fn eval(&mut self, o: &Operand) -> Result<Val, Stop> {
        Ok(match o {
            Operand::Local(v) => self
                .frames
                .last()
                .and_then(|f| f.regs.get(v.0 as usize).cloned().flatten())
                .ok_or_else(|| Stop::Unsupported(format!("a read of the unassigned register %{}", v.0)))?,
            Operand::Int { bits, value } => Val::Int(ops::signed(&Num::from(*value), *bits)),
            Operand::NullPtr => Val::Int(Num::zero()),
            Operand::Global(g) => Val::Int(self.global(g.0 as usize).ok_or_else(|| Stop::Unsupported(format!("global #{}", g.0)))?),
            Operand::Function(f) => Val::Int(Num::from(FUNCTION_ADDRESSES + 16 * u64::from(f.0))),
            Operand::Undef(ty) => {
                let bits = self.bits_of(ty)?;
                Val::Int(self.draw("undef", bits)?)
            }
            Operand::Poison(_) => Val::Poison,
            Operand::Unsupported(text) => return Err(Stop::Unsupported(format!("the operand {text}"))),
        })
    }

    /// An operand where poison is undefined behaviour (addresses, conditions, arguments of
    /// library functions).
    fn defined(&mut self, o: &Operand, what: &str) -> Result<Num, Stop> {
        match self.eval(o)? {
            Val::Int(v) => Ok(v),
            Val::Poison => Err(ub(format!("poison {what}"))),
        }
    }

    fn set(&mut self, r: Option<ValueId>, v: Val) -> Result<(), Stop> {
        if let Val::Int(x) = &v {
            let bits = x.bits();
            self.widest = self.widest.max(bits);
            if bits > MAX_VALUE_BITS {
                return Err(Stop::Budget(format!("a value of {bits} bits")));
            }
        }
        let Some(r) = r else { return Ok(()) };
        let top = self.frames.last_mut().ok_or_else(|| Stop::Unsupported("no frame".into()))?;
        let slot = top.regs.get_mut(r.0 as usize).ok_or_else(|| Stop::Unsupported(format!("register %{} out of range", r.0)))?;
        *slot = Some(v);
        Ok(())
    }

    fn load(&mut self, ty: &Type, addr: &Num, size: u64) -> Result<Val, Stop> {
        let bits = self.bits_of(ty)?;
        if size * 8 < u64::from(bits) {
            return Err(Stop::Unsupported(format!("a load of {bits} bits from {size} bytes")));
        }
        let (i, off) = self.memory.find(addr, size, false)?;
        if let Some((_, v)) = self.memory.blocks[i].wide.get(&off).filter(|(s, _)| *s == size) {
            return Ok(Val::Int(v.clone()));
        }
        let cells = self.memory.blocks[i].bytes[off as usize..(off + size) as usize].to_vec();
        if cells.contains(&Byte::Unknown) {
            return Err(Stop::Unsupported(format!("a read of memory with unknown contents at {addr:#x}")));
        }
        if cells.contains(&Byte::Poison) {
            return Ok(Val::Poison);
        }
        // uninitialised bytes take one drawn value of the loaded width, and keep it
        let fill = if cells.contains(&Byte::Uninit) { ops::unsigned(&self.draw("uninit-read", bits)?, bits) } else { Num::zero() };
        let mut raw = Num::zero();
        for (k, c) in cells.iter().enumerate().rev() {
            let byte = match c {
                Byte::Known(b) => *b,
                _ => ((&fill >> (8 * k)) % 256u32).to_u8().unwrap_or(0),
            };
            self.memory.blocks[i].bytes[off as usize + k] = Byte::Known(byte);
            raw = (raw << 8usize) + Num::from(byte);
        }
        Ok(Val::Int(ops::signed(&raw, bits)))
    }

    fn store(&mut self, ty: &Type, v: Val, addr: &Num, size: u64) -> Result<(), Stop> {
        let bits = self.bits_of(ty)?;
        if size * 8 < u64::from(bits) {
            return Err(Stop::Unsupported(format!("a store of {bits} bits into {size} bytes")));
        }
        let (i, off) = self.memory.find(addr, size, true)?;
        let block = &mut self.memory.blocks[i];
        block.forget_wide(off, size);
        match v {
            Val::Poison => block.bytes[off as usize..(off + size) as usize].fill(Byte::Poison),
            Val::Int(x) => {
                let raw = ops::unsigned(&x, bits);
                for k in 0..size {
                    block.bytes[(off + k) as usize] = Byte::Known(((&raw >> (8 * k as usize)) % 256u32).to_u8().unwrap_or(0));
                }
                if ops::signed(&x, bits) != x {
                    block.wide.insert(off, (size, x));
                }
            }
        }
        Ok(())
    }

    /// Executes one instruction or terminator of the top frame.
    pub fn step(&mut self) -> Result<(), Stop> {
        self.entered_block = false;
        self.steps += 1;
        let module = self.module;
        let top = self.frames.last().ok_or_else(|| Stop::Unsupported("no frame".into()))?;
        let block = module.function(top.func).blocks.get(top.block.0 as usize).ok_or_else(|| Stop::Unsupported("a missing block".into()))?;
        match block.instrs.get(top.ip) {
            Some(instr) => self.instr(instr),
            None => self.terminator(&block.terminator),
        }
    }

    fn advance(&mut self) {
        if let Some(top) = self.frames.last_mut() {
            top.ip += 1;
        }
    }

    fn instr(&mut self, instr: &Instr) -> Result<(), Stop> {
        let sem = self.sem;
        let v = match &instr.op {
            Op::Alloca { elem_size, count, count_bits } => {
                let c = self.defined(count, "alloca element count")?;
                let n = if sem == IntSemantics::Math { ops::math_unsigned(&c, *count_bits) } else { ops::unsigned(&c, *count_bits) };
                let size = n.to_u64().and_then(|n| n.checked_mul(*elem_size)).ok_or_else(|| Stop::Unsupported(format!("an alloca of {n} elements")))?;
                let base = self.memory.allocate(vec![Byte::Uninit; size as usize], false, false)?;
                let index = self.memory.blocks.len() - 1;
                if let Some(top) = self.frames.last_mut() {
                    top.allocas.push(index);
                }
                Val::Int(Num::from(base))
            }
            Op::Load { ty, ptr, size } => {
                let a = self.defined(ptr, "load address")?;
                self.load(ty, &a, *size)?
            }
            Op::Store { ty, value, ptr, size } => {
                let v = self.eval(value)?;
                let a = self.defined(ptr, "store address")?;
                self.store(ty, v, &a, *size)?;
                self.advance();
                return Ok(());
            }
            Op::PtrAdd { base, offset, indices, .. } => {
                let mut poison = false;
                let mut sum = match self.eval(base)? {
                    Val::Int(b) => b + Num::from(*offset),
                    Val::Poison => {
                        poison = true;
                        Num::zero()
                    }
                };
                for idx in indices {
                    match self.eval(&idx.value)? {
                        Val::Int(i) => {
                            let i = if sem == IntSemantics::Math { i } else { ops::signed(&i, idx.bits) };
                            sum += i * Num::from(idx.scale);
                        }
                        Val::Poison => poison = true,
                    }
                }
                if poison {
                    Val::Poison
                } else {
                    Val::Int(ops::signed(&sum, self.module.pointer_bits))
                }
            }
            Op::Bin { op, flags, bits, lhs, rhs } => match (self.eval(lhs)?, self.eval(rhs)?) {
                (Val::Int(a), Val::Int(b)) => match ops::binary(*op, *flags, *bits, &a, &b, sem) {
                    Ok(Val::Poison) => return Err(ub(format!("`{op:?}` of {a} and {b} on i{bits} gives poison (overflow, an over-wide shift or an inexact division){}", at(instr)))),
                    Ok(v) => v,
                    Err(ops::Ub(what)) => return Err(ub(format!("{what}{}", at(instr)))),
                },
                // division by poison is undefined; other operations propagate it
                (_, Val::Poison) if matches!(op, termcheck_engine::ir::BinOp::UDiv | termcheck_engine::ir::BinOp::SDiv | termcheck_engine::ir::BinOp::URem | termcheck_engine::ir::BinOp::SRem) => {
                    return Err(ub(format!("division by poison{}", at(instr))))
                }
                _ => Val::Poison,
            },
            Op::ICmp { pred, bits, lhs, rhs } => match (self.eval(lhs)?, self.eval(rhs)?) {
                (Val::Int(a), Val::Int(b)) => Val::Int(if ops::compare(*pred, *bits, &a, &b, sem) { Num::from(-1) } else { Num::zero() }),
                _ => Val::Poison,
            },
            Op::Cast { op, from_bits, to_bits, value } => match self.eval(value)? {
                Val::Int(x) => Val::Int(ops::cast(*op, *from_bits, *to_bits, &x, sem)),
                Val::Poison => Val::Poison,
            },
            Op::Select { cond, then_value, else_value, .. } => match self.eval(cond)? {
                Val::Poison => Val::Poison,
                Val::Int(c) if c.is_odd_bit() => self.eval(then_value)?,
                Val::Int(_) => self.eval(else_value)?,
            },
            Op::Freeze { ty, value } => match self.eval(value)? {
                Val::Poison => {
                    let bits = self.bits_of(ty)?;
                    Val::Int(self.draw("freeze", bits)?)
                }
                v => v,
            },
            Op::Call { callee, args, ret } => return self.call(instr, callee, args, ret),
            Op::Phi { .. } => return Err(Stop::Unsupported("a phi after the start of a block".into())),
            other => return Err(Stop::Unsupported(format!("the instruction {}", op_name(other)))),
        };
        self.set(instr.result, v)?;
        self.advance();
        Ok(())
    }

    fn call(&mut self, instr: &Instr, callee: &Callee, args: &[Operand], ret: &Type) -> Result<(), Stop> {
        let target = match callee {
            Callee::Direct(f) => *f,
            Callee::Indirect(o) => {
                let a = self.defined(o, "callee")?;
                let slot = a.to_u64().and_then(|a| a.checked_sub(FUNCTION_ADDRESSES)).filter(|s| s % 16 == 0 && ((s / 16) as usize) < self.module.functions.len());
                FuncId((slot.ok_or_else(|| ub(format!("a call through {a:#x}, not a function")))? / 16) as u32)
            }
            Callee::Unsupported(text) => return Err(Stop::Unsupported(format!("the callee {text}"))),
        };
        let func = self.module.function(target);
        if func.is_declaration() {
            let v = self.library(&func.name, func, args, ret)?;
            if let Some(r) = instr.result {
                let v = match v {
                    Some(v) => v,
                    // A void library function called through an implicit `int f()` declaration
                    // (old C): its "result" is an arbitrary value, the witness's next input
                    // (SEMANTICS.md, the implicit `int f()` rule).
                    None => {
                        let bits = self.bits_of(ret)?;
                        Val::Int(self.draw(&format!("{} result", func.name), bits)?)
                    }
                };
                self.set(Some(r), v)?;
            }
            self.advance();
            return Ok(());
        }
        if func.params.len() != args.len() {
            return Err(Stop::Unsupported(format!("a call of `{}` with {} arguments", func.name, args.len())));
        }
        let mut vals = Vec::new();
        for a in args {
            vals.push(self.eval(a)?);
        }
        if self.frames.len() >= MAX_CALL_DEPTH {
            return Err(Stop::Budget(format!("{MAX_CALL_DEPTH} nested calls")));
        }
        self.push_frame(target, vals);
        Ok(())
    }

    /// The library functions and intrinsics this interpreter knows; `Ok(value)`.
    fn library(&mut self, name: &str, decl: &termcheck_engine::ir::Function, args: &[Operand], ret: &Type) -> Result<Option<Val>, Stop> {
        let arg = |m: &mut Self, i: usize| -> Result<Num, Stop> {
            let o = args.get(i).ok_or_else(|| Stop::Unsupported(format!("`{name}` with too few arguments")))?;
            m.defined(o, &format!("argument {} of `{name}`", i + 1))
        };
        if name.starts_with("__VERIFIER_nondet_") {
            let bits = self.bits_of(ret)?;
            return Ok(Some(Val::Int(self.draw(name, bits)?)));
        }
        if let Some(rest) = name.strip_prefix("llvm.") {
            let base = rest.split('.').next().unwrap_or("");
            if base == "assume" {
                let c = self.eval(args.first().ok_or_else(|| Stop::Unsupported("llvm.assume without argument".into()))?)?;
                return match c {
                    Val::Int(c) if c.is_odd_bit() => Ok(None),
                    _ => Err(ub("llvm.assume of a false or poison condition")),
                };
            }
            if ["memcpy", "memmove", "memset"].contains(&base) {
                self.mem_op(base, decl, args)?;
                return Ok(None);
            }
            let bits = ret.int_bits().ok_or_else(|| Stop::Unsupported(format!("the intrinsic `{name}`")))?;
            if ["smax", "smin", "umax", "umin", "abs"].contains(&base) {
                let vals: Vec<Val> = args.iter().map(|a| self.eval(a)).collect::<Result<_, _>>()?;
                let (Some(Val::Int(a)), Some(Val::Int(b))) = (vals.first(), vals.get(1)) else { return Ok(Some(Val::Poison)) };
                return Ok(ops::intrinsic(base, bits, a, b, self.sem));
            }
            return Err(Stop::Unsupported(format!("the intrinsic `{name}`")));
        }
        match name {
            "memcpy" | "memmove" | "memset" => {
                self.mem_op(name, decl, args)?;
                Ok(Some(Val::Int(arg(self, 0)?)))
            }
            "__VERIFIER_assume" => {
                if arg(self, 0)?.is_zero() {
                    return Err(Stop::Blocked("__VERIFIER_assume(0)".into()));
                }
                Ok(None)
            }
            "abort" | "exit" | "_exit" | "_Exit" | "__VERIFIER_error" | "reach_error" | "__assert_fail" | "__assert_rtn" | "__assert" => Err(Stop::Ended(format!("`{name}` is called"))),
            "malloc" | "calloc" => {
                let size_bits = |i: usize| decl.params.get(i).and_then(|(_, t)| t.int_bits()).unwrap_or(self.module.pointer_bits);
                let first = arg(self, 0)?;
                let mut n = self.size(first, size_bits(0));
                let fill = if name == "calloc" {
                    let second = arg(self, 1)?;
                    n *= self.size(second, size_bits(1));
                    Byte::Known(0)
                } else {
                    Byte::Uninit
                };
                let n = n.to_u64().filter(|n| *n <= MAX_ALLOC_BYTES).ok_or_else(|| Stop::Unsupported(format!("`{name}` of {n} bytes")))?;
                Ok(Some(Val::Int(Num::from(self.memory.allocate(vec![fill; n as usize], true, false)?))))
            }
            "free" => {
                let p = arg(self, 0)?;
                if p.is_zero() {
                    return Ok(None);
                }
                let b = p.to_u64().and_then(|a| self.memory.blocks.iter().position(|b| b.base == a && b.heap));
                match b {
                    Some(i) if self.memory.blocks[i].live => {
                        self.memory.blocks[i].live = false;
                        Ok(None)
                    }
                    Some(_) => Err(fault("double-free", format!("double free of {p:#x}"))),
                    None => Err(fault("invalid-free", format!("free of {p:#x}, not the start of a heap block"))),
                }
            }
            _ => Err(Stop::Unsupported(format!("a call of the external function `{name}`"))),
        }
    }

    /// `memset`/`memcpy`/`memmove` (libc or intrinsic; `op` names which): the ranges must lie
    /// in live blocks, `memcpy`'s may not overlap; uninitialised source bytes are first fixed
    /// one `uninit-read` input of 8 bits each, so that the copy equals the original.
    fn mem_op(&mut self, op: &str, decl: &termcheck_engine::ir::Function, args: &[Operand]) -> Result<(), Stop> {
        let operand = |i: usize| args.get(i).ok_or_else(|| Stop::Unsupported(format!("`{op}` with too few arguments")));
        let dst = self.defined(operand(0)?, &format!("destination of `{op}`"))?;
        let len = self.defined(operand(2)?, &format!("length of `{op}`"))?;
        let bits = decl.params.get(2).and_then(|(_, t)| t.int_bits()).unwrap_or(self.module.pointer_bits);
        let len = self.size(len, bits);
        let n = len.to_u64().filter(|n| *n <= MAX_ALLOC_BYTES).ok_or_else(|| Stop::Unsupported(format!("`{op}` of {len} bytes")))?;
        if n == 0 {
            return Ok(());
        }
        let bytes = if op == "memset" {
            let v = self.defined(operand(1)?, "the byte of `memset`")?;
            vec![Byte::Known(ops::unsigned(&v, 8).to_u8().unwrap_or(0)); n as usize]
        } else {
            let src = self.defined(operand(1)?, &format!("source of `{op}`"))?;
            let (i, off) = self.memory.find(&src, n, false)?;
            if self.memory.blocks[i].wide.range(..off + n).any(|(o, (s, _))| *o + *s > off) {
                return Err(Stop::Unsupported(format!("`{op}` of a mathematical value outside its width")));
            }
            for k in off..off + n {
                if self.memory.blocks[i].bytes[k as usize] == Byte::Uninit {
                    let b = ops::unsigned(&self.draw("uninit-read", 8)?, 8).to_u8().unwrap_or(0);
                    self.memory.blocks[i].bytes[k as usize] = Byte::Known(b);
                }
            }
            if op.contains("memcpy") && dst != src && dst < &src + n && src < &dst + n {
                return Err(ub(format!("`{op}` of overlapping ranges")));
            }
            self.memory.blocks[i].bytes[off as usize..(off + n) as usize].to_vec()
        };
        let (i, off) = self.memory.find(&dst, n, true)?;
        let block = &mut self.memory.blocks[i];
        block.forget_wide(off, n);
        block.bytes[off as usize..(off + n) as usize].copy_from_slice(&bytes);
        Ok(())
    }

    /// An unsigned size argument: `u(·)`, under `math` `ũ(·)`.
    fn size(&self, v: Num, bits: u32) -> Num {
        if self.sem == IntSemantics::Math {
            ops::math_unsigned(&v, bits)
        } else {
            ops::unsigned(&v, bits)
        }
    }

    fn terminator(&mut self, t: &Terminator) -> Result<(), Stop> {
        match t {
            Terminator::Br(b) => self.jump(*b),
            Terminator::CondBr { cond, then_block, else_block } => {
                let c = self.defined(cond, "branch condition")?;
                self.jump(if c.is_odd_bit() { *then_block } else { *else_block })
            }
            Terminator::Switch { value, bits, default, cases } => {
                let v = self.defined(value, "switch value")?;
                let v = if self.sem == IntSemantics::Math { v } else { ops::signed(&v, *bits) };
                let target = cases.iter().find(|(c, _)| ops::signed(&Num::from(*c), *bits) == v).map_or(*default, |(_, b)| *b);
                self.jump(target)
            }
            Terminator::Ret(v) => {
                let v = match v {
                    Some(o) => Some(self.eval(o)?),
                    None => None,
                };
                let frame = self.frames.pop().ok_or_else(|| Stop::Unsupported("a return without a frame".into()))?;
                for i in frame.allocas {
                    self.memory.blocks[i].live = false;
                }
                if self.frames.is_empty() {
                    return match v {
                        Some(Val::Poison) => Err(ub("the entry function returns poison")),
                        Some(Val::Int(x)) => Err(Stop::Ended(format!("the entry function returns {x}"))),
                        None => Err(Stop::Ended("the entry function returns".into())),
                    };
                }
                let caller = self.frames.last().ok_or_else(|| Stop::Unsupported("no caller".into()))?;
                let call = self.module.function(caller.func).blocks.get(caller.block.0 as usize).and_then(|b| b.instrs.get(caller.ip));
                if let Some(r) = call.and_then(|c| c.result) {
                    let v = v.ok_or_else(|| Stop::Unsupported("a void return where the caller expects a value".into()))?;
                    self.set(Some(r), v)?;
                }
                self.advance();
                Ok(())
            }
            Terminator::Unreachable => Err(ub("`unreachable` is reached")),
            Terminator::Invoke { .. } | Terminator::Resume(_) => Err(Stop::Unsupported("unwinding (`invoke`, `resume`)".into())),
            Terminator::Unsupported { text } => Err(Stop::Unsupported(format!("the terminator {text}"))),
        }
    }

    /// Moves the top frame to `target`, evaluating its phis (all read before any is set).
    fn jump(&mut self, target: BlockId) -> Result<(), Stop> {
        let module = self.module;
        let top = self.frames.last().ok_or_else(|| Stop::Unsupported("no frame".into()))?;
        let from = top.block;
        let block = module.function(top.func).blocks.get(target.0 as usize).ok_or_else(|| Stop::Unsupported("a jump to a missing block".into()))?;
        let mut assigned = Vec::new();
        for instr in &block.instrs {
            let Op::Phi { incoming, .. } = &instr.op else { break };
            let (o, _) = incoming.iter().find(|(_, b)| *b == from).ok_or_else(|| Stop::Unsupported(format!("a phi of {} without a value for its predecessor", block.name)))?;
            assigned.push((instr.result, self.eval(o)?));
        }
        let ip = assigned.len();
        for (r, v) in assigned {
            self.set(r, v)?;
        }
        let top = self.frames.last_mut().ok_or_else(|| Stop::Unsupported("no frame".into()))?;
        top.block = target;
        top.ip = ip;
        self.entered_block = true;
        Ok(())
    }
}

/// A memory fault of the given kind.
fn fault(kind: &'static str, what: String) -> Stop {
    Stop::Undefined { kind, what }
}

/// Undefined behaviour other than a memory fault.
fn ub(what: impl Into<String>) -> Stop {
    Stop::Undefined { kind: "undefined-behaviour", what: what.into() }
}

/// The low bit of an `i1` (true is `-1` or `1`).
trait LowBit {
    fn is_odd_bit(&self) -> bool;
}

impl LowBit for Num {
    fn is_odd_bit(&self) -> bool {
        (self % 2u32).abs() == Num::from(1)
    }
}

/// ` at FILE:LINE` of an instruction, when known.
fn at(instr: &Instr) -> String {
    instr.loc.as_ref().map(|l| format!(" at {}:{}", l.file, l.line)).unwrap_or_default()
}

/// The name of an operation the interpreter does not execute.
fn op_name(op: &Op) -> String {
    match op {
        Op::ExtractValue { .. } => "extractvalue".into(),
        Op::InsertValue { .. } => "insertvalue".into(),
        Op::LandingPad { .. } => "landingpad".into(),
        Op::Unsupported { text } => text.clone(),
        other => format!("{other:?}"),
    }
}
