//! The interpreter's state and main loop: frames, memory, operand evaluation, instructions
//! and terminators. Library functions and intrinsics are in `externals.rs`.

use crate::facts::ModuleFacts;
use crate::ir::externals::{classify, ArithKind, External};
use super::arith;
use super::fault::Fault;
use super::frame::Frame;
use super::inputs::{InputRequest, InputSource};
use super::lasso::LassoDetector;
use super::recursion_repeat::RecursionDetector;
use super::observe::{BlockEntry, BlockObserver, CellBase, CellContents, CellSpec};
use super::memory::{Access, AllocKind, Cell, Memory, FUNCTION_BASE};
use super::outcome::{Lasso, Outcome, RecursionLasso, RunConfig, RunResult};
use super::value::{fits_signed, math_unsigned, to_unsigned, wrap_signed, Value};
use crate::ir::{BlockId, Callee, FuncId, GlobalInit, Instr, Module, Op, Operand, Terminator, Type, ValueId};
use crate::verdict::{EntryBlock, IntSemantics};

/// Runs `entry(args)` to completion, a violation, a lasso or a limit (`facts`: those of
/// `module`, for the lasso detection's loop headers and liveness).
pub fn run(module: &Module, facts: &ModuleFacts, entry: FuncId, args: &[i128], cfg: &RunConfig, inputs: &mut dyn InputSource) -> RunResult {
    run_inner(module, facts, entry, args, &[], cfg, inputs, None)
}

/// Like `run`, from an initial memory: each of `blocks` is allocated (a heap block named
/// after its parameter, after the globals) and its parameter's argument is replaced by the
/// block's address plus its offset.
pub fn run_with_memory(module: &Module, facts: &ModuleFacts, entry: FuncId, args: &[i128], blocks: &[EntryBlock], cfg: &RunConfig, inputs: &mut dyn InputSource) -> RunResult {
    run_inner(module, facts, entry, args, blocks, cfg, inputs, None)
}

/// Like `run`, and reports every block entry of the top frame to `observer`.
pub fn run_observed(
    module: &Module,
    facts: &ModuleFacts,
    entry: FuncId,
    args: &[i128],
    cfg: &RunConfig,
    inputs: &mut dyn InputSource,
    observer: &mut dyn BlockObserver,
) -> RunResult {
    run_inner(module, facts, entry, args, &[], cfg, inputs, Some(observer))
}

#[allow(clippy::too_many_arguments, reason = "the run's inputs, passed through from the public entry points")]
fn run_inner<'a>(
    module: &'a Module,
    facts: &'a ModuleFacts,
    entry: FuncId,
    args: &[i128],
    blocks: &[EntryBlock],
    cfg: &'a RunConfig,
    inputs: &'a mut dyn InputSource,
    observer: Option<&'a mut dyn BlockObserver>,
) -> RunResult {
    let mut m = Machine {
        observer,
        module,
        facts,
        cfg,
        inputs,
        frames: Vec::new(),
        memory: Memory::new(cfg.limits.max_alloc_bytes),
        globals: Vec::new(),
        trace: Vec::new(),
        steps: 0,
        lasso: cfg.detect_lasso.then(|| LassoDetector::new(cfg.limits.max_stored_states, cfg.limits.max_stored_bytes)),
        recursion: cfg.detect_recursion.then(|| RecursionDetector::new(cfg.limits.max_stored_states, cfg.limits.max_stored_bytes)),
        pushed: 0,
        poison_created: None,
    };
    let outcome = m.start(entry, args, blocks);
    RunResult { outcome, trace_inputs: m.trace, steps: m.steps, poison_created: m.poison_created }
}

/// The interpreter state.
pub(super) struct Machine<'a> {
    pub module: &'a Module,
    pub facts: &'a ModuleFacts,
    pub cfg: &'a RunConfig,
    pub inputs: &'a mut dyn InputSource,
    pub frames: Vec<Frame>,
    pub memory: Memory,
    /// Base address of each global.
    pub globals: Vec<u64>,
    pub trace: Vec<(String, i128)>,
    pub steps: u64,
    pub lasso: Option<LassoDetector>,
    /// Repeated function entries deeper in one recursion (`RunConfig::detect_recursion`).
    pub recursion: Option<RecursionDetector>,
    /// Frames pushed so far (the next frame's serial).
    pub pushed: u64,
    /// First creation of poison (see `RunResult::poison_created`).
    pub poison_created: Option<String>,
    pub observer: Option<&'a mut dyn BlockObserver>,
}

