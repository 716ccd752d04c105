//! The harness must not pass vacuously: right witnesses pass, fake ones and wrong YES answers
//! are caught, sanitizers and the input feed behave as documented.

use super::*;
use std::path::PathBuf;

fn program(dir: &tempfile::TempDir, name: &str, body: &str) -> PathBuf {
    let path = dir.path().join(name);
    let text = format!(
        "extern unsigned int __VERIFIER_nondet_uint(void);\nextern int __VERIFIER_nondet_int(void);\n\
         extern unsigned char __VERIFIER_nondet_uchar(void);\nextern char __VERIFIER_nondet_char(void);\n\
         extern unsigned short __VERIFIER_nondet_ushort(void);\nextern unsigned long long __VERIFIER_nondet_ulonglong(void);\n{body}\n"
    );
    std::fs::write(&path, text).unwrap();
    path
}

fn typed(ty: &str, value: &str) -> FeedValue {
    FeedValue { ty: Some(ty.to_string()), decimal: value.to_string() }
}

#[test]
fn right_witness_of_a_non_terminating_program_passes() {
    let dir = tempfile::tempdir().unwrap();
    let src = program(&dir, "odd.c", "int main(void) { unsigned x = __VERIFIER_nondet_uint(); while (x != 0) x += 2; return 0; }");
    let native = Native::new().unwrap();
    let feed = Feed { stem: vec![typed("uint", "1")], cycle: vec![], after: After::Stop };
    check_no_witness(&native, &src, &feed).unwrap();
}

#[test]
fn witness_whose_cycle_reads_inputs_passes_with_its_cycle_and_fails_without() {
    let dir = tempfile::tempdir().unwrap();
    let src = program(&dir, "reads.c", "int main(void) { while (__VERIFIER_nondet_int() != 0) {} return 0; }");
    let native = Native::new().unwrap();
    let with_cycle = Feed { stem: vec![typed("int", "5")], cycle: vec![typed("int", "-1")], after: After::Stop };
    check_no_witness(&native, &src, &with_cycle).unwrap();
    let stem_only = Feed { stem: vec![typed("int", "5")], cycle: vec![], after: After::Stop };
    let err = check_no_witness(&native, &src, &stem_only).unwrap_err();
    assert!(err.contains("inputs exhausted"), "{err}");
    let wrong_type = Feed { stem: vec![typed("uint", "5")], cycle: vec![], after: After::Stop };
    let err = check_no_witness(&native, &src, &wrong_type).unwrap_err();
    assert!(err.contains("type mismatch"), "{err}");
}

#[test]
fn fake_witness_of_a_terminating_program_is_caught() {
    let dir = tempfile::tempdir().unwrap();
    let src = program(&dir, "down.c", "int main(void) { unsigned x = __VERIFIER_nondet_uint(); while (x > 0) x--; return 0; }");
    let native = Native::new().unwrap();
    let err = check_no_witness(&native, &src, &Feed::values(&[100])).unwrap_err();
    assert!(err.contains("terminated"), "{err}");
}

#[test]
fn fake_witness_of_a_loop_that_ends_after_a_32_bit_wrap_is_caught() {
    // At -O0 this run exceeds the step bound (2^32 iterations); only the -O2 run exposes it.
    let dir = tempfile::tempdir().unwrap();
    let src = program(&dir, "wrap.c", "int main(void) { unsigned j = __VERIFIER_nondet_uint(); while (j > 0) j++; return 0; }");
    let native = Native::new().unwrap();
    let err = check_no_witness(&native, &src, &Feed::values(&[1])).unwrap_err();
    assert!(err.contains("-O2"), "{err}");
}

#[test]
fn witness_that_loops_only_through_signed_overflow_is_caught() {
    // Without sanitizers i wraps (clang at -O0) and stays odd forever; in C it is undefined.
    let dir = tempfile::tempdir().unwrap();
    let src = program(&dir, "ub.c", "int main(void) { int i = __VERIFIER_nondet_int(); while (i != 0) i += 2; return 0; }");
    let native = Native::new().unwrap();
    let err = check_no_witness(&native, &src, &Feed::values(&[1])).unwrap_err();
    assert!(err.contains("sanitizer report") && err.contains("overflow"), "{err}");
}

#[test]
fn non_terminating_program_presented_as_yes_is_caught() {
    let dir = tempfile::tempdir().unwrap();
    // Ends unless x is UINT_MAX: only the maximum fill (and some random runs) expose it.
    let src = program(&dir, "le.c", "int main(void) { unsigned x = __VERIFIER_nondet_uint(); unsigned j = 0; while (j <= x) j++; return 0; }");
    let native = Native::new().unwrap();
    let err = check_terminates(&native, &src).unwrap_err();
    assert!(err.contains("Max") && err.contains("still running"), "{err}");
}

#[test]
fn yes_program_with_undefined_behaviour_is_caught() {
    let dir = tempfile::tempdir().unwrap();
    let src = program(&dir, "ub_yes.c", "int main(void) { int x = __VERIFIER_nondet_int(); while (x > 0) x = x * 2; return 0; }");
    let native = Native::new().unwrap();
    let err = check_terminates(&native, &src).unwrap_err();
    assert!(err.contains("sanitizer report"), "{err}");
}

