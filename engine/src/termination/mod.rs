//! Termination back end for integer transition systems. (Placeholder until it lands.)

use crate::its::Its;
use crate::smt::Budget;
use crate::verdict::Termination;

/// Proves or disproves termination of `its` from its start location within the budget.
pub fn prove_its(_its: &Its, _budget: &Budget) -> Termination {
    Termination::Maybe { reason: "termination back end not built yet".into() }
}