/// What an instruction did to the control flow.
pub(super) type Step = Result<Option<Outcome>, Fault>;

impl<'a> Machine<'a> {
    fn start(&mut self, entry: FuncId, args: &[i128], blocks: &[EntryBlock]) -> Outcome {
        if let Err(f) = self.init_globals() {
            return self.outcome_of(f, None);
        }
        let mut args = args.to_vec();
        for b in blocks {
            let cells = b.bytes.iter().map(|x| Cell::Byte(*x)).collect();
            match self.memory.allocate_cells(AllocKind::Heap, cells, false) {
                Ok(base) => {
                    self.memory.name_block(base, b.param.clone());
                    match args.get_mut(b.index) {
                        Some(a) => *a = i128::from(base + b.offset),
                        None => return Outcome::Unsupported(format!("the initial block of `{}` is for parameter {}, which does not exist", b.param, b.index)),
                    }
                }
                Err(f) => return self.outcome_of(f, None),
            }
        }
        let args = &args[..];
        let Some(func) = self.module.functions.get(entry.0 as usize) else {
            return Outcome::Unsupported(format!("entry function #{} does not exist", entry.0));
        };
        if func.is_declaration() {
            return Outcome::Unsupported(format!("entry function {} has no body", func.name));
        }
        if func.params.len() != args.len() {
            return Outcome::Unsupported(format!("entry function {} takes {} arguments, {} given", func.name, func.params.len(), args.len()));
        }
        let mut vals = Vec::new();
        for ((_, ty), a) in func.params.iter().zip(args) {
            match self.bits_of(ty) {
                Ok(b) => vals.push(Value::int(wrap_signed(*a, b))),
                Err(f) => return self.outcome_of(f, None),
            }
        }
        match self.push_frame(entry, vals) {
            Ok(Some(o)) => return o,
            Ok(None) => {}
            Err(f) => return self.outcome_of(f, None),
        }
        self.main_loop()
    }

    fn init_globals(&mut self) -> Result<(), Fault> {
        for g in &self.module.globals {
            if g.size > self.cfg.limits.max_alloc_bytes {
                return Err(Fault::unsupported(format!("global {} of {} bytes exceeds the interpreter's limit", g.name, g.size)));
            }
            let mut cells = vec![Cell::Unknown; g.size as usize];
            match &g.init {
                GlobalInit::External => {}
                GlobalInit::Zero => cells.fill(Cell::Byte(0)),
                GlobalInit::Bytes(bytes) => {
                    for (c, b) in cells.iter_mut().zip(bytes) {
                        *c = b.map_or(Cell::Unknown, Cell::Byte);
                    }
                }
            }
            let base = self.memory.allocate_cells(AllocKind::Global, cells, g.is_constant)?;
            self.memory.name_block(base, g.name.clone());
            self.globals.push(base);
        }
        Ok(())
    }

    fn main_loop(&mut self) -> Outcome {
        loop {
            if self.steps >= self.cfg.max_steps {
                return Outcome::StepLimit;
            }
            if self.steps % 1024 == 0 && self.cfg.deadline.is_some_and(crate::cancel::past) {
                return Outcome::Timeout;
            }
            let Some(top) = self.frames.last() else { return Outcome::Unsupported("empty call stack".into()) };
            let module = self.module;
            let func = module.function(top.func);
            let Some(block) = func.blocks.get(top.block.0 as usize) else {
                return Outcome::Unsupported(format!("missing block {} in {}", top.block.0, func.name));
            };
            self.steps += 1;
            let (result, loc) = match block.instrs.get(top.ip) {
                Some(instr) => (self.exec_instr(instr), instr.loc.clone()),
                None => (self.exec_terminator(&block.terminator), block.term_loc.clone()),
            };
            match result {
                Ok(None) => {}
                Ok(Some(outcome)) => return outcome,
                Err(f) => return self.outcome_of(f, loc),
            }
        }
    }

    fn outcome_of(&self, f: Fault, loc: Option<crate::ir::SrcLoc>) -> Outcome {
        match f {
            Fault::Violation { kind, message } => Outcome::Violation {
                kind: kind.to_string(),
                message,
                function: self.frames.last().map(|fr| self.module.function(fr.func).name.clone()).unwrap_or_default(),
                loc,
            },
            Fault::Unsupported(m) => Outcome::Unsupported(m),
            Fault::Blocked => Outcome::Blocked,
            Fault::Exited(n) => Outcome::Exited(n),
            Fault::InputsExhausted => Outcome::InputsExhausted,
        }
    }

