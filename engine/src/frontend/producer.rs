//! The producer of an LLVM bitcode file (`LLVM22.1.2-rust-1.95.0-stable`, `LLVM22.1.8`), read
//! from the bitcode's identification block before LLVM parses it, so that bitcode from a newer
//! LLVM gets a clear error instead of a parser failure deep inside the reader.
//!
//! The identification block (block id 13) is the first block of every bitcode file written by
//! LLVM ≥ 3.8. It holds a STRING record (code 1: the producer, written either unabbreviated —
//! rustc — or through a char6 array abbreviation — clang) and an EPOCH record. Only the
//! bitstream features that block can use are read: abbreviation definitions, unabbreviated and
//! abbreviated records (literal, fixed, VBR, array, char6 and blob operands).

/// The raw bitcode magic `BC 0xC0DE`.
const BITCODE_MAGIC: [u8; 4] = [0x42, 0x43, 0xC0, 0xDE];
/// The magic of the bitcode wrapper header (Darwin), little-endian `0x0B17C0DE`.
const WRAPPER_MAGIC: [u8; 4] = [0xDE, 0xC0, 0x17, 0x0B];
/// Block id of the identification block.
const IDENTIFICATION_BLOCK_ID: u64 = 13;
/// Record code of the producer string inside the identification block.
const PRODUCER_STRING_CODE: u64 = 1;

/// Whether `bytes` start like LLVM bitcode (raw or wrapped).
pub fn is_bitcode(bytes: &[u8]) -> bool {
    bytes.starts_with(&BITCODE_MAGIC) || bytes.starts_with(&WRAPPER_MAGIC)
}

/// The producer string of a bitcode file, or `None` when the file is not bitcode or has no
/// readable identification block.
pub fn bitcode_producer(bytes: &[u8]) -> Option<String> {
    let stream = if bytes.starts_with(&WRAPPER_MAGIC) {
        let word = |i: usize| -> Option<usize> { Some(u32::from_le_bytes(bytes.get(i..i + 4)?.try_into().ok()?) as usize) };
        let (offset, size) = (word(8)?, word(12)?);
        bytes.get(offset..offset.checked_add(size)?)?
    } else {
        bytes
    };
    if !stream.starts_with(&BITCODE_MAGIC) {
        return None;
    }
    let mut reader = BitReader { bytes: stream, bit: 32 };
    // Top level: abbreviation width 2, the first entry must enter the identification block.
    if reader.fixed(2)? != 1 || reader.vbr(8)? != IDENTIFICATION_BLOCK_ID {
        return None;
    }
    let width = reader.vbr(4)? as u32;
    reader.align32();
    let _length_in_words = reader.fixed(32)?;
    let mut abbreviations: Vec<Vec<AbbrevOp>> = Vec::new();
    loop {
        match reader.fixed(width)? {
            0 => return None, // END_BLOCK without a producer string
            1 => return None, // no sub-blocks in this block
            2 => abbreviations.push(read_abbreviation(&mut reader)?),
            3 => {
                let code = reader.vbr(6)?;
                let count = reader.vbr(6)?;
                let ops = (0..count).map(|_| reader.vbr(6)).collect::<Option<Vec<u64>>>()?;
                if code == PRODUCER_STRING_CODE {
                    return string_of(&ops);
                }
            }
            id => {
                let ops = abbreviations.get(usize::try_from(id - 4).ok()?)?.clone();
                let fields = read_abbreviated(&mut reader, &ops)?;
                if fields.first() == Some(&PRODUCER_STRING_CODE) {
                    return string_of(&fields[1..]);
                }
            }
        }
    }
}

/// The `(major, minor, patch)` LLVM version in a producer string (`LLVM22.1.2-rust-…`,
/// `LLVM22.1.8`, `LLVM 21.1.8-rust-1.94.0-stable`).
pub fn producer_llvm_version(producer: &str) -> Option<(u32, u32, u32)> {
    let rest = producer.strip_prefix("LLVM")?.trim_start();
    let numeric: String = rest.chars().take_while(|c| c.is_ascii_digit() || *c == '.').collect();
    let mut parts = numeric.split('.').filter(|p| !p.is_empty()).map(|p| p.parse::<u32>().ok());
    let major = parts.next()??;
    let minor = parts.next().flatten().unwrap_or(0);
    let patch = parts.next().flatten().unwrap_or(0);
    Some((major, minor, patch))
}

