//! The path of a Rust symbol (`core::panicking::panic_fmt`) from its mangled name, for the
//! name classifier (`ir::externals`): rustc's v0 mangling (`_RNvNtCs…_4core9panicking9panic_fmt`)
//! and the legacy one (`_ZN4core9panicking9panic_fmt17h0123456789abcdefE`).
//!
//! Only plain paths are decoded: a crate root and nested value/type namespaces, and a generic
//! instantiation of such a path (`I <path> <generic args> E`: the path of the generic item,
//! its arguments are not decoded). Anything else (impl paths, closures, backreferences,
//! punycode) gives `None`, so such a name is never mistaken for a family; the classifier then
//! calls it unknown.

/// The segments of a plain Rust path, crate first (`["core", "panicking", "panic_fmt"]`).
pub fn demangle_path(name: &str) -> Option<Vec<String>> {
    if let Some(rest) = name.strip_prefix("_R") {
        return v0_path(rest);
    }
    if let Some(rest) = name.strip_prefix("_ZN") {
        return legacy_path(rest);
    }
    None
}

/// v0: `<path>` followed by an optional instantiating crate (ignored).
fn v0_path(s: &str) -> Option<Vec<String>> {
    let mut p = Parser { s: s.as_bytes(), at: 0 };
    // an optional encoding version (decimal) precedes the path; only version 0 (absent) exists
    if p.peek()?.is_ascii_digit() {
        return None;
    }
    let mut segments = Vec::new();
    if p.peek()? == b'I' {
        // a generic instantiation: the generic item's path (the arguments follow it)
        p.at += 1;
    }
    p.path(&mut segments, 0)?;
    Some(segments)
}

struct Parser<'a> {
    s: &'a [u8],
    at: usize,
}

impl Parser<'_> {
    fn peek(&self) -> Option<u8> {
        self.s.get(self.at).copied()
    }

    fn next(&mut self) -> Option<u8> {
        let c = self.peek()?;
        self.at += 1;
        Some(c)
    }

    /// `C <disambiguator>? <ident>` or `N <namespace> <path> <disambiguator>? <ident>`.
    fn path(&mut self, out: &mut Vec<String>, depth: usize) -> Option<()> {
        if depth > 32 {
            return None;
        }
        match self.next()? {
            b'C' => {
                self.disambiguator()?;
                out.push(self.ident()?);
                Some(())
            }
            b'N' => {
                // lower-case namespaces are the value (`v`) and type (`t`) namespaces; upper-case
                // ones are special (closures, shims): not a plain path
                let ns = self.next()?;
                if ns != b'v' && ns != b't' {
                    return None;
                }
                self.path(out, depth + 1)?;
                self.disambiguator()?;
                let ident = self.ident()?;
                if ident.is_empty() {
                    return None;
                }
                out.push(ident);
                Some(())
            }
            _ => None,
        }
    }

    /// `s <base-62-number>` (optional).
    fn disambiguator(&mut self) -> Option<()> {
        if self.peek() == Some(b's') {
            self.at += 1;
            loop {
                match self.next()? {
                    b'_' => return Some(()),
                    c if c.is_ascii_alphanumeric() => {}
                    _ => return None,
                }
            }
        }
        Some(())
    }

    /// `<decimal length> _? <bytes>`; punycode identifiers (`u` prefix) are refused.
    fn ident(&mut self) -> Option<String> {
        let len = self.decimal()?;
        if self.peek() == Some(b'_') {
            self.at += 1;
        }
        let end = self.at.checked_add(len)?;
        let bytes = self.s.get(self.at..end)?;
        self.at = end;
        String::from_utf8(bytes.to_vec()).ok()
    }

    fn decimal(&mut self) -> Option<usize> {
        let start = self.at;
        while self.peek().is_some_and(|c| c.is_ascii_digit()) {
            self.at += 1;
        }
        if self.at == start || (self.s[start] == b'0' && self.at > start + 1) {
            return None;
        }
        std::str::from_utf8(&self.s[start..self.at]).ok()?.parse().ok()
    }
}

/// Legacy: `(<decimal><ident>)+ E`, the last segment a hash `h<16 hex digits>` (dropped).
fn legacy_path(s: &str) -> Option<Vec<String>> {
    let mut p = Parser { s: s.as_bytes(), at: 0 };
    let mut segments = Vec::new();
    while p.peek()? != b'E' {
        let len = p.decimal()?;
        let end = p.at.checked_add(len)?;
        let bytes = p.s.get(p.at..end)?;
        p.at = end;
        segments.push(String::from_utf8(bytes.to_vec()).ok()?);
    }
    if segments.last().is_some_and(|l| l.len() == 17 && l.starts_with('h') && l[1..].chars().all(|c| c.is_ascii_hexdigit())) {
        segments.pop();
    }
    (!segments.is_empty()).then_some(segments)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn path(name: &str) -> Option<String> {
        demangle_path(name).map(|p| p.join("::"))
    }

    #[test]
    fn v0_plain_paths_are_decoded() {
        let cases = [
            ("_RNvNtNtCsgEmfK2I1SDS_4core9panicking11panic_const24panic_const_add_overflow", "core::panicking::panic_const::panic_const_add_overflow"),
            ("_RNvNtCsgEmfK2I1SDS_4core9panicking18panic_nounwind_fmt", "core::panicking::panic_nounwind_fmt"),
            ("_RNvCsfLfy6EI15iL_7___rustc12___rust_alloc", "__rustc::__rust_alloc"),
            ("_RNvNtCslNYArtu3iFV_5alloc5alloc18handle_alloc_error", "alloc::alloc::handle_alloc_error"),
            // an instantiating crate after the path is ignored
            ("_RNvCsh537bOAIRKx_3lib4makeCsh537bOAIRKx_3lib", "lib::make"),
            // a generic instantiation: the generic item's path
            ("_RINvNtCsjrHSEGnQ3l9_3std9panicking11begin_panicReEB4_", "std::panicking::begin_panic"),
        ];
        for (name, want) in cases {
            assert_eq!(path(name).as_deref(), Some(want), "{name}");
        }
    }

    #[test]
    fn v0_non_plain_paths_are_refused() {
        for name in [
            // an impl path (`M`), a trait impl (`X`), generic items inside impls
            "_RNvMsF_NtCslNYArtu3iFV_5alloc3vecINtB5_3VechE4pushCsh537bOAIRKx_3lib",
            "_RNvXs1_NtCslNYArtu3iFV_5alloc7raw_vecINtB5_6RawVechENtNtNtCsgEmfK2I1SDS_4core3ops4drop4Drop4drop",
            "_RINvMs_NtCs1_3lib1SNtB4_1T1fmEB4_",
            // a closure namespace
            "_RNCNvCs1234_3lib1f0B3_",
            // truncated
            "_RNvNtCsgEmfK2I1SDS_4core9panicking",
            "_RNvNtCsgEmfK2I1SDS_4core9panicking99panic",
            "count",
        ] {
            assert_eq!(path(name), None, "{name}");
        }
    }

    #[test]
    fn legacy_paths_drop_the_hash() {
        assert_eq!(path("_ZN4core9panicking9panic_fmt17h0123456789abcdefE").as_deref(), Some("core::panicking::panic_fmt"));
        assert_eq!(path("_ZN3std7process5abort17hfedcba9876543210E").as_deref(), Some("std::process::abort"));
        assert_eq!(path("_ZN4core9panicking"), None);
    }
}
