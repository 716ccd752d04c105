//! The front end reads both forms of termcheck's annotations from bitcode: C's
//! `annotate("termcheck:…")` attributes and the Rust attributes' `.termcheck` statics (written
//! out here as `termcheck-annotations` expands them).

use super::rust_tests::load_rust;
use crate::driver::InputKind;
use crate::ir::annotation::{Annotation, AnnotationKind, AnnotationSource};

fn kinds(m: &crate::ir::Module, symbol: &str) -> Vec<(AnnotationKind, String)> {
    m.annotations.get(symbol).map(|list| list.iter().map(|a| (a.kind.clone(), a.reason.clone())).collect()).unwrap_or_default()
}

#[test]
fn c_annotations_are_read_and_do_not_take_the_address() {
    let m = crate::frontend::load_source(
        "#define TC_ASSUME(r) __attribute__((annotate(\"termcheck:assume_terminates:\" r)))\n\
         #define TC_ALLOW(c, r) __attribute__((annotate(\"termcheck:allow:\" c \":\" r)))\n\
         TC_ASSUME(\"waits for the device: ready\") static int spin(int x) { while (x) {} return 0; }\n\
         TC_ALLOW(\"timeout,memory-safety-unproven\", \"generated\") int parse(int *p) { return *p; }\n\
         __attribute__((annotate(\"other-tool:x\"))) int other(void) { return 1; }\n\
         __attribute__((annotate(\"termcheck:terminates:x\"))) int bad(void) { return 1; }\n\
         int main(void) { return spin(0) + other() + bad(); }\n",
        InputKind::C,
    )
    .expect("compiles");
    assert_eq!(kinds(&m, "spin"), vec![(AnnotationKind::AssumeTerminates, "waits for the device: ready".to_string())]);
    assert_eq!(
        m.annotations["parse"],
        vec![Annotation {
            kind: AnnotationKind::Allow { checks: vec!["timeout".into(), "memory-safety-unproven".into()] },
            reason: "generated".into(),
            source: AnnotationSource::CAttribute
        }]
    );
    assert!(kinds(&m, "other").is_empty() && kinds(&m, "main").is_empty());
    assert_eq!(m.malformed_annotations.len(), 1);
    assert_eq!(m.malformed_annotations[0].function.as_deref(), Some("bad"));
    // The annotation table is gone: `spin` is still only called directly.
    let spin = m.function(m.function_by_name("spin").expect("defined"));
    assert!(!spin.address_taken);
    assert!(!m.globals.iter().any(|g| g.name == "llvm.global.annotations"));
}

#[test]
fn rust_annotation_statics_name_their_function() {
    let m = load_rust(
        "pub struct T;\n\
         impl T {\n\
             pub fn m(&self, x: u32) -> u32 {\n\
                 #[used] #[link_section = \".termcheck\"]\n\
                 static __TERMCHECK_ANNOTATION_1: [u8; 40] = *b\"termcheck:allow:timeout:the device waits\";\n\
                 x\n\
             }\n\
         }\n\
         pub fn spin(n: u32) -> u32 {\n\
             #[used] #[link_section = \".termcheck\"]\n\
             static __TERMCHECK_ANNOTATION_2: [u8; 33] = *b\"termcheck:assume_terminates:bound\";\n\
             n\n\
         }\n\
         pub fn g<U: Copy>(u: U) -> U {\n\
             #[used] #[link_section = \".termcheck\"]\n\
             static __TERMCHECK_ANNOTATION_3: [u8; 31] = *b\"termcheck:assume_terminates:gen\";\n\
             u\n\
         }\n\
         pub fn spin_twice(n: u32) -> u32 { spin(n) + spin(n) }\n\
         pub fn use_g() -> u8 { g(3u8) }\n",
    );
    let by_path = |path: &str| -> Vec<(AnnotationKind, String)> {
        let f = m.functions.iter().find(|f| rustc_demangle::try_demangle(&f.name).is_ok_and(|d| format!("{d:#}") == path)).unwrap_or_else(|| panic!("{path} missing"));
        kinds(&m, &f.name)
    };
    assert_eq!(by_path("t::spin"), vec![(AnnotationKind::AssumeTerminates, "bound".to_string())]);
    assert_eq!(by_path("<t::T>::m"), vec![(AnnotationKind::Allow { checks: vec!["timeout".into()] }, "the device waits".to_string())]);
    assert_eq!(by_path("t::g::<u8>"), vec![(AnnotationKind::AssumeTerminates, "gen".to_string())]);
    assert!(by_path("t::spin_twice").is_empty() && by_path("t::use_g").is_empty());
    assert!(m.annotations.values().flatten().all(|a| a.source == AnnotationSource::RustAttribute));
    assert!(m.malformed_annotations.is_empty());
}
