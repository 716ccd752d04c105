//! The subset of `printf` format strings termcheck models: plain text, `%%`, and the
//! conversions `d i u x X o c s` with the length modifiers `hh h l ll z j t`. Anything else
//! (flags, width, precision, `%n`, `%p`, floating point) is `Unsupported`: its output
//! length or its effect (`%n` writes memory) is not modelled.

/// One conversion of a format string, in order.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Conversion {
    /// `%d`, `%i`: a signed integer of `bits` (the length modifier's width).
    Signed { bits: u32 },
    /// `%u`, `%x`, `%X`, `%o`: an unsigned integer of `bits`, printed in `radix`.
    Unsigned { bits: u32, radix: u32 },
    /// `%c`: one byte.
    Char,
    /// `%s`: a nul-terminated string the call reads.
    Str,
}

/// A format string split into its literal bytes count and its conversions.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Format {
    /// Bytes printed by the literal text (with `%%` as one byte).
    pub literal_len: u64,
    pub conversions: Vec<Conversion>,
}

/// Why a format is outside the modelled subset.
#[derive(Clone, PartialEq, Eq, Debug, thiserror::Error)]
#[error("unsupported printf conversion `{0}`")]
pub struct Unsupported(pub String);

/// Parses `format` (without its terminating nul); `long_bits` is the width of `long`
/// (also of `size_t`, `intmax_t`, `ptrdiff_t`: the target's pointer width).
pub fn parse(format: &[u8], long_bits: u32) -> Result<Format, Unsupported> {
    let mut literal_len = 0u64;
    let mut conversions = vec![];
    let mut i = 0;
    while i < format.len() {
        if format[i] != b'%' {
            literal_len += 1;
            i += 1;
            continue;
        }
        let start = i;
        i += 1;
        let mut bits = 32;
        let modifier_end = |j: usize| format.get(j).copied();
        match (modifier_end(i), modifier_end(i + 1)) {
            (Some(b'h'), Some(b'h')) => (bits, i) = (8, i + 2),
            (Some(b'h'), _) => (bits, i) = (16, i + 1),
            (Some(b'l'), Some(b'l')) => (bits, i) = (64, i + 2),
            (Some(b'l' | b'z' | b'j' | b't'), _) => (bits, i) = (long_bits, i + 1),
            _ => {}
        }
        let conversion = match format.get(i) {
            Some(b'%') if i == start + 1 => {
                literal_len += 1;
                i += 1;
                continue;
            }
            Some(b'd' | b'i') => Conversion::Signed { bits },
            Some(b'u') => Conversion::Unsigned { bits, radix: 10 },
            Some(b'x' | b'X') => Conversion::Unsigned { bits, radix: 16 },
            Some(b'o') => Conversion::Unsigned { bits, radix: 8 },
            Some(b'c') if bits == 32 => Conversion::Char,
            Some(b's') if bits == 32 => Conversion::Str,
            _ => {
                let end = (i + 1).min(format.len());
                return Err(Unsupported(String::from_utf8_lossy(&format[start..end]).into_owned()));
            }
        };
        conversions.push(conversion);
        i += 1;
    }
    Ok(Format { literal_len, conversions })
}

/// Characters `printf` prints for the integer `value` under `conversion` (`value` already
/// read at the conversion's width: signed for `Signed`, in `[0, 2^bits)` for `Unsigned`).
pub fn integer_len(value: i128, radix: u32) -> u64 {
    let mut n = 1;
    let mut v = value.unsigned_abs();
    while v >= u128::from(radix) {
        v /= u128::from(radix);
        n += 1;
    }
    n + u64::from(value < 0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn literal_text_and_percent_signs_are_counted() {
        assert_eq!(parse(b"hello\n", 64), Ok(Format { literal_len: 6, conversions: vec![] }));
        assert_eq!(parse(b"100%%", 64), Ok(Format { literal_len: 4, conversions: vec![] }));
    }

    #[test]
    fn conversions_with_length_modifiers() {
        let f = parse(b"%d %lu %hhx %s %c %zu %lld %o", 64).expect("supported");
        assert_eq!(
            f.conversions,
            [
                Conversion::Signed { bits: 32 },
                Conversion::Unsigned { bits: 64, radix: 10 },
                Conversion::Unsigned { bits: 8, radix: 16 },
                Conversion::Str,
                Conversion::Char,
                Conversion::Unsigned { bits: 64, radix: 10 },
                Conversion::Signed { bits: 64 },
                Conversion::Unsigned { bits: 32, radix: 8 },
            ]
        );
        assert_eq!(f.literal_len, 7);
    }

    #[test]
    fn writes_widths_pointers_and_floats_are_unsupported() {
        for f in [&b"%n"[..], b"%5d", b"%p", b"%f", b"%-d", b"%.3s", b"%ls", b"abc%"] {
            assert!(parse(f, 64).is_err(), "{}", String::from_utf8_lossy(f));
        }
    }

    #[test]
    fn integer_lengths() {
        assert_eq!(integer_len(0, 10), 1);
        assert_eq!(integer_len(-5, 10), 2);
        assert_eq!(integer_len(255, 16), 2);
        assert_eq!(integer_len(256, 16), 3);
        assert_eq!(integer_len(i128::from(i64::MIN), 10), 20);
        assert_eq!(integer_len(8, 8), 2);
    }
}
