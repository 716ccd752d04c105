//! The human report of a gated run: functions grouped by crate (worst first), each with its
//! location, verdicts, findings at their levels and the allow entry used, then what was not
//! analysed, unused allow entries and a summary line. Every text from the input (names,
//! paths, reasons, details) is written terminal-safe (`terminal_safe::escaped`); only the
//! palette's own styles are escape sequences.

use super::verdict_words::{memory_word, origin_words, termination_word};
use crate::policy::{CheckFinding, Evaluation, FunctionFinding, Level, PolicySource, Status};
use crate::terminal_safe::escaped;
use anstyle::{AnsiColor, Style};
use std::collections::BTreeMap;
use std::fmt::Write as _;

/// The styles of the report; all plain without colour.
struct Palette {
    color: bool,
}

impl Palette {
    fn paint(&self, style: Style, text: &str) -> String {
        if self.color {
            format!("{style}{text}{style:#}")
        } else {
            text.to_string()
        }
    }

    fn status(&self, status: Status) -> String {
        let style = match status {
            Status::Error => Style::new().fg_color(Some(AnsiColor::Red.into())).bold(),
            Status::Warning => Style::new().fg_color(Some(AnsiColor::Yellow.into())).bold(),
            Status::Allowed => Style::new().fg_color(Some(AnsiColor::Cyan.into())),
            Status::ProvedAssuming | Status::Proved => Style::new().fg_color(Some(AnsiColor::Green.into())),
        };
        self.paint(style, &format!("{:<15}", status.key()))
    }

    fn level(&self, level: Level) -> String {
        let style = match level {
            Level::Deny => Style::new().fg_color(Some(AnsiColor::Red.into())),
            Level::Warn => Style::new().fg_color(Some(AnsiColor::Yellow.into())),
            Level::Allow => Style::new().fg_color(Some(AnsiColor::Cyan.into())),
        };
        self.paint(style, &format!("{:<5}", level.key()))
    }

    fn bold(&self, text: &str) -> String {
        self.paint(Style::new().bold(), text)
    }
}

/// Renders `evaluation` for a terminal or a log; `color` adds ANSI styles (see `report::color`).
pub fn render_human(evaluation: &Evaluation<'_>, color: bool) -> String {
    let palette = Palette { color };
    let mut out = String::new();
    let mut by_crate: BTreeMap<(bool, &str), Vec<&FunctionFinding<'_>>> = BTreeMap::new();
    for function in &evaluation.functions {
        let key = match function.result.crate_name.as_deref() {
            Some(name) => (false, name),
            None => (true, "(no crate)"),
        };
        by_crate.entry(key).or_default().push(function);
    }
    for ((no_crate, name), mut functions) in by_crate {
        functions.sort_by_cached_key(|f| (std::cmp::Reverse(f.status), crate::policy::pattern::normal_path(&f.result.path)));
        let title = escaped(&if no_crate { name.to_string() } else { format!("crate `{name}`") });
        let _ = writeln!(out, "{} ({} function{})", palette.bold(&title), functions.len(), plural(functions.len()));
        for function in functions {
            write_function(&mut out, evaluation, function, &palette);
        }
        out.push('\n');
    }
    if !evaluation.not_analysed.is_empty() {
        let _ = writeln!(out, "{}", palette.bold("not analysed"));
        for item in &evaluation.not_analysed {
            let crate_note = item.item.crate_name.as_deref().map(|c| format!(" (crate `{c}`)")).unwrap_or_default();
            let _ = writeln!(out, "  {} {}", palette.level(item.finding.level), escaped(&format!("{}{crate_note}", item.item.what)));
            write_finding(&mut out, &item.finding, &palette);
        }
        out.push('\n');
    }
    if !evaluation.unused_allows.is_empty() {
        let _ = writeln!(out, "{}", palette.bold("unused allow entries"));
        for unused in &evaluation.unused_allows {
            let at = if unused.entry.from_annotation { " (source annotation)".to_string() } else { policy_place(evaluation, unused.entry.line) };
            let _ = writeln!(out, "  {} unused-allow: {}", palette.level(unused.level), escaped(&format!("{}{at}", unused.explanation())));
            let _ = writeln!(out, "        reason given: {}", escaped(&unused.entry.reason));
        }
        out.push('\n');
    }
    write_summary(&mut out, evaluation, &palette);
    out
}

fn write_function(out: &mut String, evaluation: &Evaluation<'_>, function: &FunctionFinding<'_>, palette: &Palette) {
    let result = function.result;
    let location = result.location.as_ref().map(|l| format!(" ({}:{})", relative_file(evaluation, &l.file), l.line)).unwrap_or_default();
    let verdicts = format!(
        "termination {}, memory safety {}",
        termination_word(&result.report.termination),
        memory_word(&result.report.memory_safety)
    );
    let path = crate::policy::pattern::normal_path(&result.path);
    let _ = writeln!(out, "  {} {}", palette.status(function.status), escaped(&format!("{path}{location}  {verdicts}")));
    for finding in &function.findings {
        write_finding(out, finding, palette);
    }
    for assumption in &function.assumptions {
        let _ = writeln!(out, "        {}", escaped(&assumption.describe()));
    }
}

