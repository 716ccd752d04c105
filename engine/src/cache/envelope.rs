//! The self-checking envelope around one cached report: every byte of a stored entry is
//! checked before its payload is trusted.
//!
//! Layout (little endian): magic (8) | format version (u32) | engine build id (32) | key (32)
//! | payload length (u64) | blake3 of the payload (32) | payload. An entry is accepted only if
//! its size is exactly header + length, the magic, version, build id and key equal the
//! expected ones and the checksum matches: a flipped byte anywhere, a truncation (a killed
//! writer) or an entry of another build or key is rejected.

use super::CacheKey;

/// First bytes of every entry.
pub const MAGIC: [u8; 8] = *b"TCREPORT";
/// The envelope's and payload's format; bump it when either changes.
pub const FORMAT_VERSION: u32 = 1;
/// Bytes before the payload.
pub const HEADER_LEN: usize = 8 + 4 + 32 + 32 + 8 + 32;

/// Why an entry was rejected.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum EnvelopeError {
    /// Shorter than its header or its declared length (e.g. a killed writer), or longer.
    Length,
    BadMagic,
    /// Another format version.
    Version,
    /// Written by another engine build: ignored, never read as a result.
    ForeignBuild,
    /// Stored under another key.
    WrongKey,
    /// The payload does not match its checksum.
    Checksum,
}

impl EnvelopeError {
    /// True for entries that are intact but not ours (another build or format).
    pub fn is_foreign(self) -> bool {
        matches!(self, EnvelopeError::Version | EnvelopeError::ForeignBuild)
    }
}

/// Wraps `payload` for `key`, written by engine build `build_id`.
pub fn seal(build_id: &[u8; 32], key: &CacheKey, payload: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(HEADER_LEN + payload.len());
    out.extend_from_slice(&MAGIC);
    out.extend_from_slice(&FORMAT_VERSION.to_le_bytes());
    out.extend_from_slice(build_id);
    out.extend_from_slice(&key.0);
    out.extend_from_slice(&(payload.len() as u64).to_le_bytes());
    out.extend_from_slice(blake3::hash(payload).as_bytes());
    out.extend_from_slice(payload);
    out
}

/// The payload of `entry` if it is a complete, intact entry for `key` from build `build_id`.
pub fn open<'a>(build_id: &[u8; 32], key: &CacheKey, entry: &'a [u8]) -> Result<&'a [u8], EnvelopeError> {
    if entry.len() < HEADER_LEN {
        return Err(EnvelopeError::Length);
    }
    let (header, payload) = entry.split_at(HEADER_LEN);
    if header[0..8] != MAGIC {
        return Err(EnvelopeError::BadMagic);
    }
    if header[8..12] != FORMAT_VERSION.to_le_bytes() {
        return Err(EnvelopeError::Version);
    }
    if header[12..44] != build_id[..] {
        return Err(EnvelopeError::ForeignBuild);
    }
    if header[44..76] != key.0[..] {
        return Err(EnvelopeError::WrongKey);
    }
    let mut len = [0u8; 8];
    len.copy_from_slice(&header[76..84]);
    if u64::from_le_bytes(len) != payload.len() as u64 {
        return Err(EnvelopeError::Length);
    }
    if header[84..116] != blake3::hash(payload).as_bytes()[..] {
        return Err(EnvelopeError::Checksum);
    }
    Ok(payload)
}

#[cfg(test)]
mod tests {
    use super::*;

    const BUILD: [u8; 32] = [7; 32];
    const KEY: CacheKey = CacheKey([9; 32]);

    #[test]
    fn round_trip() {
        for payload in [&b""[..], b"x", b"a longer payload with some bytes \x00\x01\xff"] {
            let entry = seal(&BUILD, &KEY, payload);
            assert_eq!(entry.len(), HEADER_LEN + payload.len());
            assert_eq!(open(&BUILD, &KEY, &entry), Ok(payload));
        }
    }

    #[test]
    fn every_single_byte_corruption_is_detected() {
        let payload: Vec<u8> = (0..200u32).map(|i| (i * 37 % 251) as u8).collect();
        let entry = seal(&BUILD, &KEY, &payload);
        for i in 0..entry.len() {
            for flip in [0x01u8, 0x80, 0xff] {
                let mut bad = entry.clone();
                bad[i] ^= flip;
                assert!(open(&BUILD, &KEY, &bad).is_err(), "byte {i} ^ {flip:#x} not detected");
            }
        }
    }

    #[test]
    fn every_truncation_and_extension_is_detected() {
        let entry = seal(&BUILD, &KEY, b"some payload bytes");
        for n in 0..entry.len() {
            assert!(open(&BUILD, &KEY, &entry[..n]).is_err(), "truncation to {n} bytes not detected");
        }
        let mut longer = entry.clone();
        longer.push(0);
        assert_eq!(open(&BUILD, &KEY, &longer), Err(EnvelopeError::Length));
    }

    #[test]
    fn foreign_builds_versions_and_keys_are_rejected() {
        let entry = seal(&BUILD, &KEY, b"p");
        assert_eq!(open(&[8; 32], &KEY, &entry), Err(EnvelopeError::ForeignBuild));
        assert!(EnvelopeError::ForeignBuild.is_foreign());
        assert_eq!(open(&BUILD, &CacheKey([1; 32]), &entry), Err(EnvelopeError::WrongKey));
        let mut other_version = entry.clone();
        other_version[8..12].copy_from_slice(&(FORMAT_VERSION + 1).to_le_bytes());
        assert_eq!(open(&BUILD, &KEY, &other_version), Err(EnvelopeError::Version));
    }
}
