//! Symbolic execution of the engine IR over abstract states (seed 000). (Placeholder until it lands.)

use crate::verdict::{AnalysisOptions, Report, Termination};

/// Analyses the runs of `opts.entry` in `module`.
pub fn prove_module(_module: &crate::ir::Module, _opts: &AnalysisOptions, _deadline: std::time::Instant) -> Report {
    Report {
        termination: Termination::Maybe { reason: "symbolic execution not built yet".into() },
        memory_safety: Some(crate::verdict::MemorySafety::Unknown { reason: "symbolic execution not built yet".into() }),
        stats: vec![],
    }
}