fn write_finding(out: &mut String, finding: &CheckFinding, palette: &Palette) {
    let how = match &finding.allowed_by {
        Some(entry) => {
            let line = entry.line.map(|l| format!(", termcheck.toml line {l}")).unwrap_or_default();
            format!(" (allowed by `{}`{line}: {})", entry.pattern, entry.reason)
        }
        None if finding.origin == crate::policy::LevelOrigin::Default => String::new(),
        None => format!(" ({})", origin_words(finding)),
    };
    let _ = writeln!(out, "        {} {}", palette.level(finding.level), escaped(&format!("{}: {}{how}", finding.check, finding.detail)));
}

fn policy_place(evaluation: &Evaluation<'_>, line: Option<usize>) -> String {
    match (&evaluation.policy_source, line) {
        (PolicySource::File(path), Some(line)) => format!(" ({}:{line})", display_policy_path(evaluation, path)),
        (PolicySource::File(path), None) => format!(" ({})", display_policy_path(evaluation, path)),
        (PolicySource::Defaults, _) => String::new(),
    }
}

/// A source file relative to the workspace root when it lies below it.
fn relative_file(evaluation: &Evaluation<'_>, file: &str) -> String {
    std::path::Path::new(file).strip_prefix(&evaluation.workspace_root).map_or_else(|_| file.to_string(), |rel| rel.display().to_string())
}

fn display_policy_path(evaluation: &Evaluation<'_>, path: &std::path::Path) -> String {
    path.strip_prefix(&evaluation.workspace_root).unwrap_or(path).display().to_string()
}

fn write_summary(out: &mut String, evaluation: &Evaluation<'_>, palette: &Palette) {
    let c = evaluation.counts();
    let _ = write!(
        out,
        "termcheck: {} function{}: {} proved, {} proved assuming unproved callees, {} allowed, {} with warnings, {} with errors",
        c.functions,
        plural(c.functions),
        c.proved,
        c.proved_assuming,
        c.allowed,
        c.warnings,
        c.errors
    );
    if c.not_analysed > 0 {
        let _ = write!(out, "; {} not analysed", c.not_analysed);
    }
    if c.unused_allows > 0 {
        let _ = write!(out, "; {} unused allow entr{}", c.unused_allows, if c.unused_allows == 1 { "y" } else { "ies" });
    }
    out.push('\n');
    let policy = match &evaluation.policy_source {
        PolicySource::File(path) => display_policy_path(evaluation, path),
        PolicySource::Defaults => "the default policy (no termcheck.toml)".into(),
    };
    let verdict = if evaluation.policy_met() {
        palette.paint(Style::new().fg_color(Some(AnsiColor::Green.into())).bold(), "policy met")
    } else {
        palette.paint(Style::new().fg_color(Some(AnsiColor::Red.into())).bold(), "policy violated")
    };
    let _ = writeln!(out, "termcheck: {verdict} ({} denied, {} warned findings) under {}", c.denied, c.warned, escaped(&policy));
}

fn plural(n: usize) -> &'static str {
    if n == 1 {
        ""
    } else {
        "s"
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::policy::{evaluate, FunctionResult, Policy};
    use std::path::Path;
    use termcheck_engine::analysis::FunctionReport;
    use termcheck_engine::verdict::{MemorySafety, NonTerminationWitness, Termination};

    fn looping() -> FunctionResult {
        FunctionResult {
            crate_name: None,
            symbol: "spin".into(),
            path: "spin".into(),
            location: None,
            report: FunctionReport {
                name: "spin".into(),
                location: None,
                termination: Termination::No(NonTerminationWitness::default()),
                memory_safety: MemorySafety::Proved,
                seconds: 0.0,
                stats: vec![],
            },
        }
    }

    #[test]
    fn colour_is_added_only_when_asked_for() {
        let results = [looping()];
        let evaluation = evaluate(&Policy::defaults(Path::new("/ws")), &results, &[], None);
        let plain = render_human(&evaluation, false);
        let coloured = render_human(&evaluation, true);
        assert!(!plain.contains('\u{1b}'), "{plain}");
        assert!(coloured.contains("\u{1b}["), "{coloured}");
        assert!(plain.contains("error           spin  termination NO, memory safety proved"), "{plain}");
        assert!(plain.ends_with("policy violated (1 denied, 0 warned findings) under the default policy (no termcheck.toml)\n"), "{plain}");
    }

    #[test]
    fn names_and_files_from_the_input_are_escaped_and_only_the_palette_styles() {
        let mut f = looping();
        f.path = "spin\u{1b}]0;title\u{7}".into();
        f.crate_name = Some("c\u{1b}[2J".into());
        f.location = Some(crate::policy::SourceLocation { file: "/ws/src/e\u{9b}31m.c".into(), line: 3 });
        let results = [f];
        let evaluation = evaluate(&Policy::defaults(Path::new("/ws")), &results, &[], None);
        let plain = render_human(&evaluation, false);
        assert!(!plain.contains(['\u{1b}', '\u{7}', '\u{9b}']), "{plain}");
        assert!(plain.contains("crate `c\\u{1b}[2J`"), "{plain}");
        assert!(plain.contains("spin\\u{1b}]0;title\\u{7} (src/e\\u{9b}31m.c:3)  termination NO"), "{plain}");
        // with colour, every escape character left is the start of one of the palette's styles
        let coloured = render_human(&evaluation, true);
        assert!(coloured.matches('\u{1b}').count() == coloured.matches("\u{1b}[").count(), "{coloured}");
        assert!(!coloured.contains("\u{1b}[2J") && !coloured.contains(['\u{7}', '\u{9b}']), "{coloured}");
    }
}
