//! Where a generated program's random choices come from: a seed (reproducible programs for
//! `cargo xtask gen-diff`) or a fuzzer's bytes (so that coverage guidance steers the shape).

/// A source of bounded choices.
pub trait Choices {
    /// A value in `0..n` (`n ≥ 1`).
    fn below(&mut self, n: u64) -> u64;

    /// True with probability about `percent`/100.
    fn chance(&mut self, percent: u64) -> bool {
        self.below(100) < percent
    }

    /// A value in `lo..=hi`.
    fn range(&mut self, lo: i64, hi: i64) -> i64 {
        lo + self.below((hi - lo + 1) as u64) as i64
    }
}

/// SplitMix64 from a seed. Written out (eight lines) rather than taken from `rand` because the
/// program of a seed must stay the same across dependency updates: a disagreement is reported
/// by its seed and must be reproducible later.
pub struct Seeded(u64);

impl Seeded {
    pub fn new(seed: u64) -> Seeded {
        Seeded(seed)
    }
}

impl Choices for Seeded {
    fn below(&mut self, n: u64) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        (z ^ (z >> 31)) % n.max(1)
    }
}

/// Choices read from a byte string (a fuzzer's input), two bytes per choice; 0 once used up,
/// so every byte string is a program and short inputs give small ones.
pub struct FromBytes<'a> {
    bytes: &'a [u8],
}

impl<'a> FromBytes<'a> {
    pub fn new(bytes: &'a [u8]) -> FromBytes<'a> {
        FromBytes { bytes }
    }
}

impl Choices for FromBytes<'_> {
    fn below(&mut self, n: u64) -> u64 {
        let take = self.bytes.len().min(2);
        let (head, rest) = self.bytes.split_at(take);
        self.bytes = rest;
        let v = head.iter().fold(0u64, |acc, b| acc << 8 | u64::from(*b));
        v % n.max(1)
    }
}
