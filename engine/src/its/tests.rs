//! Parser tests: a T2 example, malformed inputs (truncations, garbage) and the benchmark files.

use super::*;
use crate::error::EngineError;

pub(crate) const QUOT: &str = r#"(declare-sort Loc 0)
(declare-const f1 Loc)
(declare-const f217 Loc)
(declare-const __init Loc)
(assert (distinct f1 f217 __init ))
(define-fun cfg_init ( (pc Loc) (src Loc) (rel Bool) ) Bool (and (= pc src) rel))
(define-fun cfg_trans2 ( (pc Loc) (src Loc) (pc1 Loc) (dst Loc) (rel Bool) ) Bool (and (= pc src) (= pc1 dst) rel))
(define-fun cfg_trans3 ( (pc Loc) (exit Loc) (pc1 Loc) (call Loc) (pc2 Loc) (return Loc) (rel Bool) ) Bool
  (and (= pc exit) (= pc1 call) (= pc2 return) rel))
(define-fun init_main ( (pc Loc) (arg1 Int) (arg2 Int) ) Bool (cfg_init pc __init true))
(define-fun next_main ( (pc Loc) (arg1 Int) (arg2 Int) (pc1 Loc) (arg1P Int) (arg2P Int) ) Bool
  (or
    (cfg_trans2 pc f1 pc1 f217 (exists ((x2 Int)) (and (and (and (and (> arg2P 0) (> arg2 1)) (> x2 (- 1))) (> arg1 0)) (= (+ x2 1) arg1P))))
    (cfg_trans2 pc f217 pc1 f217 (and (and (and (> arg2 0) (> arg1 0)) (= arg1 arg1P)) (= (- (- arg2 1) (- arg1 1)) arg2P)))
    (cfg_trans2 pc __init pc1 f1 true)
  )
)
"#;

/// Found by the its_smt2 fuzz target: a NUL inside a variable name reached z3's symbol
/// constructor, which panics on it. Now a parse error at the NUL, in both formats.
#[test]
fn nul_character_is_a_parse_error_at_its_position() {
    let text = QUOT.replace("(> arg2 0)", "(> ar\u{0}g2 0)");
    match parse_file("q.smt2", &text, false) {
        Err(EngineError::ItsParse { line, col, message, .. }) => {
            assert_eq!((line, col), (14, 54), "{message}");
            assert_eq!(message, "NUL character in the input");
        }
        other => panic!("{other:?}"),
    }
    assert!(matches!(parse_file("q.koat", "(GOAL COMPLEXITY)\n(VAR x\u{0})", true), Err(EngineError::ItsParse { line: 2, col: 7, .. })));
}

#[test]
fn parses_t2_example() {
    let its = parse_file("q.smt2", QUOT, false).unwrap();
    assert_eq!(its.vars.len(), 2);
    assert_eq!(its.transitions.len(), 3);
    assert_eq!(its.location_name(its.start.unwrap()), "__init");
    let loop_rule = &its.transitions[1];
    assert_eq!(loop_rule.update[0], Term::Var(Var::new("arg1")));
    // arg2' = (arg2 - 1) - (arg1 - 1)
    let lin = loop_rule.update[1].as_linear().unwrap();
    assert_eq!(lin.coeff(&Var::new("arg2")), 1);
    assert_eq!(lin.coeff(&Var::new("arg1")), -1);
    // The first rule: arg1' = x2 + 1 (x2 a temporary), arg2' a temporary constrained by the guard.
    let first = &its.transitions[0];
    assert!(first.update[0].to_string().contains("x2#"));
    assert!(first.update[1].to_string().contains("arg2P#"));
}

#[test]
fn malformed_inputs_give_positions_never_panics() {
    for cut in (0..QUOT.len()).step_by(7) {
        if !QUOT.is_char_boundary(cut) {
            continue;
        }
        let r = parse_file("q.smt2", &QUOT[..cut], false);
        assert!(matches!(r, Err(EngineError::ItsParse { .. })), "cut at {cut} accepted");
        let _ = parse_file("q.koat", &QUOT[..cut], true);
    }
    for garbage in ["", ")", "((((", "(define-fun next_main)", "\u{0}\u{1}", "(declare-const x Int)", "(foo)"] {
        assert!(parse_file("g.smt2", garbage, false).is_err());
        assert!(parse_file("g.koat", garbage, true).is_err());
    }
    let e = parse_file("q.smt2", &QUOT.replace("(> arg2 0)", "(> arg2 zz)"), false).unwrap_err();
    match e {
        EngineError::ItsParse { line, message, .. } => {
            assert_eq!(line, 14);
            assert!(message.contains("zz"));
        }
        other => panic!("unexpected error {other:?}"),
    }
}

#[test]
fn parses_every_benchmark_file() {
    let dir = std::path::Path::new("/work/shared/bench/tpdb-its/From_AProVE_2014");
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    let mut count = 0;
    for e in entries.flatten() {
        let path = e.path();
        let text = std::fs::read_to_string(&path).unwrap();
        let its = parse_file(&path.display().to_string(), &text, false);
        assert!(its.is_ok(), "{}: {:?}", path.display(), its.err());
        count += 1;
    }
    assert!(count > 0);
}

#[test]
fn deeply_nested_input_is_rejected_not_overflowing() {
    let deep = format!("{}(> arg1 0){}", "(and ".repeat(5000), ")".repeat(5000));
    let text = QUOT.replace("(> arg2 0) (> arg1 0)) (= arg1 arg1P))", &format!("{deep} (> arg1 0)) (= arg1 arg1P))"));
    assert!(parse_file("d.smt2", &text, false).is_err());
}

#[test]
fn a_literal_beyond_128_bits_is_out_of_range_not_an_unknown_symbol() {
    let big = "9".repeat(100);
    for literal in [big.clone(), format!("-{big}")] {
        let text = QUOT.replace("(> arg2 0)", &format!("(> arg2 {literal})"));
        match parse_file("q.smt2", &text, false) {
            Err(EngineError::ItsParse { line, col, message, .. }) => {
                assert_eq!((line, col), (14, 57), "{message}");
                assert!(message.starts_with("integer literal out of range (100 digits"), "{message}");
                assert!(!message.contains("unknown symbol"), "{message}");
            }
            other => panic!("unexpected {other:?}"),
        }
    }
    // The bounds of the 128-bit integers still parse.
    for literal in [MAX_LITERAL.to_string(), format!("-{MAX_LITERAL}")] {
        let text = QUOT.replace("(> arg2 0)", &format!("(> arg2 {literal})"));
        assert!(parse_file("q.smt2", &text, false).is_ok(), "{literal}");
    }
    // Via the file parser the message carries the file, line and column.
    let e = parse_file("b.koat", &format!("(RULES\n  f(x) -> f({big})\n)\n"), true).unwrap_err();
    assert!(e.to_string().starts_with("b.koat:2:13: integer literal out of range (100 digits"), "{e}");
}