    // ----- values -------------------------------------------------------------------------

    pub fn sem(&self) -> IntSemantics {
        self.cfg.semantics
    }

    pub fn pointer_bits(&self) -> u32 {
        self.module.pointer_bits
    }

    /// Width of a first-class type the interpreter can hold in a register.
    pub fn bits_of(&self, ty: &Type) -> Result<u32, Fault> {
        match ty {
            Type::Int(b) if (1..=super::value::MAX_BITS).contains(b) => Ok(*b),
            Type::Ptr => Ok(self.pointer_bits()),
            other => Err(Fault::unsupported(format!("values of type {other:?}"))),
        }
    }

    /// Draws a nondeterministic value of `bits` bits and records it.
    pub fn draw(&mut self, name: &str, bits: u32, unsigned: bool) -> Result<i128, Fault> {
        let raw = self.inputs.next_value(&InputRequest { name, bits, unsigned }).ok_or(Fault::InputsExhausted)?;
        let v = wrap_signed(raw, bits);
        self.trace.push((name.to_string(), if unsigned { to_unsigned(v, bits) } else { v }));
        Ok(v)
    }

    pub fn eval(&mut self, o: &Operand) -> Result<Value, Fault> {
        match o {
            Operand::Local(ValueId(v)) => {
                let top = self.frames.last().ok_or_else(|| Fault::unsupported("no frame"))?;
                top.regs
                    .get(*v as usize)
                    .copied()
                    .flatten()
                    .ok_or_else(|| Fault::unsupported(format!("read of unassigned register %{v}")))
            }
            Operand::Int { bits, value } => Ok(Value::int(wrap_signed(*value, *bits))),
            Operand::NullPtr => Ok(Value::int(0)),
            Operand::Global(g) => self
                .globals
                .get(g.0 as usize)
                .map(|a| Value::int(*a as i128))
                .ok_or_else(|| Fault::unsupported(format!("unknown global #{}", g.0))),
            Operand::Function(f) => Ok(Value::int(FUNCTION_BASE as i128 + 16 * f.0 as i128)),
            Operand::Undef(ty) => {
                let bits = self.bits_of(ty)?;
                Ok(Value::int(self.draw("undef", bits, false)?))
            }
            Operand::Poison(_) => Ok(Value::poison()),
            Operand::Unsupported(text) => Err(Fault::unsupported(format!("operand {text}"))),
        }
    }

    /// An address operand: poison is undefined behaviour.
    pub fn eval_address(&mut self, o: &Operand, what: &str) -> Result<u64, Fault> {
        let v = self.eval(o)?;
        if v.poison {
            return Err(Fault::ub(format!("{what} through a poison pointer")));
        }
        Ok(to_unsigned(v.int, 64) as u64)
    }

    fn set(&mut self, result: Option<ValueId>, v: Value) -> Result<(), Fault> {
        let Some(ValueId(r)) = result else { return Ok(()) };
        let top = self.frames.last_mut().ok_or_else(|| Fault::unsupported("no frame"))?;
        let slot = top.regs.get_mut(r as usize).ok_or_else(|| Fault::unsupported(format!("register %{r} out of range")))?;
        *slot = Some(v);
        Ok(())
    }

    /// Defines an aggregate register.
    pub fn set_aggregate(&mut self, result: Option<ValueId>, fields: Vec<Option<Value>>) -> Result<(), Fault> {
        let Some(ValueId(r)) = result else { return Ok(()) };
        let top = self.frames.last_mut().ok_or_else(|| Fault::unsupported("no frame"))?;
        top.aggregates.insert(r, fields);
        Ok(())
    }

    fn advance(&mut self) {
        if let Some(top) = self.frames.last_mut() {
            top.ip += 1;
        }
    }

    /// Records the first creation of poison.
    pub fn note_poison(&mut self, what: &str) {
        if self.poison_created.is_none() {
            let func = self.frames.last().map(|f| self.module.function(f.func).name.clone()).unwrap_or_default();
            self.poison_created = Some(format!("{what} in {func}"));
        }
    }

    // ----- memory values ------------------------------------------------------------------

