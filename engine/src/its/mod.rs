//! Integer transition systems (ITS): the common input of the termination back end,
//! produced by the ITS parsers (`.smt2`, `.koat`) and by the symbolic execution graph (Def. 6).
//!
//! Semantics: a state is a location plus an integer value for every variable in `vars`.
//! A transition `from → to` applies when `guard` holds for the current values and some
//! values of its *temporary* variables (any variable not in `vars`, chosen anew at each
//! application); the next values are `update[i]` evaluated in the same assignment.
//! The ITS terminates iff there is no infinite run starting in `start` (with any values).

use crate::logic::{Formula, Term, Var};
use serde::{Deserialize, Serialize};

pub mod koat;
mod relation;
pub mod sexpr;
pub mod smt2;
#[cfg(test)]
pub(crate) mod tests;

/// Index into `Its::locations`.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug, Serialize, Deserialize)]
pub struct LocId(pub u32);

/// One transition (rule) of an ITS.
#[derive(Clone, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
pub struct Transition {
    pub from: LocId,
    pub to: LocId,
    /// Condition over `Its::vars` and temporary variables.
    pub guard: Formula,
    /// Post-values, one per `Its::vars` entry, over `Its::vars` and temporary variables.
    pub update: Vec<Term>,
    /// Where the rule came from (input line, graph edge), for evidence.
    pub origin: Option<String>,
}

/// An integer transition system.
#[derive(Clone, PartialEq, Eq, Hash, Debug, Default, Serialize, Deserialize)]
pub struct Its {
    pub locations: Vec<String>,
    pub start: Option<LocId>,
    pub vars: Vec<Var>,
    pub transitions: Vec<Transition>,
}

impl Its {
    /// Adds (or finds) a location by name.
    pub fn location(&mut self, name: &str) -> LocId {
        if let Some(i) = self.locations.iter().position(|l| l == name) {
            return LocId(i as u32);
        }
        self.locations.push(name.to_string());
        LocId(self.locations.len() as u32 - 1)
    }
    pub fn location_name(&self, l: LocId) -> &str {
        &self.locations[l.0 as usize]
    }
    /// The identity update (every variable keeps its value).
    pub fn identity_update(&self) -> Vec<Term> {
        self.vars.iter().map(Term::var).collect()
    }
}

/// The largest integer literal an ITS may contain: the engine computes with 128-bit integers.
pub const MAX_LITERAL: &str = "170141183460469231731687303715884105727";

/// The message for a decimal literal (digits only) that does not fit the engine's integers:
/// `integer literal out of range (N digits, …)`, the literal shortened when it is long.
pub(crate) fn literal_out_of_range(digits: &str) -> String {
    let shown = if digits.len() > 24 { format!("{}…{}", &digits[..10], &digits[digits.len() - 4..]) } else { digits.to_string() };
    format!(
        "integer literal out of range ({} digits: `{shown}`); integers must fit in 128 bits (at most {MAX_LITERAL})",
        digits.len()
    )
}

/// Parses an ITS file (`koat` = KoAT format, else T2/TermCOMP `.smt2`). Malformed input gives
/// `EngineError::ItsParse` with the position of the problem; the parsers never panic.
pub fn parse_file(path: &str, text: &str, koat: bool) -> Result<Its, crate::error::EngineError> {
    // A NUL cannot be part of a solver's symbol name (z3 takes C strings; found by fuzzing).
    if let Some(at) = text.find('\0') {
        let before = &text[..at];
        let line = before.matches('\n').count() + 1;
        let col = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
        return Err(crate::error::EngineError::ItsParse { path: path.into(), line, col, message: "NUL character in the input".into() });
    }
    let parsed = if koat { koat::parse_koat(text) } else { smt2::parse_smt2(text) };
    parsed.map_err(|e| crate::error::EngineError::ItsParse { path: path.into(), line: e.pos.line, col: e.pos.col, message: e.message })
}
