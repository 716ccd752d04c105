//! Annotations for code checked by termcheck: Rust attributes here, `include/termcheck.h` for C.
//!
//! ```text
//! #[termcheck::assume_terminates(reason = "bounded by the protocol's frame length")]
//! fn decode(frame: &[u8]) -> usize { /* … */ }
//!
//! #[termcheck::allow(termination_unproven, memory_safety_unproven, reason = "calls into libc")]
//! fn serve() { /* … */ }
//! ```
//!
//! An annotation has exactly the meaning of an `[[allow]]` entry of termcheck.toml for the
//! annotated function (docs/annotations.md): `assume_terminates` allows the termination checks
//! (`non-termination`, `termination-unproven`, `timeout`, `not-analysed`), `allow` the checks it
//! lists; `reason` is required. Callers of an annotated function are reported as
//! `proved-assuming`, never as plainly proved.
//!
//! How it reaches the engine: the attribute leaves the function unchanged and adds, inside its
//! body and only when compiled by `cargo termcheck` (`cfg(termcheck)`), a `#[used]` static in
//! the link section `.termcheck` whose bytes are the annotation text
//! (`termcheck:assume_terminates:REASON`, `termcheck:allow:CHECK,CHECK:REASON`). A static
//! inside a function is named by the function's path, so its symbol names the function; the
//! front end reads such statics from the bitcode (`engine/src/frontend/annotations.rs`). In a
//! normal build nothing is emitted.

use proc_macro::TokenStream;
use quote::{format_ident, quote};
use syn::parse::{Parse, ParseStream};
use syn::punctuated::Punctuated;
use syn::{Ident, ItemFn, LitStr, Token};

/// The checks an annotation may allow (termcheck.toml's `[checks]` keys, `unused-allow` excluded).
const CHECKS: [&str; 7] = [
    "non-termination",
    "termination-unproven",
    "memory-safety-violated",
    "memory-safety-unproven",
    "undefined-behaviour",
    "timeout",
    "not-analysed",
];

/// `#[termcheck::assume_terminates(reason = "...")]`: accept that termcheck cannot prove (or
/// disproves) the function's termination, for the given reason. Its callers count as proved
/// only *assuming* it terminates.
#[proc_macro_attribute]
pub fn assume_terminates(attr: TokenStream, item: TokenStream) -> TokenStream {
    expand(attr, item, Kind::AssumeTerminates)
}

/// `#[termcheck::allow(check, …, reason = "...")]`: accept the listed findings of the function
/// (check names as in termcheck.toml, with `_` or `-`, e.g. `memory_safety_unproven` or
/// `"memory-safety-unproven"`), for the given reason.
#[proc_macro_attribute]
pub fn allow(attr: TokenStream, item: TokenStream) -> TokenStream {
    expand(attr, item, Kind::Allow)
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    AssumeTerminates,
    Allow,
}

/// One argument: a check name (identifier or string) or `reason = "..."`.
enum Argument {
    Check(String, proc_macro2::Span),
    Reason(LitStr),
}

impl Parse for Argument {
    fn parse(input: ParseStream<'_>) -> syn::Result<Self> {
        if input.peek(LitStr) {
            let lit: LitStr = input.parse()?;
            return Ok(Argument::Check(lit.value(), lit.span()));
        }
        let ident: Ident = input.call(syn::ext::IdentExt::parse_any)?;
        if ident == "reason" {
            input.parse::<Token![=]>()?;
            return Ok(Argument::Reason(input.parse()?));
        }
        Ok(Argument::Check(ident.to_string().replace('_', "-"), ident.span()))
    }
}

fn expand(attr: TokenStream, item: TokenStream, kind: Kind) -> TokenStream {
    match expand_or_error(attr.into(), item.into(), kind) {
        Ok(tokens) => tokens.into(),
        Err(error) => error.to_compile_error().into(),
    }
}

