//! Library functions and intrinsics the interpreter knows by name. Every other external
//! function stops the run with `Unsupported` (its behaviour is unknown, so no guess).
//!
//! Choices shared with the symbolic executor: `malloc`/`calloc`/`realloc` never fail (a run
//! where they succeed is a real run, so witnesses stay valid); zero-byte requests give a
//! unique block no access may touch; `free(NULL)` does nothing.

use super::arith;
use super::fault::{kind, Fault};
use super::machine::Machine;
use super::memory::{Access, AllocKind, Cell};
use super::value::{to_unsigned, Value};
use crate::ir::externals::{classify, ArithKind, ArithOp, External, NoOp};
use crate::ir::{Function, Operand, Type};

/// Base of the fake addresses `llvm.stacksave` hands out (never readable memory).
const STACK_TOKEN_BASE: u64 = 1 << 45;

impl<'a> Machine<'a> {
    /// An argument that must not be poison (passing poison to a library function is UB).
    pub(super) fn arg(&mut self, name: &str, args: &[Operand], i: usize) -> Result<Value, Fault> {
        let o = args.get(i).ok_or_else(|| Fault::unsupported(format!("{name} called with too few arguments")))?;
        let v = self.eval(o)?;
        if v.poison {
            return Err(Fault::ub(format!("poison argument {} to {name}", i + 1)));
        }
        Ok(v)
    }

    /// An unsigned size argument (width from the declaration, else the pointer width).
    fn size_arg(&mut self, name: &str, decl: &Function, args: &[Operand], i: usize) -> Result<u64, Fault> {
        let bits = decl.params.get(i).and_then(|(_, t)| t.int_bits()).unwrap_or(self.pointer_bits()).clamp(1, 64);
        let v = self.arg(name, args, i)?;
        // under `Math` the unsigned reading of a mathematical value (SEMANTICS.md)
        let n = if self.sem() == crate::verdict::IntSemantics::Math { super::value::math_unsigned(v.int, bits) } else { to_unsigned(v.int, bits) };
        u64::try_from(n).map_err(|_| Fault::unsupported(format!("size argument of {name} beyond 64 bits")))
    }

    pub(super) fn size_arg_of(&mut self, name: &str, decl: &Function, args: &[Operand], i: usize) -> Result<u64, Fault> {
        self.size_arg(name, decl, args, i)
    }

    pub(super) fn ptr_arg_of(&mut self, name: &str, args: &[Operand], i: usize) -> Result<u64, Fault> {
        self.ptr_arg(name, args, i)
    }

    fn ptr_arg(&mut self, name: &str, args: &[Operand], i: usize) -> Result<u64, Fault> {
        Ok(to_unsigned(self.arg(name, args, i)?.int, 64) as u64)
    }