/// One operand of an abbreviation definition.
#[derive(Clone, Copy, Debug)]
enum AbbrevOp {
    Literal(u64),
    Fixed(u32),
    Vbr(u32),
    Array,
    Char6,
    Blob,
}

/// Reads a DEFINE_ABBREV body.
fn read_abbreviation(reader: &mut BitReader<'_>) -> Option<Vec<AbbrevOp>> {
    let count = reader.vbr(5)?;
    let mut ops = Vec::new();
    for _ in 0..count {
        if reader.fixed(1)? == 1 {
            ops.push(AbbrevOp::Literal(reader.vbr(8)?));
            continue;
        }
        ops.push(match reader.fixed(3)? {
            1 => AbbrevOp::Fixed(u32::try_from(reader.vbr(5)?).ok()?),
            2 => AbbrevOp::Vbr(u32::try_from(reader.vbr(5)?).ok()?),
            3 => AbbrevOp::Array,
            4 => AbbrevOp::Char6,
            5 => AbbrevOp::Blob,
            _ => return None,
        });
    }
    Some(ops)
}

/// Reads one scalar operand.
fn read_scalar(reader: &mut BitReader<'_>, op: AbbrevOp) -> Option<u64> {
    match op {
        AbbrevOp::Literal(v) => Some(v),
        AbbrevOp::Fixed(w) => reader.fixed(w),
        AbbrevOp::Vbr(w) => reader.vbr(w),
        AbbrevOp::Char6 => char6(reader.fixed(6)?).map(u64::from),
        AbbrevOp::Array | AbbrevOp::Blob => None,
    }
}

/// Reads the fields of a record written with the abbreviation `ops` (code first).
fn read_abbreviated(reader: &mut BitReader<'_>, ops: &[AbbrevOp]) -> Option<Vec<u64>> {
    let mut fields = Vec::new();
    let mut i = 0;
    while i < ops.len() {
        match ops[i] {
            AbbrevOp::Array => {
                let element = *ops.get(i + 1)?;
                let len = reader.vbr(6)?;
                for _ in 0..len {
                    fields.push(read_scalar(reader, element)?);
                }
                i += 2;
            }
            AbbrevOp::Blob => {
                let len = usize::try_from(reader.vbr(6)?).ok()?;
                reader.align32();
                for _ in 0..len {
                    fields.push(reader.fixed(8)?);
                }
                reader.align32();
                i += 1;
            }
            op => {
                fields.push(read_scalar(reader, op)?);
                i += 1;
            }
        }
    }
    Some(fields)
}

/// The character of a char6 code.
fn char6(code: u64) -> Option<u8> {
    let code = u8::try_from(code).ok()?;
    Some(match code {
        0..=25 => b'a' + code,
        26..=51 => b'A' + (code - 26),
        52..=61 => b'0' + (code - 52),
        62 => b'.',
        63 => b'_',
        _ => return None,
    })
}

/// A string from record operands holding one character each.
fn string_of(ops: &[u64]) -> Option<String> {
    let bytes = ops.iter().map(|&c| u8::try_from(c).ok()).collect::<Option<Vec<u8>>>()?;
    String::from_utf8(bytes).ok()
}

/// Reads an LLVM bitstream: bits are taken least significant first from each byte.
struct BitReader<'a> {
    bytes: &'a [u8],
    bit: usize,
}

