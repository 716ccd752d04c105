//! Rust's runtime as the interpreter runs it: the global allocator's entry points and
//! unwinding (panics, `resume`, `invoke`'s unwind edge). The same semantics as the symbolic
//! executor's (`symexec::rust_alloc`, `symexec::exec::unwind`), except that allocation never
//! fails here (a run where it succeeds is a real run, so witnesses stay valid).

use super::fault::{kind, Fault};
use super::machine::{Machine, Step};
use super::memory::{AllocKind, Cell};
use super::outcome::Outcome;
use crate::ir::externals::RustAlloc;
use crate::ir::{Function, Operand, Terminator};

impl Machine<'_> {
    /// A call of the allocator entry point `op`; returns its value (if any).
    pub(super) fn rust_alloc(&mut self, name: &str, op: RustAlloc, decl: &Function, args: &[Operand]) -> Result<Option<super::value::Value>, Fault> {
        use super::value::Value;
        match op {
            RustAlloc::NoAllocShim => Ok(None),
            RustAlloc::Alloc | RustAlloc::AllocZeroed => {
                let n = self.size_arg_of(name, decl, args, 0)?;
                if n == 0 {
                    return Err(Fault::ub(format!("{name} with size 0")));
                }
                let fill = if op == RustAlloc::AllocZeroed { Cell::Byte(0) } else { Cell::Uninit };
                Ok(Some(Value::int(self.memory.allocate(n, AllocKind::Heap, fill)? as i128)))
            }
            RustAlloc::Dealloc => {
                let p = self.ptr_arg_of(name, args, 0)?;
                let n = self.size_arg_of(name, decl, args, 1)?;
                self.check_layout(name, p, n)?;
                self.memory.free(p)?;
                Ok(None)
            }
            RustAlloc::Realloc => {
                let p = self.ptr_arg_of(name, args, 0)?;
                let old = self.size_arg_of(name, decl, args, 1)?;
                let new = self.size_arg_of(name, decl, args, 3)?;
                self.check_layout(name, p, old)?;
                if new == 0 {
                    return Err(Fault::ub(format!("{name} to size 0")));
                }
                let cells = self.memory.live_heap_block(p).map(|b| b.cells.clone()).unwrap_or_default();
                let q = self.memory.allocate(new, AllocKind::Heap, Cell::Uninit)?;
                let keep = (new as usize).min(cells.len());
                if keep > 0 {
                    self.memory.write(q, &cells[..keep])?;
                }
                self.memory.free(p)?;
                Ok(Some(Value::int(q as i128)))
            }
        }
    }

    /// `GlobalAlloc`'s contract: `p` is a live heap block of exactly `size` bytes.
    fn check_layout(&mut self, name: &str, p: u64, size: u64) -> Result<(), Fault> {
        match self.memory.live_heap_block(p) {
            Some(b) if b.size == size => Ok(()),
            Some(b) => Err(Fault::Violation { kind: kind::INVALID_FREE, message: format!("{name} of {p:#x} with size {size}, allocated with {}", b.size) }),
            // not a live heap block: classified like `free` of it
            None => {
                self.memory.free(p)?;
                Err(Fault::Violation { kind: kind::INVALID_FREE, message: format!("{name} of {p:#x}") })
            }
        }
    }

    /// Unwinding from the call at the top frame's current instruction (`at_call`) or from the
    /// top frame itself (`resume`): to the unwind destination of the closest `invoke`, popping
    /// the frames it leaves; out of the entry function, the run ends (`Outcome::Exited` with
    /// "panic": a terminating run).
    pub(super) fn unwind(&mut self, mut at_call: bool) -> Step {
        loop {
            let top = self.frames.last().ok_or_else(|| Fault::unsupported("unwinding without frame"))?;
            if at_call {
                let block = self.module.function(top.func).blocks.get(top.block.0 as usize).ok_or_else(|| Fault::unsupported("missing block"))?;
                if let (true, Terminator::Invoke { unwind, .. }) = (top.ip + 1 == block.instrs.len(), &block.terminator) {
                    let target = *unwind;
                    return self.jump_to(target);
                }
            }
            if self.frames.len() == 1 {
                let name = self.module.function(top.func).name.clone();
                return Ok(Some(Outcome::Exited(format!("panic unwinding out of {name}"))));
            }
            let frame = self.frames.pop().ok_or_else(|| Fault::unsupported("unwinding without frame"))?;
            for a in &frame.allocas {
                self.memory.kill(*a);
            }
            at_call = true;
        }
    }
}