    /// Loads a value of `ty` (`size` bytes) from `addr`.
    pub fn load_value(&mut self, ty: &Type, addr: u64, size: u64) -> Result<Value, Fault> {
        let bits = self.bits_of(ty)?;
        if size * 8 < bits as u64 || size > 8 {
            return Err(Fault::unsupported(format!("load of {bits}-bit value from {size} bytes")));
        }
        let cells = self.memory.read(addr, size)?;
        if cells.contains(&Cell::Unknown) {
            return Err(Fault::unsupported(format!("read of memory with unknown contents at {addr:#x}")));
        }
        if cells.contains(&Cell::Poison) {
            return Ok(Value::poison());
        }
        let uninit = cells.contains(&Cell::Uninit);
        let fill = if uninit { to_unsigned(self.draw("uninit-read", bits, false)?, bits) as u64 } else { 0 };
        let mut raw: u64 = 0;
        let mut settled = Vec::with_capacity(cells.len());
        for (i, c) in cells.iter().enumerate() {
            let byte = match c {
                Cell::Byte(b) => *b as u64,
                _ => (fill >> (8 * i)) & 0xff,
            };
            settled.push(Cell::Byte(byte as u8));
            raw |= byte << (8 * i);
        }
        if uninit {
            // The arbitrary value is fixed from now on (a real machine reads the same garbage
            // twice); see SEMANTICS.md.
            self.memory.settle_uninit(addr, &settled)?;
        }
        Ok(Value::int(wrap_signed(raw as i128, bits)))
    }

    /// The contents of an observed cell (see `CellContents`): read without drawing inputs or
    /// settling anything, so observing never changes the run.
    fn observe_cell(&self, c: &CellSpec) -> Option<CellContents> {
        let base = match c.base {
            CellBase::Reg(v) => {
                let r = self.frames.last()?.regs.get(v.0 as usize).copied().flatten()?;
                (!r.poison).then_some(r.int)?
            }
            CellBase::Global(g) => *self.globals.get(g.0 as usize)? as i128,
        };
        let addr = u64::try_from(base.checked_add(c.offset)?).ok()?;
        if c.bits == 0 || c.size * 8 < c.bits as u64 || c.size > 8 {
            return None;
        }
        self.memory.check(addr, c.size, if c.written { Access::Write } else { Access::Read }).ok()?;
        let mut raw: u64 = 0;
        for (i, cell) in self.memory.read(addr, c.size).ok()?.iter().enumerate() {
            let Cell::Byte(b) = cell else { return None };
            raw |= (*b as u64) << (8 * i);
        }
        Some(CellContents { addr, value: Value::int(wrap_signed(raw as i128, c.bits)) })
    }

    /// Fixes every uninitialised byte of `[addr, addr+len)` to an input value (one `i8` input
    /// per byte), so that copies of it agree with the original.
    pub fn settle_range(&mut self, addr: u64, len: u64) -> Result<(), Fault> {
        let cells = self.memory.read(addr, len)?;
        if !cells.contains(&Cell::Uninit) {
            return Ok(());
        }
        let mut settled = Vec::with_capacity(cells.len());
        for c in cells {
            settled.push(match c {
                Cell::Uninit => Cell::Byte(to_unsigned(self.draw("uninit-read", 8, false)?, 8) as u8),
                other => other,
            });
        }
        self.memory.settle_uninit(addr, &settled)
    }

    /// Stores `v` of `ty` as `size` bytes at `addr`.
    pub fn store_value(&mut self, ty: &Type, v: Value, addr: u64, size: u64) -> Result<(), Fault> {
        let bits = self.bits_of(ty)?;
        if size * 8 < bits as u64 || size > 8 {
            return Err(Fault::unsupported(format!("store of {bits}-bit value into {size} bytes")));
        }
        let cells: Vec<Cell> = if v.poison {
            vec![Cell::Poison; size as usize]
        } else {
            if self.sem() == IntSemantics::Math && !fits_signed(v.int, bits) {
                return Err(Fault::unsupported(format!("store of mathematical value {} outside the {bits}-bit range", v.int)));
            }
            let raw = to_unsigned(v.int, bits) as u64;
            (0..size).map(|i| Cell::Byte(((raw >> (8 * i)) & 0xff) as u8)).collect()
        };
        self.memory.write(addr, &cells)
    }

    // ----- instructions -------------------------------------------------------------------