fn expand_or_error(attr: proc_macro2::TokenStream, item: proc_macro2::TokenStream, kind: Kind) -> syn::Result<proc_macro2::TokenStream> {
    let arguments = syn::parse::Parser::parse2(Punctuated::<Argument, Token![,]>::parse_terminated, attr.clone())?;
    let mut checks = Vec::new();
    let mut reason = None;
    for argument in arguments {
        match argument {
            Argument::Reason(lit) if reason.is_some() => return Err(syn::Error::new(lit.span(), "`reason` is given twice")),
            Argument::Reason(lit) if lit.value().trim().is_empty() => return Err(syn::Error::new(lit.span(), "the reason must not be empty")),
            Argument::Reason(lit) => reason = Some(lit.value()),
            Argument::Check(_, span) if kind == Kind::AssumeTerminates => {
                return Err(syn::Error::new(span, "`assume_terminates` takes only `reason = \"...\"`"));
            }
            Argument::Check(name, span) if !CHECKS.contains(&name.as_str()) => {
                return Err(syn::Error::new(span, format!("unknown check `{name}`; expected one of: {}", CHECKS.join(", "))));
            }
            Argument::Check(name, _) => checks.push(name),
        }
    }
    let Some(reason) = reason else {
        return Err(syn::Error::new_spanned(attr, "a reason is required: `reason = \"...\"`"));
    };
    if kind == Kind::Allow && checks.is_empty() {
        return Err(syn::Error::new_spanned(attr, "name the checks to allow, e.g. `allow(termination_unproven, reason = \"...\")`"));
    }
    let mut function: ItemFn = syn::parse2(item)?;
    let text = match kind {
        Kind::AssumeTerminates => format!("termcheck:assume_terminates:{reason}"),
        Kind::Allow => format!("termcheck:allow:{}:{reason}", checks.join(",")),
    };
    let bytes = syn::LitByteStr::new(text.as_bytes(), proc_macro2::Span::call_site());
    let length = text.len();
    // One static per annotation; the name differs per annotation so that two attributes on
    // one function do not collide.
    let name = format_ident!("__TERMCHECK_ANNOTATION_{:016x}", fnv1a(text.as_bytes()));
    let statement: syn::Stmt = syn::parse_quote! {
        #[cfg(termcheck)]
        #[used]
        #[cfg_attr(target_vendor = "apple", link_section = "__DATA,__termcheck")]
        #[cfg_attr(not(target_vendor = "apple"), link_section = ".termcheck")]
        static #name: [u8; #length] = *#bytes;
    };
    function.block.stmts.insert(0, statement);
    Ok(quote! { #function })
}

/// FNV-1a, 64 bits: a stable name suffix for the annotation's static.
fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325_u64, |hash, &b| (hash ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn expand_text(attr: &str, kind: Kind) -> Result<String, String> {
        let item: proc_macro2::TokenStream = "pub fn f(x: u32) -> u32 { x }".parse().unwrap();
        expand_or_error(attr.parse().unwrap(), item, kind).map(|t| t.to_string()).map_err(|e| e.to_string())
    }

    #[test]
    fn the_static_carries_the_annotation_text_under_cfg_termcheck() {
        let out = expand_text("reason = \"bounded by the frame\"", Kind::AssumeTerminates).unwrap();
        assert!(out.contains("cfg (termcheck)") && out.contains("# [used]") && out.contains("\".termcheck\""), "{out}");
        assert!(out.contains("b\"termcheck:assume_terminates:bounded by the frame\""), "{out}");
        // The function itself is unchanged: its body still returns x.
        assert!(out.contains("pub fn f (x : u32) -> u32") && out.trim_end().ends_with("x }"), "{out}");
        let out = expand_text("termination_unproven, \"memory-safety-unproven\", reason = \"r\"", Kind::Allow).unwrap();
        assert!(out.contains("b\"termcheck:allow:termination-unproven,memory-safety-unproven:r\""), "{out}");
    }

    #[test]
    fn bad_arguments_are_compile_errors() {
        assert!(expand_text("", Kind::AssumeTerminates).unwrap_err().contains("a reason is required"));
        assert!(expand_text("reason = \" \"", Kind::AssumeTerminates).unwrap_err().contains("must not be empty"));
        assert!(expand_text("timeout, reason = \"r\"", Kind::AssumeTerminates).unwrap_err().contains("takes only"));
        assert!(expand_text("reason = \"r\"", Kind::Allow).unwrap_err().contains("name the checks"));
        assert!(expand_text("unused_allow, reason = \"r\"", Kind::Allow).unwrap_err().contains("unknown check `unused-allow`"));
        assert!(expand_text("reason = \"a\", reason = \"b\"", Kind::Allow).unwrap_err().contains("twice"));
    }

    #[test]
    fn two_annotations_get_different_static_names() {
        let a = expand_text("reason = \"a\"", Kind::AssumeTerminates).unwrap();
        let b = expand_text("timeout, reason = \"a\"", Kind::Allow).unwrap();
        let name = |s: &str| s.split_whitespace().find(|w| w.starts_with("__TERMCHECK_ANNOTATION_")).map(str::to_string);
        assert_ne!(name(&a), name(&b));
    }
}
