//! Source annotations as allow entries: `#[termcheck::assume_terminates(reason = …)]`,
//! `#[termcheck::allow(check, …, reason = …)]` and `termcheck.h`'s C macros, read by the front
//! end from the bitcode (`ir::Module::annotations`), mean exactly an `[[allow]]` entry for the
//! annotated function (docs/annotations.md): `assume_terminates` allows the termination checks
//! (`AllowEntry::DEFAULT_CHECKS`), `allow` the checks it names. They are appended after the
//! termcheck.toml entries, so a file entry that also matches is the one that is used; and, like
//! every allow entry, they never make a caller count as plainly proved (`assumptions.rs`).

use super::check::Check;
use super::model::{AllowEntry, Policy};
use super::pattern::FunctionPattern;
use miette::Diagnostic;
use termcheck_engine::ir::annotation::{Annotation, AnnotationKind, AnnotationSource};
use thiserror::Error;

/// One annotation of one function of the run.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct SourceAnnotation {
    /// The function's symbol.
    pub symbol: String,
    /// Its readable name (demangled path or C name).
    pub path: String,
    pub annotation: Annotation,
}

/// An annotation that cannot become an allow entry (exit code 2, like a bad termcheck.toml).
#[derive(Debug, Error, Diagnostic)]
#[error("invalid termcheck annotation on `{function}`: {problem} (annotation text `{text}`)")]
#[diagnostic(code(termcheck::annotation::invalid), help("see docs/annotations.md: `termcheck:assume_terminates:REASON` or `termcheck:allow:CHECK,CHECK:REASON`"))]
pub struct AnnotationError {
    pub function: String,
    pub text: String,
    pub problem: String,
}

/// How the annotation is written in the source, for reports.
fn shown(annotation: &SourceAnnotation) -> String {
    let (rust, c) = match &annotation.annotation.kind {
        AnnotationKind::AssumeTerminates => ("#[termcheck::assume_terminates]", "TERMCHECK_ASSUME_TERMINATES"),
        AnnotationKind::Allow { .. } => ("#[termcheck::allow]", "TERMCHECK_ALLOW"),
    };
    let written = match annotation.annotation.source {
        AnnotationSource::RustAttribute => rust,
        AnnotationSource::CAttribute => c,
    };
    format!("{written} on {}", annotation.path)
}

/// `policy` with one allow entry per annotation appended (after the file's entries).
pub fn with_annotations(policy: &Policy, annotations: &[SourceAnnotation]) -> Result<Policy, AnnotationError> {
    let mut policy = policy.clone();
    for annotation in annotations {
        let error = |problem: String| AnnotationError { function: annotation.path.clone(), text: format!("{:?}", annotation.annotation.kind), problem };
        let checks = match &annotation.annotation.kind {
            AnnotationKind::AssumeTerminates => AllowEntry::DEFAULT_CHECKS.to_vec(),
            AnnotationKind::Allow { checks } => checks
                .iter()
                .map(|name| match Check::from_key(name) {
                    Some(Check::UnusedAllow) | None => Err(error(format!("`{name}` is not a check an annotation can allow"))),
                    Some(check) => Ok(check),
                })
                .collect::<Result<Vec<Check>, AnnotationError>>()?,
        };
        let pattern = FunctionPattern::exact(&annotation.symbol, &shown(annotation)).map_err(error)?;
        let index = policy.allows.len();
        policy.allows.push(AllowEntry { index, line: None, pattern, reason: annotation.annotation.reason.clone(), checks, from_annotation: true });
    }
    Ok(policy)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::policy::{evaluate, CallGraph, FunctionResult, Status};
    use std::path::Path;
    use termcheck_engine::analysis::FunctionReport;
    use termcheck_engine::verdict::{MemorySafety, Termination, TerminationProof};

    fn result(symbol: &str, termination: Termination) -> FunctionResult {
        FunctionResult {
            crate_name: Some("app".into()),
            symbol: symbol.into(),
            path: format!("app::{symbol}"),
            location: None,
            report: FunctionReport { name: symbol.into(), location: None, termination, memory_safety: MemorySafety::Proved, seconds: 0.0, stats: vec![] },
        }
    }

    fn annotation(symbol: &str, kind: AnnotationKind) -> SourceAnnotation {
        SourceAnnotation { symbol: symbol.into(), path: format!("app::{symbol}"), annotation: Annotation { kind, reason: "the device answers".into(), source: AnnotationSource::RustAttribute } }
    }

    #[test]
    fn an_annotation_allows_like_an_entry_and_its_callers_are_proved_assuming() {
        let base = Policy::defaults(Path::new("/w"));
        let policy = with_annotations(&base, &[annotation("wait", AnnotationKind::AssumeTerminates), annotation("done", AnnotationKind::AssumeTerminates)]).unwrap();
        let results = vec![
            result("wait", Termination::Maybe { reason: "no ranking function".into() }),
            result("caller", Termination::Yes(TerminationProof { components: vec![], notes: vec![] })),
            result("done", Termination::Yes(TerminationProof { components: vec![], notes: vec![] })),
        ];
        let calls: CallGraph = vec![("caller".to_string(), vec!["wait".to_string()])].into_iter().collect();
        let evaluation = evaluate(&policy, &results, &[], Some(&calls));
        let status = |s: &str| evaluation.functions.iter().find(|f| f.result.symbol == s).map(|f| f.status);
        assert_eq!(status("wait"), Some(Status::Allowed));
        assert_eq!(status("caller"), Some(Status::ProvedAssuming));
        let caller = evaluation.functions.iter().find(|f| f.result.symbol == "caller").unwrap();
        assert_eq!(caller.assumptions[0].describe(), "assuming `app::wait` terminates (allowed: the device answers)");
        // An annotation on a proved function is an unused entry, like a stale toml entry.
        assert_eq!(evaluation.unused_allows.len(), 1);
        assert!(evaluation.unused_allows[0].entry.from_annotation);
        assert_eq!(evaluation.unused_allows[0].entry.pattern, "#[termcheck::assume_terminates] on app::done");
    }

    #[test]
    fn allow_annotations_name_their_checks_and_bad_names_are_errors() {
        let base = Policy::defaults(Path::new("/w"));
        let ok = with_annotations(&base, &[annotation("f", AnnotationKind::Allow { checks: vec!["memory-safety-unproven".into()] })]).unwrap();
        assert_eq!(ok.allows[0].checks, vec![Check::MemorySafetyUnproven]);
        assert!(ok.allows[0].pattern.matches_any(["f"]) && !ok.allows[0].pattern.matches_any(["f2"]));
        let bad = with_annotations(&base, &[annotation("f", AnnotationKind::Allow { checks: vec!["unused-allow".into()] })]).unwrap_err();
        assert!(bad.to_string().contains("`unused-allow` is not a check"), "{bad}");
    }
}
