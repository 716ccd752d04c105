//! The interpreter's exact rules for the bit intrinsics (`llvm.ctlz`/`cttz`/`ctpop`/`bswap`/
//! `bitreverse`) and the libc functions that only read memory: the output functions
//! (`putchar`, `puts`, `printf` in the subset of `ir::format_string`) and `memcmp`, `strcmp`,
//! `strncmp`, `memchr`. Every byte they read must be readable (a fault otherwise, like a
//! load); they never write the program's memory. Return values are glibc's on x86-64:
//! `putchar(c)` gives `(unsigned char)c`, `puts(s)` `strlen(s) + 1`, `printf` the number of
//! characters printed, the comparisons the difference of the first differing bytes (as
//! `unsigned char`), so that a replayed run is a run of the program linked with glibc.

use super::fault::Fault;
use super::machine::Machine;
use super::value::{fits_signed, to_unsigned, unsigned_max, wrap_signed, Value};
use crate::ir::externals::{BitOp, MemRead, OutputFn};
use crate::ir::format_string::{self, Conversion};
use crate::ir::{Function, Operand, Type};
use crate::verdict::IntSemantics;

/// `op` on the `bits`-wide reading `u` of the operand (`u` in `[0, 2^bits)`), `None` when the
/// result is poison (a zero operand of `ctlz`/`cttz` with the poison flag set).
pub(crate) fn bit_op(op: BitOp, bits: u32, u: u128, zero_is_poison: bool) -> Option<u128> {
    let lead = 128 - bits;
    Some(match op {
        BitOp::Ctlz | BitOp::Cttz if u == 0 && zero_is_poison => return None,
        BitOp::Ctlz => u128::from(u.leading_zeros() - lead),
        BitOp::Cttz => u128::from(u.trailing_zeros().min(bits)),
        BitOp::Ctpop => u128::from(u.count_ones()),
        BitOp::Bswap => (u << lead).swap_bytes(),
        BitOp::Bitreverse => (u << lead).reverse_bits(),
    })
}

