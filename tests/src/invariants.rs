//! The output contract every run must keep, whatever the verdict (README, docs/output-format.md).

use crate::process::Run;

const MEMORY_WORDS: &[&str] = &["proved", "violated", "unknown"];

/// Checks the contract of a human-format run of `prove` (or of a rejected command line).
pub fn check_human_contract(run: &Run, is_its: bool) -> Result<(), String> {
    match run.code {
        Some(0) => check_verdict_output(&run.stdout, is_its),
        Some(2) => check_bad_input_output(run),
        Some(101) => Err(format!("internal error (exit 101):\n{}{}", run.stdout, run.stderr)),
        Some(code) => Err(format!("unexpected exit code {code}")),
        None if run.killed => Err("killed by the outer timeout: the CLI's own timeout did not fire".into()),
        None => Err("ended by a signal".into()),
    }
}

/// Checks the stdout of a run with exit code 0 (verdict line, memory-safety line, evidence).
pub fn check_verdict_output(stdout: &str, is_its: bool) -> Result<(), String> {
    let lines: Vec<&str> = stdout.lines().collect();
    let verdict = *lines.first().ok_or("empty stdout with exit code 0")?;
    if !["YES", "NO", "MAYBE"].contains(&verdict) {
        return Err(format!("first line `{verdict}` is not YES, NO or MAYBE"));
    }
    let mut evidence_start = 1;
    let mut memory = None;
    if is_its {
        if lines.iter().any(|l| l.starts_with("memory-safety:")) {
            return Err("an integer transition system has no memory-safety line".into());
        }
    } else {
        let line = lines.get(1).copied().unwrap_or("");
        let word = line.strip_prefix("memory-safety: ").ok_or(format!("second line `{line}` is not `memory-safety: …`"))?;
        if !MEMORY_WORDS.contains(&word) {
            return Err(format!("unknown memory-safety word `{word}`"));
        }
        memory = Some(word);
        evidence_start = 2;
    }
    let evidence = &lines[evidence_start..];
    match verdict {
        "MAYBE" => {
            let reason = evidence.first().and_then(|l| l.strip_prefix("reason: "));
            if reason.is_none_or(|r| r.trim().is_empty()) {
                return Err("MAYBE without a `reason: …` line after the header".into());
            }
        }
        "YES" => {
            if evidence.first() != Some(&"termination proof:") {
                return Err("YES without `termination proof:` evidence".into());
            }
            if memory.is_some_and(|m| m != "proved") {
                return Err("YES for a program whose memory safety is not proved".into());
            }
        }
        _ => {
            if evidence.first() != Some(&"non-termination witness:") {
                return Err("NO without `non-termination witness:` evidence".into());
            }
        }
    }
    if memory == Some("violated") && !lines.contains(&"memory-safety violation:") {
        return Err("`memory-safety: violated` without the violation's details".into());
    }
    Ok(())
}

fn check_bad_input_output(run: &Run) -> Result<(), String> {
    if !run.stdout.is_empty() {
        return Err(format!("bad input but stdout is not empty: {:?}", run.stdout));
    }
    let diagnostic = run.stderr.lines().any(|l| l.trim().starts_with("termcheck::"))
        && run.stderr.lines().any(|l| l.trim().starts_with('×'));
    let usage = run.stderr.contains("Usage:") || run.stderr.contains("error:");
    if diagnostic || usage {
        Ok(())
    } else {
        Err(format!("exit code 2 without a diagnostic (code and message) on stderr: {:?}", run.stderr))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    fn run(code: Option<i32>, stdout: &str, stderr: &str) -> Run {
        Run { code, stdout: stdout.into(), stderr: stderr.into(), killed: code.is_none(), elapsed: Duration::ZERO, cpu: None }
    }

    #[test]
    fn well_formed_outputs_pass() {
        assert!(check_human_contract(&run(Some(0), "MAYBE\nmemory-safety: unknown\nreason: r\n", ""), false).is_ok());
        assert!(check_human_contract(&run(Some(0), "YES\nmemory-safety: proved\ntermination proof:\n", ""), false).is_ok());
        assert!(check_human_contract(&run(Some(0), "NO\nnon-termination witness:\n  inputs: none\n", ""), true).is_ok());
        assert!(check_human_contract(&run(Some(2), "", "termcheck::io\n\n  × cannot read\n"), false).is_ok());
    }

    #[test]
    fn contract_violations_are_reported() {
        let cases = [
            run(Some(0), "maybe\n", ""),
            run(Some(0), "MAYBE\nreason: r\n", ""),
            run(Some(0), "MAYBE\nmemory-safety: unknown\n", ""),
            run(Some(0), "YES\nmemory-safety: unknown\ntermination proof:\n", ""),
            run(Some(0), "MAYBE\nmemory-safety: violated\nreason: r\n", ""),
            run(Some(101), "MAYBE\nmemory-safety: unknown\nreason: internal error: x\n", ""),
            run(Some(2), "YES\n", "termcheck::io\n × m\n"),
            run(Some(2), "", "something went wrong\n"),
            run(None, "", ""),
        ];
        for r in &cases {
            assert!(check_human_contract(r, false).is_err(), "{r:?}");
        }
        assert!(check_human_contract(&run(Some(0), "NO\nmemory-safety: proved\nnon-termination witness:\n", ""), true).is_err());
    }
}
