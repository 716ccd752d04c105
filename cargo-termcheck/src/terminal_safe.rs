//! Diagnostics printed with the input's own text (LLVM's quoted source line, an ITS parser's
//! unexpected character, a file name) made safe for a terminal: control characters (ESC, BEL,
//! the 8-bit CSI, …) and bidirectional-text overrides are written as `\u{…}` escapes, so that a
//! malformed input cannot recolour, retitle or rearrange the user's terminal through its
//! error message. Line feeds and tabs stay (miette lays out multi-line messages).

use miette::Diagnostic;
use std::fmt;

/// Whether `c` is written escaped: a control character other than line feed and tab, or a
/// character that reorders the text around it (Unicode bidirectional controls).
fn is_unsafe(c: char) -> bool {
    (c.is_control() && c != '\n' && c != '\t') || matches!(c, '\u{200E}' | '\u{200F}' | '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}')
}

/// `text` with every unsafe character escaped.
pub fn escaped(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if is_unsafe(c) {
            out.extend(c.escape_unicode());
        } else {
            out.push(c);
        }
    }
    out
}

/// `inner` with its message and help escaped (its code, severity and URL are the program's
/// own text and stay as they are).
#[derive(Debug)]
pub struct TerminalSafe<E> {
    inner: E,
    message: String,
}

impl<E: Diagnostic> TerminalSafe<E> {
    pub fn new(inner: E) -> TerminalSafe<E> {
        let message = escaped(&inner.to_string());
        TerminalSafe { inner, message }
    }
}

impl<E: Diagnostic> fmt::Display for TerminalSafe<E> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl<E: Diagnostic> std::error::Error for TerminalSafe<E> {}

impl<E: Diagnostic> Diagnostic for TerminalSafe<E> {
    fn code<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        self.inner.code()
    }
    fn severity(&self) -> Option<miette::Severity> {
        self.inner.severity()
    }
    fn help<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        self.inner.help().map(|h| Box::new(escaped(&h.to_string())) as Box<dyn fmt::Display + 'a>)
    }
    fn url<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        self.inner.url()
    }
}

/// The rendered report of `error`, terminal-safe.
pub fn report<E: Diagnostic + Send + Sync + 'static>(error: E) -> String {
    format!("{:?}", miette::Report::new(TerminalSafe::new(error)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use termcheck_engine::error::EngineError;

    #[test]
    fn escape_sequences_bells_and_bidi_overrides_are_escaped_newlines_and_tabs_kept() {
        assert_eq!(escaped("a\u{1b}[31mred\u{7}\n\tb\u{202e}c\u{9b}"), "a\\u{1b}[31mred\\u{7}\n\tb\\u{202e}c\\u{9b}");
        assert_eq!(escaped("plain text: ü, 中"), "plain text: ü, 中");
    }

    #[test]
    fn a_rendered_engine_error_keeps_its_code_and_help_and_carries_no_control_character() {
        let error = EngineError::CompileFailed { path: "x\u{1b}]0;t\u{7}.c".into(), diagnostics: "line \u{1b}[2J".into() };
        let text = report(error);
        assert!(text.contains("termcheck::frontend::clang"), "{text}");
        assert!(text.contains("x\\u{1b}]0;t\\u{7}.c") && text.contains("line \\u{1b}[2J"), "{text}");
        assert!(!text.contains('\u{1b}') && !text.contains('\u{7}'), "{text:?}");
    }
}