    fn exec_instr(&mut self, instr: &'a Instr) -> Step {
        let sem = self.sem();
        let v = match &instr.op {
            Op::Alloca { elem_size, count, count_bits } => {
                let c = self.eval(count)?;
                if c.poison {
                    return Err(Fault::ub("alloca with a poison element count"));
                }
                // the count is unsigned; under `Math` its unsigned reading (SEMANTICS.md)
                let cb = (*count_bits).clamp(1, 64);
                let n = if sem == IntSemantics::Math { math_unsigned(c.int, cb) } else { to_unsigned(c.int, cb) };
                let n = u64::try_from(n).map_err(|_| Fault::unsupported("alloca element count beyond 64 bits"))?;
                let size = elem_size.checked_mul(n).ok_or_else(|| Fault::unsupported("alloca size overflows"))?;
                let base = self.memory.allocate(size, AllocKind::Stack, Cell::Uninit)?;
                if let Some(top) = self.frames.last_mut() {
                    top.allocas.push(base);
                    let func = self.module.function(top.func);
                    if let Some(Some(name)) = instr.result.and_then(|r| func.value_names.get(r.0 as usize)) {
                        self.memory.name_block(base, name.clone());
                    }
                }
                Value::int(base as i128)
            }
            Op::Load { ty, ptr, size } => {
                let addr = self.eval_address(ptr, "load")?;
                self.load_value(ty, addr, *size)?
            }
            Op::Store { ty, value, ptr, size } => {
                let v = self.eval(value)?;
                let addr = self.eval_address(ptr, "store")?;
                self.store_value(ty, v, addr, *size)?;
                self.advance();
                return Ok(None);
            }
            Op::PtrAdd { base, offset, indices, .. } => {
                let b = self.eval(base)?;
                let mut poison = b.poison;
                let mut sum = b.int.checked_add(*offset);
                for idx in indices {
                    let i = self.eval(&idx.value)?;
                    poison |= i.poison;
                    let iv = if sem == IntSemantics::Math { i.int } else { wrap_signed(i.int, idx.bits) };
                    sum = sum.and_then(|s| iv.checked_mul(idx.scale).and_then(|t| s.checked_add(t)));
                }
                let sum = sum.ok_or_else(|| Fault::unsupported("address arithmetic beyond i128"))?;
                if poison { Value::poison() } else { Value::int(wrap_signed(sum, self.pointer_bits())) }
            }
            Op::Bin { op, flags, bits, lhs, rhs } => {
                let (a, b) = (self.eval(lhs)?, self.eval(rhs)?);
                let v = arith::binary(*op, *flags, *bits, a, b, sem)?;
                if v.poison && !a.poison && !b.poison {
                    let mut name = format!("{op:?}").to_lowercase();
                    for (set, flag) in [(flags.nsw, "nsw"), (flags.nuw, "nuw"), (flags.exact, "exact"), (flags.disjoint, "disjoint")] {
                        if set {
                            name.push(' ');
                            name.push_str(flag);
                        }
                    }
                    self.note_poison(&format!("`{name}` on i{bits} values {} and {} (overflow or inexact result){}", a.int, b.int, loc_text(&instr.loc)));
                }
                v
            }
            Op::ICmp { pred, bits, lhs, rhs } => {
                let (a, b) = (self.eval(lhs)?, self.eval(rhs)?);
                arith::compare(*pred, *bits, a, b, sem)?
            }
            Op::Cast { op, from_bits, to_bits, value } => {
                let v = self.eval(value)?;
                arith::cast(*op, *from_bits, *to_bits, v, sem)?
            }
            Op::Select { cond, then_value, else_value, .. } => {
                let c = self.eval(cond)?;
                if c.poison {
                    Value::poison()
                } else if to_unsigned(c.int, 1) != 0 {
                    self.eval(then_value)?
                } else {
                    self.eval(else_value)?
                }
            }
            Op::Phi { .. } => return Err(Fault::unsupported("phi after the start of a block")),
            Op::LandingPad { .. } => {
                // the exception in flight, `{ptr, i32}`: the front end keeps only cleanup-only
                // landing pads, whose code just hands these fields on to `resume` (nothing
                // branches on them), so any fixed value is exact
                self.set_aggregate(instr.result, vec![Some(Value::int(0)), Some(Value::int(0))])?;
                self.advance();
                return Ok(None);
            }
            Op::Call { callee, args, ret } => return self.exec_call(instr, callee, args, ret),
            Op::Freeze { ty, value } => {
                let v = self.eval(value)?;
                if v.poison {
                    let bits = self.bits_of(ty)?;
                    Value::int(self.draw("freeze", bits, false)?)
                } else {
                    v
                }
            }
            Op::ExtractValue { agg, indices, ty } => {
                let [k] = indices.as_slice() else {
                    return Err(Fault::unsupported("extractvalue with nested indices"));
                };
                match agg {
                    Operand::Poison(_) => Value::poison(),
                    Operand::Undef(_) => {
                        let bits = self.bits_of(ty)?;
                        Value::int(self.draw("undef", bits, false)?)
                    }
                    Operand::Local(ValueId(a)) => self
                        .frames
                        .last()
                        .and_then(|f| f.aggregates.get(a))
                        .and_then(|fields| fields.get(*k as usize).copied().flatten())
                        .ok_or_else(|| Fault::unsupported(format!("extractvalue of an unknown field {k} of %{a}")))?,
                    other => return Err(Fault::unsupported(format!("extractvalue of {other:?}"))),
                }
            }
            Op::InsertValue { agg, value, indices, .. } => {
                let [k] = indices.as_slice() else {
                    return Err(Fault::unsupported("insertvalue with nested indices"));
                };
                let mut fields = match agg {
                    Operand::Undef(_) | Operand::Poison(_) => Vec::new(),
                    Operand::Local(ValueId(a)) => self
                        .frames
                        .last()
                        .and_then(|f| f.aggregates.get(a))
                        .cloned()
                        .ok_or_else(|| Fault::unsupported(format!("insertvalue into unknown aggregate %{a}")))?,
                    other => return Err(Fault::unsupported(format!("insertvalue into {other:?}"))),
                };
                let v = self.eval(value)?;
                if fields.len() <= *k as usize {
                    fields.resize(*k as usize + 1, None);
                }
                fields[*k as usize] = Some(v);
                self.set_aggregate(instr.result, fields)?;
                self.advance();
                return Ok(None);
            }
            Op::Unsupported { text } => return Err(Fault::unsupported(format!("instruction {text}"))),
            #[allow(unreachable_patterns)]
            other => return Err(Fault::unsupported(format!("instruction {other:?}"))),
        };
        self.set(instr.result, v)?;
        self.advance();
        Ok(None)
    }