impl Machine<'_> {
    /// `llvm.ctlz` & co. on the first argument, at the width of the result.
    pub(super) fn bit_intrinsic(&mut self, name: &str, op: BitOp, args: &[Operand], ret: &Type) -> Result<Value, Fault> {
        let bits = self.bits_of(ret)?;
        if op == BitOp::Bswap && bits % 16 != 0 {
            return Err(Fault::unsupported(format!("{name} of a width that is not a multiple of 16")));
        }
        let x = self.eval(args.first().ok_or_else(|| Fault::unsupported(format!("{name} without argument")))?)?;
        if x.poison {
            return Ok(Value::poison());
        }
        // `Math`: a value outside the type's range has no bit pattern of this width
        if self.sem() == IntSemantics::Math && !(fits_signed(x.int, bits) || (0..=unsigned_max(bits)).contains(&x.int)) {
            return Err(Fault::unsupported(format!("{name} of a mathematical integer outside {bits} bits")));
        }
        let zero_is_poison = match (op, args.get(1)) {
            (BitOp::Ctlz | BitOp::Cttz, Some(Operand::Int { value, .. })) => *value & 1 == 1,
            (BitOp::Ctlz | BitOp::Cttz, _) => return Err(Fault::unsupported(format!("{name} with a non-constant flag"))),
            _ => false,
        };
        let u = to_unsigned(x.int, bits) as u128;
        match bit_op(op, bits, u, zero_is_poison) {
            None => {
                self.note_poison(&format!("{name} of zero"));
                Ok(Value::poison())
            }
            Some(r) => Ok(Value::int(wrap_signed(r as i128, bits))),
        }
    }

    /// The bytes of the nul-terminated string at `p` (without the nul); every byte must be
    /// readable and not poison.
    pub(super) fn c_string(&mut self, name: &str, p: u64) -> Result<Vec<u8>, Fault> {
        let mut bytes = vec![];
        loop {
            let c = self.read_byte(name, p.wrapping_add(bytes.len() as u64))?;
            if c == 0 {
                return Ok(bytes);
            }
            bytes.push(c);
        }
    }

    fn read_byte(&mut self, name: &str, at: u64) -> Result<u8, Fault> {
        let c = self.load_value(&Type::Int(8), at, 1)?;
        if c.poison {
            return Err(Fault::ub(format!("{name} reads a poison byte")));
        }
        Ok(to_unsigned(c.int, 8) as u8)
    }

    /// `putchar`, `puts`, `printf`: read their strings, write nothing, return what glibc does.
    pub(super) fn output(&mut self, name: &str, f: OutputFn, args: &[Operand], ret: &Type) -> Result<Option<Value>, Fault> {
        let count: i128 = match f {
            OutputFn::Putchar => {
                let c = self.arg(name, args, 0)?;
                return Ok(Some(Value::int(to_unsigned(c.int, 8))));
            }
            OutputFn::Puts => {
                let p = self.ptr_arg_of(name, args, 0)?;
                self.c_string(name, p)?.len() as i128 + 1
            }
            OutputFn::Printf => {
                let p = self.ptr_arg_of(name, args, 0)?;
                let text = self.c_string(name, p)?;
                let format = format_string::parse(&text, self.pointer_bits()).map_err(|e| Fault::unsupported(e.to_string()))?;
                let mut n = i128::from(format.literal_len);
                for (i, c) in format.conversions.iter().enumerate() {
                    n += match *c {
                        Conversion::Char => 1,
                        Conversion::Str => {
                            let s = self.ptr_arg_of(name, args, i + 1)?;
                            self.c_string(name, s)?.len() as i128
                        }
                        Conversion::Signed { bits } => {
                            let v = self.arg(name, args, i + 1)?;
                            i128::from(format_string::integer_len(wrap_signed(v.int, bits), 10))
                        }
                        Conversion::Unsigned { bits, radix } => {
                            let v = self.arg(name, args, i + 1)?;
                            i128::from(format_string::integer_len(to_unsigned(v.int, bits), radix))
                        }
                    };
                }
                n
            }
        };
        if count > i128::from(i32::MAX) {
            return Err(Fault::unsupported(format!("{name} prints more than INT_MAX characters")));
        }
        Ok((*ret != Type::Void).then_some(Value::int(count)))
    }

    /// `memcmp`, `strcmp`, `strncmp`, `memchr`: read at most what the C standard lets them
    /// read (up to the first difference, nul or match), every such byte must be readable.
    pub(super) fn mem_read(&mut self, name: &str, f: MemRead, decl: &Function, args: &[Operand]) -> Result<Value, Fault> {
        let a = self.ptr_arg_of(name, args, 0)?;
        match f {
            MemRead::Memchr => {
                let c = to_unsigned(self.arg(name, args, 1)?.int, 8) as u8;
                let n = self.size_arg_of(name, decl, args, 2)?;
                for i in 0..n {
                    if self.read_byte(name, a.wrapping_add(i))? == c {
                        return Ok(Value::int(i128::from(a.wrapping_add(i))));
                    }
                }
                Ok(Value::int(0))
            }
            MemRead::Memcmp | MemRead::Strcmp | MemRead::Strncmp => {
                let b = self.ptr_arg_of(name, args, 1)?;
                let limit = match f {
                    MemRead::Strcmp => u64::MAX,
                    _ => self.size_arg_of(name, decl, args, 2)?,
                };
                let stops_at_nul = f != MemRead::Memcmp;
                let mut i = 0;
                while i < limit {
                    let (x, y) = (self.read_byte(name, a.wrapping_add(i))?, self.read_byte(name, b.wrapping_add(i))?);
                    if x != y {
                        return Ok(Value::int(i128::from(x) - i128::from(y)));
                    }
                    if stops_at_nul && x == 0 {
                        break;
                    }
                    i += 1;
                }
                Ok(Value::int(0))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bit_operations_at_their_width() {
        assert_eq!(bit_op(BitOp::Ctlz, 32, 1, false), Some(31));
        assert_eq!(bit_op(BitOp::Ctlz, 32, 0, false), Some(32));
        assert_eq!(bit_op(BitOp::Ctlz, 32, 0, true), None);
        assert_eq!(bit_op(BitOp::Cttz, 8, 0, false), Some(8));
        assert_eq!(bit_op(BitOp::Cttz, 8, 0b1000, true), Some(3));
        assert_eq!(bit_op(BitOp::Ctpop, 16, 0xffff, false), Some(16));
        assert_eq!(bit_op(BitOp::Bswap, 32, 0x1234_5678, false), Some(0x7856_3412));
        assert_eq!(bit_op(BitOp::Bswap, 16, 0x00ff, false), Some(0xff00));
        assert_eq!(bit_op(BitOp::Bitreverse, 8, 0b0000_0001, false), Some(0b1000_0000));
        assert_eq!(bit_op(BitOp::Bitreverse, 64, 1, false), Some(1 << 63));
    }
}
