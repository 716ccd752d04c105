//! The output contract of `prove FILE --all-functions` (docs/output-format.md) and the lines of
//! its output that the expected files pin (the "skeleton").
//!
//! Human format: per defined function a block `NAME (FILE:LINE)` / `NAME (unknown location)`,
//! `termination: YES|NO|MAYBE`, `memory-safety: proved|violated|unknown`, then the evidence of
//! `prove`; blocks are separated by an empty line; after an empty line the summary line
//! `N functions: a YES, b NO, c MAYBE; memory safety proved for p, violated for v, unknown for u`
//! (or `no functions analysed: REASON`).

use crate::invariants::check_verdict_output;
use crate::process::Run;

/// One function's block, split into its three header lines and the evidence after them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Block {
    pub header: String,
    pub verdict: String,
    pub memory: String,
    pub evidence: Vec<String>,
}

/// The blocks and the summary line of a human `--all-functions` output.
pub fn parse(stdout: &str) -> Result<(Vec<Block>, String), String> {
    let text = stdout.strip_suffix('\n').ok_or("output does not end with a newline")?;
    let mut chunks: Vec<&str> = text.split("\n\n").collect();
    let summary = chunks.pop().unwrap_or_default();
    if summary.contains('\n') || summary.is_empty() {
        return Err(format!("the last paragraph is not one summary line: {summary:?}"));
    }
    let mut blocks = Vec::new();
    for chunk in chunks {
        let lines: Vec<&str> = chunk.lines().collect();
        let [header, verdict, memory, evidence @ ..] = lines.as_slice() else {
            return Err(format!("block with fewer than three lines: {chunk:?}"));
        };
        if header.is_empty() || header.starts_with(' ') || !header.ends_with(')') || !header.contains(" (") {
            return Err(format!("block header `{header}` is not `NAME (FILE:LINE)`"));
        }
        let verdict = verdict.strip_prefix("termination: ").ok_or(format!("`{verdict}` is not `termination: …`"))?;
        let memory = memory.strip_prefix("memory-safety: ").ok_or(format!("`{memory}` is not `memory-safety: …`"))?;
        blocks.push(Block {
            header: header.to_string(),
            verdict: verdict.to_string(),
            memory: memory.to_string(),
            evidence: evidence.iter().map(|l| l.to_string()).collect(),
        });
    }
    Ok((blocks, summary.to_string()))
}

/// The summary line the blocks call for.
pub fn expected_summary(blocks: &[Block]) -> String {
    let count = |pred: &dyn Fn(&Block) -> bool| blocks.iter().filter(|b| pred(b)).count();
    let noun = if blocks.len() == 1 { "function" } else { "functions" };
    format!(
        "{} {noun}: {} YES, {} NO, {} MAYBE; memory safety proved for {}, violated for {}, unknown for {}",
        blocks.len(),
        count(&|b| b.verdict == "YES"),
        count(&|b| b.verdict == "NO"),
        count(&|b| b.verdict == "MAYBE"),
        count(&|b| b.memory == "proved"),
        count(&|b| b.memory == "violated"),
        count(&|b| b.memory == "unknown"),
    )
}

/// Checks a human-format `--all-functions` run: every block keeps `prove`'s contract (verdict,
/// memory-safety word, evidence), and the summary counts the blocks.
pub fn check_contract(run: &Run) -> Result<(), String> {
    if run.code != Some(0) {
        return crate::invariants::check_human_contract(run, false);
    }
    let (blocks, summary) = parse(&run.stdout)?;
    for b in &blocks {
        let as_prove = std::iter::once(b.verdict.clone())
            .chain(std::iter::once(format!("memory-safety: {}", b.memory)))
            .chain(b.evidence.iter().cloned())
            .collect::<Vec<_>>()
            .join("\n");
        check_verdict_output(&as_prove, false).map_err(|e| format!("{}: {e}", b.header))?;
    }
    if blocks.is_empty() && summary.starts_with("no functions analysed: ") {
        return Ok(());
    }
    let expected = expected_summary(&blocks);
    if summary != expected {
        return Err(format!("summary `{summary}`, but the blocks give `{expected}`"));
    }
    Ok(())
}

/// The lines an expected file pins: each block's three header lines and the summary line.
pub fn skeleton(stdout: &str) -> Vec<String> {
    match parse(stdout) {
        Ok((blocks, summary)) => blocks
            .into_iter()
            .flat_map(|b| [b.header, format!("termination: {}", b.verdict), format!("memory-safety: {}", b.memory)])
            .chain(std::iter::once(summary))
            .collect(),
        // Not the format (e.g. a bad-input run): the output as it is, so the comparison fails
        // or, for an empty stdout, passes on the stderr fragments alone.
        Err(_) => stdout.lines().map(String::from).collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    fn run(code: i32, stdout: &str) -> Run {
        Run { code: Some(code), stdout: stdout.into(), stderr: String::new(), killed: false, elapsed: Duration::ZERO, cpu: None }
    }

    const GOOD: &str = "f (a.c:1)\ntermination: YES\nmemory-safety: proved\ntermination proof:\n  note: n\n\n\
                        g (unknown location)\ntermination: MAYBE\nmemory-safety: unknown\nreason: r\nstats:\n  k: v\n\n\
                        2 functions: 1 YES, 0 NO, 1 MAYBE; memory safety proved for 1, violated for 0, unknown for 1\n";

    #[test]
    fn a_well_formed_output_passes_and_gives_its_skeleton() {
        assert_eq!(check_contract(&run(0, GOOD)), Ok(()));
        assert_eq!(
            skeleton(GOOD),
            [
                "f (a.c:1)",
                "termination: YES",
                "memory-safety: proved",
                "g (unknown location)",
                "termination: MAYBE",
                "memory-safety: unknown",
                "2 functions: 1 YES, 0 NO, 1 MAYBE; memory safety proved for 1, violated for 0, unknown for 1"
            ]
        );
        assert_eq!(check_contract(&run(0, "no functions analysed: timeout after 1 s\n")), Ok(()));
        assert_eq!(
            check_contract(&run(0, "0 functions: 0 YES, 0 NO, 0 MAYBE; memory safety proved for 0, violated for 0, unknown for 0\n")),
            Ok(())
        );
    }

    #[test]
    fn broken_outputs_fail() {
        let cases = [
            GOOD.replace("1 YES", "2 YES"),
            GOOD.replace("termination: YES", "YES"),
            GOOD.replace("memory-safety: proved\n", "memory-safety: unknown\n"),
            GOOD.replace("reason: r\n", ""),
            GOOD.replace("f (a.c:1)", "f"),
            GOOD.trim_end().to_string(),
            GOOD.replace("\n\n2 functions", "\n2 functions"),
            "YES\nmemory-safety: proved\ntermination proof:\n".to_string(),
        ];
        for c in &cases {
            assert!(check_contract(&run(0, c)).is_err(), "{c}");
        }
        assert!(check_contract(&run(101, GOOD)).is_err());
    }
}
