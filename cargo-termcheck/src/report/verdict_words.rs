//! The engine's verdicts in the words every report uses (`YES`/`NO`/`MAYBE`, `proved`/`violated`/`unknown`).

use crate::policy::model::LevelOrigin;
use crate::policy::CheckFinding;
use termcheck_engine::verdict::{MemorySafety, Termination};

/// `YES`, `NO` or `MAYBE` (the Termination Competition words of `prove`).
pub fn termination_word(termination: &Termination) -> &'static str {
    match termination {
        Termination::Yes(_) => "YES",
        Termination::No(_) => "NO",
        Termination::Maybe { .. } => "MAYBE",
    }
}

/// `proved`, `violated` or `unknown`.
pub fn memory_word(memory: &MemorySafety) -> &'static str {
    match memory {
        MemorySafety::Proved => "proved",
        MemorySafety::Violated(_) => "violated",
        MemorySafety::Unknown { .. } => "unknown",
    }
}

/// Where a finding's level came from, for humans: `default`, `[checks]`, `scope #N`
/// (1-based, as a reader counts the `[[scope]]` tables).
pub fn origin_words(finding: &CheckFinding) -> String {
    match finding.origin {
        LevelOrigin::Default => "default level".into(),
        LevelOrigin::Checks => "level from [checks]".into(),
        LevelOrigin::Scope(index) => format!("level from scope #{}", index + 1),
    }
}
