//! Sources of nondeterministic values (`__VERIFIER_nondet_*`, uninitialised memory, `undef`,
//! `freeze` of poison): fixed sequences for replay and seeded strategies for testing.
//!
//! A source returns any `i128`; the interpreter reduces it to the requested width, so a
//! recorded trace replays exactly through `SequenceInputs`.

use super::value::{signed_max, signed_min, unsigned_max};

/// What the interpreter asks for.
#[derive(Clone, Copy, Debug)]
pub struct InputRequest<'a> {
    /// The origin: a `__VERIFIER_nondet_*` name, `uninit-read`, `undef`, `freeze` or `param NAME`.
    pub name: &'a str,
    /// Width of the value.
    pub bits: u32,
    /// Whether the value is meant as unsigned (only a hint for strategies).
    pub unsigned: bool,
}

/// A supplier of nondeterministic values; `None` stops the run with `InputsExhausted`.
pub trait InputSource {
    fn next_value(&mut self, request: &InputRequest<'_>) -> Option<i128>;
}

/// Values in order; when exhausted, `fallback` (or stop if `None`).
#[derive(Clone, Debug)]
pub struct SequenceInputs {
    pub values: Vec<i128>,
    pub position: usize,
    pub fallback: Option<i128>,
}

impl SequenceInputs {
    pub fn new(values: Vec<i128>, fallback: Option<i128>) -> SequenceInputs {
        SequenceInputs { values, position: 0, fallback }
    }
}

impl InputSource for SequenceInputs {
    fn next_value(&mut self, _request: &InputRequest<'_>) -> Option<i128> {
        let v = self.values.get(self.position).copied().or(self.fallback);
        self.position += 1;
        v
    }
}

/// A lasso-shaped input sequence: `stem` once, then `cycle` over and over (for replaying a
/// non-termination candidate of the symbolic executor). An empty cycle stops after the stem.
#[derive(Clone, Debug)]
pub struct CyclicInputs {
    pub stem: Vec<i128>,
    pub cycle: Vec<i128>,
    pub position: usize,
}

impl CyclicInputs {
    pub fn new(stem: Vec<i128>, cycle: Vec<i128>) -> CyclicInputs {
        CyclicInputs { stem, cycle, position: 0 }
    }
}

impl InputSource for CyclicInputs {
    fn next_value(&mut self, _request: &InputRequest<'_>) -> Option<i128> {
        let i = self.position;
        self.position += 1;
        if i < self.stem.len() {
            return Some(self.stem[i]);
        }
        if self.cycle.is_empty() {
            return None;
        }
        Some(self.cycle[(i - self.stem.len()) % self.cycle.len()])
    }
}

/// SplitMix64: a tiny deterministic generator (strategies must be reproducible by seed).
#[derive(Clone, Debug)]
pub struct SplitMix64(pub u64);

impl SplitMix64 {
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    pub fn below(&mut self, n: u64) -> u64 {
        self.next_u64() % n.max(1)
    }
}

/// A seeded strategy for choosing values.
#[derive(Clone, Debug)]
pub enum Strategy {
    /// The same value every time.
    Constant(i128),
    /// Uniform in `[lo, hi]`.
    Range { lo: i128, hi: i128 },
    /// One of 0, 1, -1, MIN, MAX (and the unsigned MAX) of the requested width.
    Boundary,
    /// Mostly small values, sometimes boundary values, sometimes any value of the width.
    Mixed,
    /// Mostly values from the pool (e.g. the program's constants and their neighbours),
    /// sometimes small or boundary values.
    Pool(Vec<i128>),
}

/// Values drawn by a `Strategy` from a seeded generator.
#[derive(Clone, Debug)]
pub struct StrategyInputs {
    pub strategy: Strategy,
    pub rng: SplitMix64,
}

impl StrategyInputs {
    pub fn new(strategy: Strategy, seed: u64) -> StrategyInputs {
        StrategyInputs { strategy, rng: SplitMix64(seed) }
    }

    fn boundary(&mut self, r: &InputRequest<'_>) -> i128 {
        let bits = r.bits.clamp(1, 64);
        let choices = [0, 1, -1, signed_min(bits), signed_max(bits), unsigned_max(bits)];
        choices[self.rng.below(choices.len() as u64) as usize]
    }
}

impl InputSource for StrategyInputs {
    fn next_value(&mut self, r: &InputRequest<'_>) -> Option<i128> {
        Some(match self.strategy.clone() {
            Strategy::Constant(c) => c,
            Strategy::Range { lo, hi } => lo + self.rng.below((hi - lo + 1).max(1) as u64) as i128,
            Strategy::Boundary => self.boundary(r),
            Strategy::Mixed => match self.rng.below(8) {
                0..=4 => self.rng.below(21) as i128 - 10,
                5 => self.boundary(r),
                6 => self.rng.below(2001) as i128 - 1000,
                _ => self.rng.next_u64() as i128,
            },
            Strategy::Pool(pool) => match self.rng.below(8) {
                0..=4 if !pool.is_empty() => pool[self.rng.below(pool.len() as u64) as usize],
                5 => self.boundary(r),
                _ => self.rng.below(5) as i128 - 2,
            },
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sequences_fall_back_or_stop() {
        let req = InputRequest { name: "x", bits: 32, unsigned: false };
        let mut s = SequenceInputs::new(vec![5], None);
        assert_eq!(s.next_value(&req), Some(5));
        assert_eq!(s.next_value(&req), None);
        let mut z = SequenceInputs::new(vec![], Some(0));
        assert_eq!(z.next_value(&req), Some(0));
    }

    #[test]
    fn cyclic_inputs_repeat_the_cycle() {
        let req = InputRequest { name: "x", bits: 32, unsigned: false };
        let mut s = CyclicInputs::new(vec![1], vec![2, 3]);
        let got: Vec<_> = (0..6).map(|_| s.next_value(&req)).collect();
        assert_eq!(got, vec![Some(1), Some(2), Some(3), Some(2), Some(3), Some(2)]);
        let mut t = CyclicInputs::new(vec![1], vec![]);
        assert_eq!((t.next_value(&req), t.next_value(&req)), (Some(1), None));
    }

    #[test]
    fn strategies_are_reproducible() {
        let req = InputRequest { name: "x", bits: 8, unsigned: false };
        let mut a = StrategyInputs::new(Strategy::Mixed, 7);
        let mut b = StrategyInputs::new(Strategy::Mixed, 7);
        for _ in 0..20 {
            assert_eq!(a.next_value(&req), b.next_value(&req));
        }
        let mut r = StrategyInputs::new(Strategy::Range { lo: -2, hi: 2 }, 1);
        assert!((0..50).all(|_| (-2..=2).contains(&r.next_value(&req).unwrap())));
    }
}