#[test]
fn terminating_program_passes_the_yes_check() {
    let dir = tempfile::tempdir().unwrap();
    let src = program(&dir, "u8.c", "int main(void) { unsigned char c = __VERIFIER_nondet_uchar(); while (c != 0) c++; return c; }");
    let native = Native::new().unwrap();
    check_terminates(&native, &src).unwrap();
}

#[test]
fn memory_violation_is_confirmed_and_a_safe_run_is_not() {
    let dir = tempfile::tempdir().unwrap();
    let src = program(&dir, "oob.c", "int main(void) { int a[4] = {0}; int i = __VERIFIER_nondet_int(); if (i < 0) return 0; a[i] = 1; return a[0]; }");
    let native = Native::new().unwrap();
    check_violation(&native, &src, &Feed::values(&[4])).unwrap();
    let err = check_violation(&native, &src, &Feed::values(&[3])).unwrap_err();
    assert!(err.contains("terminated"), "{err}");
}

/// Sanitized builds link the shared sanitizer runtimes (faster to link) and report what the
/// static ones report: an ASan heap overflow and a UBSan signed overflow.
#[test]
fn the_shared_sanitizer_runtimes_report_what_the_static_ones_do() {
    let dir = tempfile::tempdir().unwrap();
    let heap = program(&dir, "heap.c", "#include <stdlib.h>\nint main(void) { int *a = malloc(4 * sizeof(int)); int i = __VERIFIER_nondet_int(); if (i < 0) return 0; a[i] = 1; int r = a[0]; free(a); return r; }");
    let signed = program(&dir, "signed.c", "int main(void) { int x = __VERIFIER_nondet_int(); return x + 1; }");
    let shared = Native::new().unwrap();
    assert!(shared.links_shared_runtimes(), "clang-22's runtime folder has the shared ASan and UBSan runtimes (scripts/setup.sh)");
    let exe = shared.compile(&heap, Build::AsanUbsan).unwrap();
    let needed = std::process::Command::new("readelf").arg("-d").arg(&exe).output().unwrap();
    assert!(String::from_utf8_lossy(&needed.stdout).contains("libclang_rt.asan"), "not linked with the shared runtime");
    for native in [shared, Native::with_static_runtimes().unwrap()] {
        let report = check_violation(&native, &heap, &Feed::values(&[4])).unwrap();
        assert!(report.contains("heap-buffer-overflow"), "{report}");
        check_violation(&native, &heap, &Feed::values(&[3])).unwrap_err();
        let report = check_violation(&native, &signed, &Feed::values(&[i32::MAX.into()])).unwrap();
        assert!(report.contains("signed integer overflow"), "{report}");
    }
}

#[test]
fn feed_converts_values_as_c_does() {
    let dir = tempfile::tempdir().unwrap();
    let src = program(
        &dir,
        "conv.c",
        "int main(void) {\n\
           if (__VERIFIER_nondet_uchar() != 0) return 1;          /* 256 */\n\
           if (__VERIFIER_nondet_char() != -1) return 2;          /* 255 */\n\
           if (__VERIFIER_nondet_uint() != 4294967295u) return 3; /* -1 */\n\
           if (__VERIFIER_nondet_int() != -2147483647 - 1) return 4; /* 2147483648 */\n\
           if (__VERIFIER_nondet_ushort() != 1) return 5;         /* 65537 */\n\
           if (__VERIFIER_nondet_ulonglong() != 5) return 6;      /* 2^64 + 5 */\n\
           return 0; }",
    );
    let native = Native::new().unwrap();
    let exe = native.compile(&src, Build::Ubsan).unwrap();
    let feed = Feed {
        stem: ["256", "255", "-1", "2147483648", "65537", "18446744073709551621"]
            .iter()
            .map(|d| FeedValue { ty: None, decimal: d.to_string() })
            .collect(),
        cycle: vec![],
        after: After::Stop,
    };
    let r = native::run(&exe, &feed, std::time::Duration::from_secs(5), None).unwrap();
    assert_eq!(r.ending, Ending::Terminated(Some(0)), "{}", r.stderr);
    // Boundary fills give the type's minimum and maximum.
    let src = program(
        &dir,
        "fill.c",
        "int main(void) { return !(__VERIFIER_nondet_char() == -128 && __VERIFIER_nondet_uint() == 0 && __VERIFIER_nondet_int() == -2147483647 - 1); }",
    );
    let exe = native.compile(&src, Build::Ubsan).unwrap();
    let r = native::run(&exe, &Feed::fill(After::Min), std::time::Duration::from_secs(5), None).unwrap();
    assert_eq!(r.ending, Ending::Terminated(Some(0)), "{}", r.stderr);
}

#[test]
fn long_witness_stems_are_fed_through_a_file() {
    // 100 000 inputs are far beyond what one environment variable may hold.
    let dir = tempfile::tempdir().unwrap();
    let src = program(&dir, "long.c", "int main(void) { for (int i = 0; i < 100000; i++) if (__VERIFIER_nondet_int() != 7) return 1; while (1) {} }");
    let native = Native::new().unwrap();
    let stem: Vec<FeedValue> = (0..100_000).map(|_| typed("int", "7")).collect();
    check_no_witness(&native, &src, &Feed { stem: stem.clone(), cycle: vec![], after: After::Stop }).unwrap();
    let mut wrong = stem;
    wrong[99_999] = typed("int", "8");
    assert!(check_no_witness(&native, &src, &Feed { stem: wrong, cycle: vec![], after: After::Stop }).is_err());
}
