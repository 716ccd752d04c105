//! Whether to colour human output: `--color`, then `CARGO_TERM_COLOR`, then `NO_COLOR`, then
//! whether the stream is a terminal (cargo's and the no-color.org conventions).

/// `--color` values.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum ColorChoice {
    Auto,
    Always,
    Never,
}

impl ColorChoice {
    /// Parses `auto`, `always` or `never` (as cargo spells them in `CARGO_TERM_COLOR`).
    pub fn parse(text: &str) -> Option<ColorChoice> {
        match text.trim().to_ascii_lowercase().as_str() {
            "auto" => Some(ColorChoice::Auto),
            "always" => Some(ColorChoice::Always),
            "never" => Some(ColorChoice::Never),
            _ => None,
        }
    }
}

/// Decides colour: an explicit `always`/`never` flag wins; with `auto` (or no flag)
/// `CARGO_TERM_COLOR=always|never` decides; else a non-empty `NO_COLOR` turns colour off; else
/// colour is on exactly when the output is a terminal. `env` reads an environment variable.
pub fn use_color(flag: Option<ColorChoice>, env: impl Fn(&str) -> Option<String>, is_terminal: bool) -> bool {
    let from_cargo = env("CARGO_TERM_COLOR").as_deref().and_then(ColorChoice::parse);
    match (flag, from_cargo) {
        (Some(ColorChoice::Always), _) | (None | Some(ColorChoice::Auto), Some(ColorChoice::Always)) => true,
        (Some(ColorChoice::Never), _) | (None | Some(ColorChoice::Auto), Some(ColorChoice::Never)) => false,
        _ if env("NO_COLOR").is_some_and(|v| !v.is_empty()) => false,
        _ => is_terminal,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn env<'a>(vars: &'a [(&'a str, &'a str)]) -> impl Fn(&str) -> Option<String> + 'a {
        move |name| vars.iter().find(|(k, _)| *k == name).map(|(_, v)| v.to_string())
    }

    #[test]
    fn flag_beats_environment() {
        assert!(use_color(Some(ColorChoice::Always), env(&[("NO_COLOR", "1"), ("CARGO_TERM_COLOR", "never")]), false));
        assert!(!use_color(Some(ColorChoice::Never), env(&[("CARGO_TERM_COLOR", "always")]), true));
    }

    #[test]
    fn cargo_term_color_beats_no_color_and_the_terminal() {
        assert!(use_color(None, env(&[("CARGO_TERM_COLOR", "always"), ("NO_COLOR", "1")]), false));
        assert!(!use_color(Some(ColorChoice::Auto), env(&[("CARGO_TERM_COLOR", "never")]), true));
        assert!(use_color(None, env(&[("CARGO_TERM_COLOR", "auto")]), true));
        assert!(use_color(None, env(&[("CARGO_TERM_COLOR", "bogus")]), true), "an unknown value is ignored");
    }

    #[test]
    fn no_color_and_terminal_detection() {
        assert!(!use_color(None, env(&[("NO_COLOR", "1")]), true));
        assert!(use_color(None, env(&[("NO_COLOR", "")]), true), "an empty NO_COLOR does not count");
        assert!(use_color(None, env(&[]), true));
        assert!(!use_color(None, env(&[]), false));
    }

    #[test]
    fn choices_parse_like_cargo() {
        assert_eq!(ColorChoice::parse("Always"), Some(ColorChoice::Always));
        assert_eq!(ColorChoice::parse("never"), Some(ColorChoice::Never));
        assert_eq!(ColorChoice::parse("yes"), None);
    }
}