    /// Calls the external function `name`; returns its value (if any).
    pub(super) fn call_external(&mut self, name: &str, decl: &Function, args: &[Operand], ret: &Type) -> Result<Option<Value>, Fault> {
        let external = classify(name);
        match external {
            // Intrinsics without an effect on the values the interpreter tracks; other
            // `llvm.experimental.*` are unknown here (as before the classifier existed).
            External::NoOp(no_op) if no_op != NoOp::OtherExperimental => Ok(None),
            External::Exit => Err(Fault::Exited(name.to_string())),
            External::Panic { unwinds: false } => Err(Fault::Exited(name.to_string())),
            External::RustAlloc(op) => self.rust_alloc(name, op, decl, args),
            External::Nondet { type_name, .. } => {
                let bits = self.bits_of(ret)?;
                // The interpreter's own signedness rule (differs from the classifier's for
                // `ssize_t` and `char_unsigned`; kept as it was).
                let unsigned = type_name.starts_with('u') || type_name.contains("bool") || type_name.contains("size") || *ret == Type::Ptr;
                Ok(Some(Value::int(self.draw(name, bits, unsigned)?)))
            }
            External::VerifierAssume => {
                let c = self.arg(name, args, 0)?;
                if c.int == 0 {
                    return Err(Fault::Blocked);
                }
                Ok(None)
            }
            External::Assume => {
                let c = self.eval(args.first().ok_or_else(|| Fault::unsupported("llvm.assume without argument"))?)?;
                if c.poison || to_unsigned(c.int, 1) == 0 {
                    return Err(Fault::ub("llvm.assume of a false condition"));
                }
                Ok(None)
            }
            External::Malloc => {
                let n = self.size_arg(name, decl, args, 0)?;
                Ok(Some(Value::int(self.memory.allocate(n, AllocKind::Heap, Cell::Uninit)? as i128)))
            }
            External::Calloc => {
                let n = self.size_arg(name, decl, args, 0)?;
                let m = self.size_arg(name, decl, args, 1)?;
                let size = n.checked_mul(m).ok_or_else(|| Fault::unsupported("calloc size overflows"))?;
                Ok(Some(Value::int(self.memory.allocate(size, AllocKind::Heap, Cell::Byte(0))? as i128)))
            }
            External::Free => {
                let p = self.ptr_arg(name, args, 0)?;
                if p != 0 {
                    self.memory.free(p)?;
                }
                Ok(None)
            }
            External::Realloc => self.realloc(name, decl, args).map(Some),
            External::MemSet { .. } => {
                let dst = self.ptr_arg(name, args, 0)?;
                let byte = self.arg(name, args, 1)?.int;
                let len = self.size_arg(name, decl, args, 2)?;
                if len > 0 {
                    self.memory.check(dst, len, Access::Write)?;
                    self.memory.write(dst, &vec![Cell::Byte((byte & 0xff) as u8); len as usize])?;
                }
                Ok((*ret != Type::Void).then_some(Value::int(dst as i128)))
            }
            External::MemCpy { .. } | External::MemMove { .. } => {
                let dst = self.ptr_arg(name, args, 0)?;
                let src = self.ptr_arg(name, args, 1)?;
                let len = self.size_arg(name, decl, args, 2)?;
                if len > 0 {
                    self.settle_range(src, len)?;
                    let cells = self.memory.read(src, len)?;
                    self.memory.check(dst, len, Access::Write)?;
                    let overlap = dst < src + len && src < dst + len && dst != src;
                    if matches!(external, External::MemCpy { .. }) && overlap {
                        return Err(Fault::ub(format!("{name} with overlapping regions")));
                    }
                    self.memory.write(dst, &cells)?;
                }
                Ok((*ret != Type::Void).then_some(Value::int(dst as i128)))
            }
            External::Strlen => {
                let s = self.ptr_arg(name, args, 0)?;
                let n = self.c_string(name, s)?.len();
                Ok(Some(Value::int(n as i128)))
            }
            External::Bits(op) => self.bit_intrinsic(name, op, args, ret).map(Some),
            External::Output(f) => self.output(name, f, args, ret),
            External::MemRead(f) => self.mem_read(name, f, decl, args).map(Some),
            External::MinMax(mm) => {
                let bits = self.bits_of(ret)?;
                let a = self.eval(args.first().ok_or_else(|| Fault::unsupported("min/max arity"))?)?;
                let b = self.eval(args.get(1).ok_or_else(|| Fault::unsupported("min/max arity"))?)?;
                Ok(Some(arith::min_max(mm, bits, a, b, self.sem())?))
            }
            External::Abs => {
                let bits = self.bits_of(ret)?;
                let x = self.eval(args.first().ok_or_else(|| Fault::unsupported("abs arity"))?)?;
                let flag = match args.get(1) {
                    Some(Operand::Int { value, .. }) => *value != 0,
                    _ => return Err(Fault::unsupported("llvm.abs with a non-constant flag")),
                };
                let v = arith::abs(bits, x, flag, self.sem())?;
                if v.poison && !x.poison {
                    self.note_poison("llvm.abs of the minimum value");
                }
                Ok(Some(v))
            }
            External::StackSave => {
                let top = self.frames.last().ok_or_else(|| Fault::unsupported("no frame"))?;
                let token = STACK_TOKEN_BASE + ((self.frames.len() as u64) << 24) + top.allocas.len() as u64;
                Ok(Some(Value::int(token as i128)))
            }
            External::StackRestore => {
                let t = self.ptr_arg(name, args, 0)?;
                let depth = self.frames.len() as u64;
                if t < STACK_TOKEN_BASE || (t - STACK_TOKEN_BASE) >> 24 != depth {
                    return Err(Fault::unsupported("llvm.stackrestore with a token from another frame"));
                }
                let keep = ((t - STACK_TOKEN_BASE) & 0xff_ffff) as usize;
                let top = self.frames.last_mut().ok_or_else(|| Fault::unsupported("no frame"))?;
                let dead: Vec<u64> = top.allocas.iter().skip(keep).copied().collect();
                top.allocas.truncate(keep.min(top.allocas.len()));
                for a in dead {
                    self.memory.kill(a);
                }
                Ok(None)
            }
            _ => Err(Fault::unsupported(format!("call to unknown external function {name}"))),
        }
    }

