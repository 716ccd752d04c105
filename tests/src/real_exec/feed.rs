//! The values a native run of a C program reads from `__VERIFIER_nondet_*`, as passed to the
//! runtime stub `tests/support/nondet_feed.c` through environment variables.

use std::fmt::Write as _;

/// One value: its decimal text (any sign, up to 128 bits) and, when known, the
/// `__VERIFIER_nondet_` type suffix of the call that must read it (`uint`, `int`, …).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FeedValue {
    pub ty: Option<String>,
    pub decimal: String,
}

/// What the stub returns once `stem` (and an empty `cycle`) is used up.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum After {
    /// No further read is allowed: the run ends with the stub's "inputs exhausted" exit.
    Stop,
    /// Every further read returns 0 / 1 / the minimum / the maximum of the type read.
    Zero,
    One,
    Min,
    Max,
    /// Boundary-biased pseudo-random values from this seed.
    Random(u64),
}

/// A whole input sequence: `stem`, then `cycle` repeated forever, then (empty cycle) `after`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Feed {
    pub stem: Vec<FeedValue>,
    pub cycle: Vec<FeedValue>,
    pub after: After,
}

impl Feed {
    /// Every read answered by `after` (the boundary and random runs of a YES check).
    pub fn fill(after: After) -> Self {
        Feed { stem: Vec::new(), cycle: Vec::new(), after }
    }

    /// Exactly these values, untyped, and no further read (hand-written witnesses).
    pub fn values(values: &[i128]) -> Self {
        let stem = values.iter().map(|v| FeedValue { ty: None, decimal: v.to_string() }).collect();
        Feed { stem, cycle: Vec::new(), after: After::Stop }
    }

    /// The environment variables the stub reads.
    pub fn env(&self) -> Vec<(&'static str, String)> {
        let after = match self.after {
            After::Stop => "stop".to_string(),
            After::Zero => "zero".to_string(),
            After::One => "one".to_string(),
            After::Min => "min".to_string(),
            After::Max => "max".to_string(),
            After::Random(seed) => format!("random:{seed}"),
        };
        vec![("TC_FEED_STEM", render(&self.stem)), ("TC_FEED_CYCLE", render(&self.cycle)), ("TC_FEED_AFTER", after)]
    }
}

impl std::fmt::Display for Feed {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "[{}]", render(&self.stem))?;
        if !self.cycle.is_empty() {
            write!(f, " then ([{}])*", render(&self.cycle))?;
        }
        write!(f, " then {:?}", self.after)
    }
}

fn render(values: &[FeedValue]) -> String {
    let mut out = String::new();
    for v in values {
        if !out.is_empty() {
            out.push(' ');
        }
        match &v.ty {
            Some(ty) => write!(out, "{ty}={}", v.decimal).expect("write to String"),
            None => out.push_str(&v.decimal),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn env_lists_typed_values_and_the_after_mode() {
        let feed = Feed {
            stem: vec![FeedValue { ty: Some("uint".into()), decimal: "4294967295".into() }],
            cycle: vec![FeedValue { ty: None, decimal: "-1".into() }],
            after: After::Random(3),
        };
        let env = feed.env();
        assert_eq!(env[0], ("TC_FEED_STEM", "uint=4294967295".to_string()));
        assert_eq!(env[1], ("TC_FEED_CYCLE", "-1".to_string()));
        assert_eq!(env[2], ("TC_FEED_AFTER", "random:3".to_string()));
    }
}
