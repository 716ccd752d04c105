//! `NAME.expected` files: what a case's output must start with, comparison, and bless mode.
//!
//! Format, line by line:
//! - an optional first line `exit N` when the expected exit code is not 0;
//! - lines `stderr: TEXT`: TEXT must occur in stderr, in this order (whitespace runs are
//!   compared as one space, so miette's line wrapping inside a fragment does not matter);
//! - every other line is a stdout line: together they must be the first lines of stdout.
//!
//! Bless mode writes: the exit code (if not 0); the verdict line and the `memory-safety:` line
//! when present; for a non-zero exit the diagnostic code line and the first line of the
//! message (or, without those, the first line of stderr).

use crate::process::Run;

/// The parsed content of an expected file.
#[derive(Clone, PartialEq, Eq, Debug, Default)]
pub struct Expectation {
    pub exit: i32,
    pub stdout_prefix: Vec<String>,
    pub stderr_fragments: Vec<String>,
}

/// Collapses whitespace runs into single spaces and trims.
pub fn squash(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

impl Expectation {
    /// Parses the text of an expected file.
    pub fn parse(text: &str) -> Result<Expectation, String> {
        let mut e = Expectation::default();
        for (i, line) in text.lines().enumerate() {
            if i == 0 {
                if let Some(code) = line.strip_prefix("exit ") {
                    e.exit = code.trim().parse().map_err(|_| format!("bad exit line `{line}`"))?;
                    continue;
                }
            }
            if let Some(fragment) = line.strip_prefix("stderr:") {
                e.stderr_fragments.push(fragment.trim().to_string());
            } else if !line.is_empty() {
                e.stdout_prefix.push(line.to_string());
            }
        }
        Ok(e)
    }

    /// The text of the expected file.
    pub fn render(&self) -> String {
        let mut out = String::new();
        if self.exit != 0 {
            out.push_str(&format!("exit {}\n", self.exit));
        }
        for line in &self.stdout_prefix {
            out.push_str(line);
            out.push('\n');
        }
        for fragment in &self.stderr_fragments {
            out.push_str(&format!("stderr: {fragment}\n"));
        }
        out
    }

    /// The expectation bless mode records for an observed run.
    pub fn blessed_from(run: &Run) -> Expectation {
        let mut stdout_prefix = Vec::new();
        let mut lines = run.stdout.lines();
        if let Some(first) = lines.next() {
            stdout_prefix.push(first.to_string());
            if let Some(second) = lines.next().filter(|l| l.starts_with("memory-safety:")) {
                stdout_prefix.push(second.to_string());
            }
        }
        let exit = run.code.unwrap_or(-1);
        let mut stderr_fragments = Vec::new();
        if exit != 0 {
            let code_line = run.stderr.lines().map(str::trim).find(|l| l.starts_with("termcheck::"));
            let message_line =
                run.stderr.lines().map(str::trim).find_map(|l| l.strip_prefix('×')).map(|m| format!("× {}", m.trim()));
            match (code_line, message_line) {
                (None, None) => {
                    if let Some(first) = run.stderr.lines().map(str::trim).find(|l| !l.is_empty()) {
                        stderr_fragments.push(first.to_string());
                    }
                }
                (code, message) => stderr_fragments.extend(code.map(String::from).into_iter().chain(message)),
            }
        }
        Expectation { exit, stdout_prefix, stderr_fragments }
    }

    /// Compares a run with this expectation; the error lists every difference.
    pub fn check(&self, run: &Run) -> Result<(), String> {
        let mut problems = Vec::new();
        let code = run.code.unwrap_or(-1);
        if code != self.exit {
            problems.push(format!("exit code {code}{}, expected {}", if run.killed { " (killed)" } else { "" }, self.exit));
        }
        let actual: Vec<&str> = run.stdout.lines().take(self.stdout_prefix.len()).collect();
        if actual != self.stdout_prefix.iter().map(String::as_str).collect::<Vec<_>>() {
            problems.push(format!("stdout starts with {actual:?}, expected {:?}", self.stdout_prefix));
        }
        let stderr = squash(&run.stderr);
        let mut from = 0;
        for fragment in &self.stderr_fragments {
            match stderr[from..].find(&squash(fragment)) {
                Some(at) => from += at + squash(fragment).len(),
                None => problems.push(format!("stderr lacks (in order) `{fragment}`")),
            }
        }
        if problems.is_empty() {
            Ok(())
        } else {
            Err(problems.join("; "))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    fn run(code: i32, stdout: &str, stderr: &str) -> Run {
        Run { code: Some(code), stdout: stdout.into(), stderr: stderr.into(), killed: false, elapsed: Duration::ZERO, cpu: None }
    }

    #[test]
    fn parse_and_render_round_trip() {
        let text = "exit 2\nstderr: termcheck::io\nstderr: × cannot read x\n";
        let e = Expectation::parse(text).unwrap();
        assert_eq!(e.exit, 2);
        assert!(e.stdout_prefix.is_empty());
        assert_eq!(e.stderr_fragments, ["termcheck::io", "× cannot read x"]);
        assert_eq!(e.render(), text);
        let plain = "YES\nmemory-safety: proved\n";
        assert_eq!(Expectation::parse(plain).unwrap().render(), plain);
    }

    #[test]
    fn stdout_prefix_must_match_line_by_line() {
        let e = Expectation::parse("YES\nmemory-safety: proved\n").unwrap();
        assert!(e.check(&run(0, "YES\nmemory-safety: proved\ntermination proof:\n", "")).is_ok());
        assert!(e.check(&run(0, "MAYBE\nmemory-safety: proved\n", "")).is_err());
        assert!(e.check(&run(0, "YES\n", "")).is_err());
        assert!(e.check(&run(101, "YES\nmemory-safety: proved\n", "")).is_err());
    }

    #[test]
    fn stderr_fragments_ignore_wrapping_but_not_order() {
        let e = Expectation::parse("exit 2\nstderr: a b c\nstderr: d\n").unwrap();
        assert!(e.check(&run(2, "", "x a\n   b  c y d")).is_ok());
        assert!(e.check(&run(2, "", "d a b c")).is_err());
    }

    #[test]
    fn bless_records_verdict_memory_line_and_diagnostic() {
        let ok = run(0, "MAYBE\nmemory-safety: unknown\nreason: r\n", "");
        assert_eq!(Expectation::blessed_from(&ok).render(), "MAYBE\nmemory-safety: unknown\n");
        let its = run(0, "NO\nnon-termination witness:\n", "");
        assert_eq!(Expectation::blessed_from(&its).render(), "NO\n");
        let bad = run(2, "", "termcheck::io\n\n  × cannot read x: no such file\n  help: check\n");
        assert_eq!(Expectation::blessed_from(&bad).render(), "exit 2\nstderr: termcheck::io\nstderr: × cannot read x: no such file\n");
        let clap = run(2, "", "error: invalid value 'u' for '--int-semantics <MODE>'\n");
        assert_eq!(
            Expectation::blessed_from(&clap).render(),
            "exit 2\nstderr: error: invalid value 'u' for '--int-semantics <MODE>'\n"
        );
        for r in [ok, its, bad, clap] {
            assert!(Expectation::blessed_from(&r).check(&r).is_ok());
        }
    }
}
