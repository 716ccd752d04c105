//! Source annotations of a function (`termcheck-annotations`' Rust attributes, `termcheck.h`'s
//! C macros), as the front end found them in the bitcode: what the programmer accepts about the
//! function and why. The engine's analyses ignore them; the workspace command hands them to
//! the policy as allow entries (docs/annotations.md).

use serde::{Deserialize, Serialize};

/// Where an annotation was written.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
pub enum AnnotationSource {
    /// A Rust attribute: a `#[used]` static in the `.termcheck` link section inside the function.
    RustAttribute,
    /// A C `__attribute__((annotate("termcheck:…")))`, from `llvm.global.annotations`.
    CAttribute,
}

/// What an annotation accepts.
#[derive(Clone, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
pub enum AnnotationKind {
    /// `assume_terminates`: the termination checks.
    AssumeTerminates,
    /// `allow`: the named checks (termcheck.toml keys, as written; the policy validates them).
    Allow { checks: Vec<String> },
}

/// One annotation of one function.
#[derive(Clone, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
pub struct Annotation {
    pub kind: AnnotationKind,
    pub reason: String,
    pub source: AnnotationSource,
}

/// Why an annotation text could not be read.
#[derive(Clone, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
pub struct MalformedAnnotation {
    /// The function (symbol) it was attached to, if known.
    pub function: Option<String>,
    pub text: String,
    pub problem: String,
}

/// The prefix that marks termcheck's annotations among other tools' `annotate` strings.
pub const PREFIX: &str = "termcheck:";

/// Parses `termcheck:assume_terminates:REASON` or `termcheck:allow:CHECK,CHECK:REASON` (the
/// reason may contain `:`). `None` for texts without the prefix (other tools' annotations).
pub fn parse_annotation(text: &str, source: AnnotationSource) -> Option<Result<Annotation, String>> {
    let rest = text.strip_prefix(PREFIX)?;
    let (verb, rest) = rest.split_once(':').unwrap_or((rest, ""));
    let parsed = match verb {
        "assume_terminates" => Ok((AnnotationKind::AssumeTerminates, rest)),
        "allow" => match rest.split_once(':') {
            Some((checks, reason)) => {
                let checks: Vec<String> = checks.split(',').map(|c| c.trim().to_string()).filter(|c| !c.is_empty()).collect();
                if checks.is_empty() {
                    Err("`allow` names no check".to_string())
                } else {
                    Ok((AnnotationKind::Allow { checks }, reason))
                }
            }
            None => Err("`allow` needs `CHECKS:REASON`".to_string()),
        },
        other => Err(format!("unknown annotation `{other}` (expected `assume_terminates` or `allow`)")),
    };
    Some(parsed.and_then(|(kind, reason)| {
        let reason = reason.trim();
        if reason.is_empty() {
            Err("the reason is empty".to_string())
        } else {
            Ok(Annotation { kind, reason: reason.to_string(), source })
        }
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn annotation_texts_parse_with_colons_in_the_reason() {
        let c = AnnotationSource::CAttribute;
        assert_eq!(
            parse_annotation("termcheck:assume_terminates:bounded: by n", c),
            Some(Ok(Annotation { kind: AnnotationKind::AssumeTerminates, reason: "bounded: by n".into(), source: c }))
        );
        let allow = parse_annotation("termcheck:allow:timeout, not-analysed:why", c).unwrap().unwrap();
        assert_eq!(allow.kind, AnnotationKind::Allow { checks: vec!["timeout".into(), "not-analysed".into()] });
        assert_eq!(parse_annotation("other-tool:x", c), None);
        assert!(parse_annotation("termcheck:allow::why", c).unwrap().is_err());
        assert!(parse_annotation("termcheck:allow:timeout", c).unwrap().is_err());
        assert!(parse_annotation("termcheck:assume_terminates:", c).unwrap().is_err());
        assert!(parse_annotation("termcheck:terminates:x", c).unwrap().is_err());
    }
}