impl BitReader<'_> {
    fn fixed(&mut self, width: u32) -> Option<u64> {
        if width > 64 {
            return None;
        }
        let mut value = 0u64;
        for i in 0..width {
            let byte = *self.bytes.get(self.bit / 8)?;
            value |= u64::from((byte >> (self.bit % 8)) & 1) << i;
            self.bit += 1;
        }
        Some(value)
    }

    fn vbr(&mut self, width: u32) -> Option<u64> {
        if !(2..=32).contains(&width) {
            return None;
        }
        let continuation = 1u64 << (width - 1);
        let mut value = 0u64;
        let mut shift = 0u32;
        loop {
            let chunk = self.fixed(width)?;
            value |= (chunk & (continuation - 1)).checked_shl(shift)?;
            if chunk & continuation == 0 {
                return Some(value);
            }
            shift += width - 1;
            if shift >= 64 {
                return None;
            }
        }
    }

    fn align32(&mut self) {
        self.bit = self.bit.div_ceil(32) * 32;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Writes bits least significant first, like LLVM's bitstream writer.
    #[derive(Default)]
    struct BitWriter {
        bytes: Vec<u8>,
        bit: usize,
    }

    impl BitWriter {
        fn fixed(&mut self, value: u64, width: u32) {
            for i in 0..width {
                if self.bit / 8 == self.bytes.len() {
                    self.bytes.push(0);
                }
                self.bytes[self.bit / 8] |= (((value >> i) & 1) as u8) << (self.bit % 8);
                self.bit += 1;
            }
        }
        fn vbr(&mut self, mut value: u64, width: u32) {
            let low = (1u64 << (width - 1)) - 1;
            loop {
                let chunk = value & low;
                value >>= width - 1;
                if value == 0 {
                    self.fixed(chunk, width);
                    return;
                }
                self.fixed(chunk | (low + 1), width);
            }
        }
        fn align32(&mut self) {
            while !self.bit.is_multiple_of(32) {
                self.fixed(0, 1);
            }
        }
    }

    /// A bitcode prefix with an identification block written unabbreviated (as rustc does) or
    /// through a char6 array abbreviation (as clang does).
    fn identification(producer: &str, abbreviated: bool) -> Vec<u8> {
        let mut w = BitWriter::default();
        for b in BITCODE_MAGIC {
            w.fixed(u64::from(b), 8);
        }
        w.fixed(1, 2); // ENTER_SUBBLOCK
        w.vbr(IDENTIFICATION_BLOCK_ID, 8);
        w.vbr(5, 4); // abbreviation width 5
        w.align32();
        w.fixed(0, 32); // length, unused by the reader
        if abbreviated {
            w.fixed(2, 5); // DEFINE_ABBREV [literal 1, array of char6]
            w.vbr(3, 5);
            w.fixed(1, 1);
            w.vbr(1, 8);
            w.fixed(0, 1);
            w.fixed(3, 3);
            w.fixed(0, 1);
            w.fixed(4, 3);
            w.fixed(4, 5); // the record, through abbreviation 4
            w.vbr(producer.len() as u64, 6);
            for c in producer.bytes() {
                let code = match c {
                    b'a'..=b'z' => c - b'a',
                    b'A'..=b'Z' => c - b'A' + 26,
                    b'0'..=b'9' => c - b'0' + 52,
                    b'.' => 62,
                    _ => 63,
                };
                w.fixed(u64::from(code), 6);
            }
        } else {
            w.fixed(3, 5); // UNABBREV_RECORD
            w.vbr(PRODUCER_STRING_CODE, 6);
            w.vbr(producer.len() as u64, 6);
            for c in producer.bytes() {
                w.vbr(u64::from(c), 6);
            }
        }
        w.fixed(0, 5); // END_BLOCK
        w.align32();
        w.bytes
    }

    #[test]
    fn reads_unabbreviated_and_char6_producers() {
        let rust = "LLVM22.1.2-rust-1.95.0-stable";
        assert_eq!(bitcode_producer(&identification(rust, false)).as_deref(), Some(rust));
        assert_eq!(bitcode_producer(&identification("LLVM22.1.8", true)).as_deref(), Some("LLVM22.1.8"));
    }

    #[test]
    fn non_bitcode_and_truncated_input_give_none() {
        assert_eq!(bitcode_producer(b"; ModuleID = 'x'\n"), None);
        let full = identification("LLVM22.1.8", true);
        assert_eq!(bitcode_producer(&full[..6]), None);
        assert!(is_bitcode(&full));
        assert!(!is_bitcode(b"define"));
    }

    #[test]
    fn versions_are_parsed_from_producers() {
        assert_eq!(producer_llvm_version("LLVM22.1.2-rust-1.95.0-stable"), Some((22, 1, 2)));
        assert_eq!(producer_llvm_version("LLVM22.1.8"), Some((22, 1, 8)));
        assert_eq!(producer_llvm_version("LLVM 21.1.8-rust-1.94.0-stable"), Some((21, 1, 8)));
        assert_eq!(producer_llvm_version("LLVM23"), Some((23, 0, 0)));
        assert_eq!(producer_llvm_version("APPLE_1_1600.0.26.3_0"), None);
    }
}