    /// `llvm.{s,u}{add,sub,mul}.with.overflow.iN(a, b)`: `{a op b wrapped, overflowed}`. These
    /// back `__builtin_*_overflow`, whose overflow check is defined C, so they use bit-vector
    /// semantics in every mode (a `Math`-mode operand outside the width is reduced first).
    pub(super) fn with_overflow(&mut self, name: &str, args: &[Operand]) -> Result<Vec<Value>, Fault> {
        let External::Arith { op, signed, kind: ArithKind::WithOverflow, bits } = classify(name) else {
            return Err(Fault::unsupported(format!("intrinsic {name}")));
        };
        let bits: u32 = bits.filter(|b| (1..=super::value::MAX_BITS).contains(b)).ok_or_else(|| Fault::unsupported(format!("intrinsic {name}")))?;
        let a = self.eval(args.first().ok_or_else(|| Fault::unsupported("with.overflow arity"))?)?;
        let b = self.eval(args.get(1).ok_or_else(|| Fault::unsupported("with.overflow arity"))?)?;
        if a.poison || b.poison {
            return Ok(vec![Value::poison(), Value::poison()]);
        }
        let (sa, sb) = (super::value::wrap_signed(a.int, bits), super::value::wrap_signed(b.int, bits));
        let (ua, ub) = (to_unsigned(sa, bits), to_unsigned(sb, bits));
        let (exact, unsigned_exact) = match op {
            ArithOp::Add => (sa + sb, ua + ub),
            ArithOp::Sub => (sa - sb, ua - ub),
            ArithOp::Mul => (sa * sb, ua.checked_mul(ub).unwrap_or(i128::MAX)),
        };
        let wrapped = super::value::wrap_signed(exact, bits);
        let overflow = if signed {
            wrapped != exact
        } else {
            !(0..(1i128 << bits)).contains(&unsigned_exact)
        };
        Ok(vec![Value::int(wrapped), Value::bool(overflow)])
    }

    fn realloc(&mut self, name: &str, decl: &Function, args: &[Operand]) -> Result<Value, Fault> {
        let p = self.ptr_arg(name, args, 0)?;
        let n = self.size_arg(name, decl, args, 1)?;
        if n == 0 {
            return Err(Fault::unsupported("realloc to 0 bytes (implementation-defined)"));
        }
        if p == 0 {
            return Ok(Value::int(self.memory.allocate(n, AllocKind::Heap, Cell::Uninit)? as i128));
        }
        let old = match self.memory.live_heap_block(p) {
            Some(b) => b.cells.clone(),
            None => {
                // Same classification as free of the pointer.
                self.memory.free(p)?;
                return Err(Fault::Violation { kind: kind::INVALID_FREE, message: format!("realloc of {p:#x}") });
            }
        };
        let q = self.memory.allocate(n, AllocKind::Heap, Cell::Uninit)?;
        let keep = (n as usize).min(old.len());
        if keep > 0 {
            self.memory.write(q, &old[..keep])?;
        }
        self.memory.free(p)?;
        Ok(Value::int(q as i128))
    }
}