    fn exec_call(&mut self, instr: &'a Instr, callee: &'a Callee, args: &'a [Operand], ret: &'a Type) -> Step {
        let target = match callee {
            Callee::Direct(f) if (f.0 as usize) < self.module.functions.len() => *f,
            Callee::Direct(f) => return Err(Fault::unsupported(format!("call of missing function #{}", f.0))),
            Callee::Indirect(o) => {
                let a = self.eval_address(o, "call")?;
                let slot = a.wrapping_sub(FUNCTION_BASE);
                if a < FUNCTION_BASE || slot % 16 != 0 || (slot / 16) as usize >= self.module.functions.len() {
                    return Err(Fault::unsupported(format!("indirect call to {a:#x}, which is not a function address")));
                }
                FuncId((slot / 16) as u32)
            }
            Callee::Unsupported(text) => return Err(Fault::unsupported(format!("callee {text}"))),
        };
        let func = self.module.function(target);
        if func.is_declaration() && classify(&func.name) == (External::Panic { unwinds: true }) {
            return self.unwind(true);
        }
        if func.is_declaration() && matches!(classify(&func.name), External::Arith { kind: ArithKind::WithOverflow, .. }) {
            let fields = self.with_overflow(&func.name, args)?;
            self.set_aggregate(instr.result, fields.into_iter().map(Some).collect())?;
            self.advance();
            return Ok(None);
        }
        if func.is_declaration() {
            let fresh_from = self.memory.next_address;
            let v = self.call_external(&func.name, func, args, ret)?;
            if let Some(base) = v.as_ref().and_then(|v| u64::try_from(v.int).ok()).filter(|b| *b >= fresh_from) {
                self.name_heap_block(base, &func.name, instr);
            }
            if let Some(r) = instr.result {
                let v = match v {
                    Some(v) => v,
                    // A void library function called through an implicit `int f()` declaration
                    // (old C): the "result" is whatever is in the register, an arbitrary value.
                    None => {
                        let bits = self.bits_of(ret)?;
                        Value::int(self.draw(&format!("{} result", func.name), bits, false)?)
                    }
                };
                self.set(Some(r), v)?;
            }
            self.advance();
            return Ok(None);
        }
        if func.params.len() != args.len() {
            return Err(Fault::unsupported(format!("call of {} with {} arguments for {} parameters", func.name, args.len(), func.params.len())));
        }
        let mut vals = Vec::with_capacity(args.len());
        for a in args {
            vals.push(self.eval(a)?);
        }
        if self.frames.len() >= self.cfg.limits.max_call_depth {
            return Ok(Some(Outcome::DepthLimit));
        }
        self.push_frame(target, vals)
    }

