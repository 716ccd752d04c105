//! Function patterns of allow and timeout entries: globs over demangled paths, C names and symbols.
//!
//! A pattern is a `globset` glob matched against the whole name; `*` also crosses `::`, so
//! `my_crate::parser::*` covers nested modules too. Paths are compared in a normal form
//! without the crate disambiguators of v0 demangling (`my_crate[1a2b3c4d]::f` is `my_crate::f`)
//! and without a legacy hash suffix (`::h0123456789abcdef`), so patterns stay stable when a
//! dependency version changes.

use globset::{Glob, GlobMatcher};

/// One compiled function pattern.
#[derive(Clone, Debug)]
pub struct FunctionPattern {
    text: String,
    matcher: GlobMatcher,
}

impl FunctionPattern {
    /// Compiles `text`; the error is globset's message.
    pub fn new(text: &str) -> Result<FunctionPattern, String> {
        if text.trim().is_empty() {
            return Err("a function pattern must not be empty".into());
        }
        let glob = Glob::new(text).map_err(|e| e.kind().to_string())?;
        Ok(FunctionPattern { text: text.to_string(), matcher: glob.compile_matcher() })
    }

    /// A pattern that matches exactly `symbol` (special characters escaped), shown as `shown`:
    /// the allow entry of a source annotation (`policy::annotations`).
    pub fn exact(symbol: &str, shown: &str) -> Result<FunctionPattern, String> {
        let glob = Glob::new(&globset::escape(symbol)).map_err(|e| e.kind().to_string())?;
        Ok(FunctionPattern { text: shown.to_string(), matcher: glob.compile_matcher() })
    }

    /// The pattern as written in termcheck.toml.
    pub fn as_str(&self) -> &str {
        &self.text
    }

    /// Whether the pattern matches one of `names` (each in normal form, see [`normal_path`]).
    pub fn matches_any<'a>(&self, names: impl IntoIterator<Item = &'a str>) -> bool {
        names.into_iter().any(|name| self.matcher.is_match(normal_path(name)))
    }
}

/// `path` without v0 crate disambiguators (`[hex]` after a crate name) and without a trailing
/// legacy-mangling hash (`::h` and 16 hex digits).
pub fn normal_path(path: &str) -> String {
    let mut out = String::with_capacity(path.len());
    let mut rest = path;
    while let Some(open) = rest.find('[') {
        let after = &rest[open + 1..];
        let hex_len = after.bytes().take_while(u8::is_ascii_hexdigit).count();
        let is_disambiguator = hex_len > 0 && after.as_bytes().get(hex_len) == Some(&b']');
        let is_after_identifier = rest[..open].chars().next_back().is_some_and(|c| c.is_alphanumeric() || c == '_');
        if is_disambiguator && is_after_identifier {
            out.push_str(&rest[..open]);
            rest = &after[hex_len + 1..];
        } else {
            out.push_str(&rest[..=open]);
            rest = after;
        }
    }
    out.push_str(rest);
    if let Some(hash_at) = out.rfind("::h") {
        let hash = &out[hash_at + 3..];
        if hash.len() == 16 && hash.bytes().all(|b| b.is_ascii_hexdigit()) {
            out.truncate(hash_at);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn normal_paths_drop_disambiguators_and_hashes() {
        assert_eq!(normal_path("my_crate[1a2b3c4d5e6f7a8b]::parser::next"), "my_crate::parser::next");
        assert_eq!(normal_path("<alloc[9f]::vec::Vec<u8>>::push"), "<alloc::vec::Vec<u8>>::push");
        assert_eq!(normal_path("core::ptr::drop_in_place::h0123456789abcdef"), "core::ptr::drop_in_place");
        // Not a disambiguator: an array type, a hash of the wrong length, a C name.
        assert_eq!(normal_path("<[u8]>::len"), "<[u8]>::len");
        assert_eq!(normal_path("<[u8; 4]>::len"), "<[u8; 4]>::len");
        assert_eq!(normal_path("f::h0123"), "f::h0123");
        assert_eq!(normal_path("strlen"), "strlen");
    }

    #[test]
    fn globs_match_whole_names_and_cross_module_separators() {
        let p = FunctionPattern::new("my_crate::parser::*").unwrap();
        assert!(p.matches_any(["my_crate::parser::next"]));
        assert!(p.matches_any(["my_crate[00ff]::parser::inner::step"]));
        assert!(!p.matches_any(["my_crate::lexer::next", "other::my_crate::parser::x"]));
        let exact = FunctionPattern::new("spin_forever").unwrap();
        assert!(exact.matches_any(["spin_forever"]));
        assert!(!exact.matches_any(["spin_forever_2", "c::spin_forever"]));
        let alt = FunctionPattern::new("{reader,writer}_loop").unwrap();
        assert!(alt.matches_any(["writer_loop"]));
        assert!(FunctionPattern::new("a::b").unwrap().matches_any(["nope", "a::b"]), "any of the names may match");
    }

    #[test]
    fn trait_impl_paths_and_literal_brackets_as_documented() {
        let impls = FunctionPattern::new("<my_crate::Type as *>::*").unwrap();
        assert!(impls.matches_any(["<my_crate[0a1b]::Type as core[9f]::fmt::Debug>::fmt"]));
        assert!(!FunctionPattern::new("my_crate::*").unwrap().matches_any(["<my_crate::Type as core::fmt::Debug>::fmt"]));
        assert!(FunctionPattern::new("<[[]u8]>::len").unwrap().matches_any(["<[u8]>::len"]));
    }

    #[test]
    fn bad_patterns_are_rejected_with_a_message() {
        assert!(FunctionPattern::new("").is_err());
        assert!(FunctionPattern::new("  ").is_err());
        let err = FunctionPattern::new("a::{b").unwrap_err();
        assert!(err.contains("unclosed"), "{err}");
    }
}