    /// Names the heap block a library call (`malloc`, `calloc`, `realloc`, …) just allocated
    /// at `base`: the allocation site and, when debug info ties the call's result to a source
    /// variable, that variable (issue 13: violations name `p[4]` of a heap block as of an array).
    fn name_heap_block(&mut self, base: u64, callee: &str, instr: &Instr) {
        if self.memory.live_heap_block(base).is_none() {
            return;
        }
        let site = match &instr.loc {
            Some(l) => format!("`{callee}` at {}:{}", l.file, l.line),
            None => format!("`{callee}`"),
        };
        self.memory.note_site(base, site);
        let func = self.frames.last().map(|top| self.module.function(top.func));
        let name = func.zip(instr.result).and_then(|(f, r)| f.value_names.get(r.0 as usize).cloned().flatten());
        // LLVM's own names of call results (`call`, `call3`) say nothing about the source
        if let Some(name) = name.filter(|n| !n.strip_prefix("call").is_some_and(|d| d.chars().all(|c| c.is_ascii_digit()))) {
            self.memory.name_block(base, name);
        }
    }

    fn push_frame(&mut self, f: FuncId, args: Vec<Value>) -> Step {
        let func = self.module.function(f);
        let mut regs = vec![None; func.num_values as usize];
        for ((ValueId(p), _), v) in func.params.iter().zip(args) {
            let slot = regs.get_mut(*p as usize).ok_or_else(|| Fault::unsupported("parameter register out of range"))?;
            *slot = Some(v);
        }
        self.pushed += 1;
        self.frames.push(Frame { func: f, block: BlockId(0), ip: 0, regs, allocas: Vec::new(), aggregates: Default::default(), serial: self.pushed });
        Ok(self.arrived())
    }

    // ----- terminators --------------------------------------------------------------------

    fn exec_terminator(&mut self, t: &'a Terminator) -> Step {
        match t {
            Terminator::Br(b) => self.jump(*b),
            Terminator::CondBr { cond, then_block, else_block } => {
                let c = self.eval(cond)?;
                if c.poison {
                    return Err(Fault::ub("branch on a poison value (e.g. the result of a signed overflow)"));
                }
                self.jump(if to_unsigned(c.int, 1) != 0 { *then_block } else { *else_block })
            }
            Terminator::Switch { value, bits, default, cases } => {
                let v = self.eval(value)?;
                if v.poison {
                    return Err(Fault::ub("switch on a poison value"));
                }
                let x = if self.sem() == IntSemantics::Math { v.int } else { wrap_signed(v.int, *bits) };
                let target = cases.iter().find(|(c, _)| wrap_signed(*c, *bits) == x).map(|(_, b)| *b).unwrap_or(*default);
                self.jump(target)
            }
            Terminator::Ret(Some(o)) if self.frames.len() > 1 && self.aggregate_of(o).is_some() => {
                // an aggregate (a pair returned by a function): its fields become the caller's
                let fields = self.aggregate_of(o);
                self.do_return(None, fields)
            }
            Terminator::Ret(v) => {
                let v = match v {
                    Some(o) => Some(self.eval(o)?),
                    None => None,
                };
                self.do_return(v, None)
            }
            Terminator::Unreachable => Err(Fault::ub("reached an `unreachable` instruction")),
            // reached only when the invoked call returned normally
            Terminator::Invoke { normal, .. } => self.jump(*normal),
            Terminator::Resume(_) => self.unwind(false),
            Terminator::Unsupported { text } => Err(Fault::unsupported(format!("terminator {text}"))),
        }
    }

    /// `jump` for the Rust runtime's unwinding.
    pub(super) fn jump_to(&mut self, target: BlockId) -> Step {
        self.jump(target)
    }

    /// The fields of an aggregate register operand, if it is one.
    fn aggregate_of(&self, o: &Operand) -> Option<Vec<Option<Value>>> {
        let Operand::Local(ValueId(a)) = o else { return None };
        self.frames.last().and_then(|f| f.aggregates.get(a)).cloned()
    }

    fn do_return(&mut self, v: Option<Value>, aggregate: Option<Vec<Option<Value>>>) -> Step {
        let frame = self.frames.pop().ok_or_else(|| Fault::unsupported("return without frame"))?;
        for a in &frame.allocas {
            self.memory.kill(*a);
        }
        let Some(caller) = self.frames.last() else {
            if v.is_some_and(|v| v.poison) {
                self.frames.push(frame);
                return Err(Fault::ub("the entry function returns a poison value"));
            }
            return Ok(Some(Outcome::Returned(v.map(|v| v.int))));
        };
        let module = self.module;
        let instr = module
            .function(caller.func)
            .blocks
            .get(caller.block.0 as usize)
            .and_then(|b| b.instrs.get(caller.ip))
            .ok_or_else(|| Fault::unsupported("return to a missing call site"))?;
        if let (Some(r), Some(fields)) = (instr.result, aggregate) {
            self.set_aggregate(Some(r), fields)?;
        } else if let Some(r) = instr.result {
            let v = v.ok_or_else(|| Fault::unsupported("void return where the caller expects a value"))?;
            self.set(Some(r), v)?;
        }
        self.advance();
        Ok(None)
    }

    /// Moves the top frame to `target`, running its phis (all read before any is written).
    fn jump(&mut self, target: BlockId) -> Step {
        let module = self.module;
        let top = self.frames.last().ok_or_else(|| Fault::unsupported("no frame"))?;
        let func = module.function(top.func);
        let from = top.block;
        let block = func.blocks.get(target.0 as usize).ok_or_else(|| Fault::unsupported(format!("jump to missing block {}", target.0)))?;
        let mut assigned = Vec::new();
        let mut aggregates = Vec::new();
        let mut ip = 0;
        for instr in &block.instrs {
            let Op::Phi { incoming, .. } = &instr.op else { break };
            let (o, _) = incoming
                .iter()
                .find(|(_, b)| *b == from)
                .ok_or_else(|| Fault::unsupported(format!("phi in {} without a value for the predecessor", block.name)))?;
            match self.aggregate_of(o) {
                Some(fields) => aggregates.push((instr.result, fields)),
                None => assigned.push((instr.result, self.eval(o)?)),
            }
            ip += 1;
        }
        for (r, v) in assigned {
            self.set(r, v)?;
        }
        for (r, fields) in aggregates {
            self.set_aggregate(r, fields)?;
        }
        let top = self.frames.last_mut().ok_or_else(|| Fault::unsupported("no frame"))?;
        top.block = target;
        top.ip = ip;
        Ok(self.arrived())
    }

    /// Lasso check at a block entry of the top frame.
    fn arrived(&mut self) -> Option<Outcome> {
        if let (Some(obs), Some(top)) = (self.observer.as_deref(), self.frames.last()) {
            let cells = obs.cells(top.func, top.block).iter().map(|c| self.observe_cell(c)).collect();
            let entry = BlockEntry {
                func: top.func,
                block: top.block,
                depth: self.frames.len(),
                steps: self.steps,
                inputs_consumed: self.trace.len(),
                regs: top.regs.clone(),
                cells,
            };
            if let Some(obs) = self.observer.as_mut() {
                obs.block_entry(entry);
            }
        }
        if let Some(detector) = self.recursion.as_mut() {
            if let Some(repeat) = detector.at_block_entry(&self.frames, &self.memory, self.steps, self.trace.len()) {
                let top = self.frames.last()?;
                return Some(Outcome::RecursionLasso(RecursionLasso {
                    stem_steps: repeat.first_step,
                    cycle_steps: self.steps - repeat.first_step,
                    inputs_in_stem: repeat.first_inputs,
                    inputs_in_cycle: self.trace[repeat.first_inputs..].to_vec(),
                    function: self.module.function(top.func).name.clone(),
                    first_depth: repeat.first_depth,
                    depth: self.frames.len(),
                }));
            }
        }
        let lasso = self.lasso.as_mut()?;
        let repeat = lasso.at_block_entry(self.module, self.facts, &self.frames, &self.memory, self.steps, self.trace.len())?;
        let top = self.frames.last()?;
        let func = self.module.function(top.func);
        Some(Outcome::Lasso(Lasso {
            stem_steps: repeat.first_step,
            cycle_steps: self.steps - repeat.first_step,
            inputs_in_stem: repeat.first_inputs,
            inputs_in_cycle: self.trace[repeat.first_inputs..].to_vec(),
            function: func.name.clone(),
            block: func.blocks.get(top.block.0 as usize).map(|b| b.name.clone()).unwrap_or_default(),
        }))
    }
}

fn loc_text(loc: &Option<crate::ir::SrcLoc>) -> String {
    loc.as_ref().map(|l| format!(" at {}:{}:{}", l.file, l.line, l.col)).unwrap_or_default()
}
