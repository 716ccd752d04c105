//! The gate on real engine reports: a small C module analysed by `analyze_module`, so that the
//! classification is checked against the engine's own words, not only against made-up reports.

use super::{evaluate, Check, FunctionResult, Policy, SourceLocation, Status};
use std::num::NonZeroUsize;
use std::path::Path;
use std::time::Duration;
use termcheck_engine::analysis::{analyze_module, FunctionSelection};
use termcheck_engine::config::Config;
use termcheck_engine::driver::InputKind;
use termcheck_engine::verdict::IntSemantics;

const PROGRAM: &str = r#"
unsigned countdown(unsigned n) { while (n > 0) n--; return n; }
int spin(int x) { while (x != 0) { x = x; } return 0; }
int divide(int a) { int zero = 0; return a / zero; }
int uses_spin(int x) { return spin(x); }
"#;

#[test]
fn engine_verdicts_become_the_documented_findings() {
    let module = termcheck_engine::frontend::load_source(PROGRAM, InputKind::C).expect("compiles");
    let config = Config::new(IntSemantics::C, Duration::from_secs(60))
        .with_function_timeout(Duration::from_secs(20))
        .expect("positive")
        .with_jobs(NonZeroUsize::new(2).expect("two"));
    let report = analyze_module(&module, &config, &FunctionSelection::AllDefined);
    let results: Vec<FunctionResult> = report
        .functions
        .into_iter()
        .map(|f| FunctionResult {
            crate_name: None,
            symbol: f.name.clone(),
            path: f.name.clone(),
            location: f.location.as_ref().map(|l| SourceLocation { file: l.file.clone(), line: l.line }),
            report: f,
        })
        .collect();
    let graph = [("uses_spin", ["spin"])].into_iter().collect();
    let evaluation = evaluate(&Policy::defaults(Path::new("/")), &results, &[], Some(&graph));
    let of = |name: &str| evaluation.functions.iter().find(|f| f.result.symbol == name).unwrap_or_else(|| panic!("{name}"));
    let checks = |name: &str| of(name).findings.iter().map(|f| f.check).collect::<Vec<_>>();
    assert_eq!(of("countdown").status, Status::Proved, "{:?}", of("countdown").result.report);
    assert!(checks("spin").contains(&Check::NonTermination), "{:?}", of("spin").result.report);
    assert_eq!(of("spin").status, Status::Error);
    // Division by zero is immediate undefined behaviour (engine/src/interp/SEMANTICS.md).
    assert!(checks("divide").contains(&Check::UndefinedBehaviour), "{:?}", of("divide").result.report);
    // The caller inherits the callee's non-termination through inlining: never proved.
    assert_ne!(of("uses_spin").status, Status::Proved, "{:?}", of("uses_spin").result.report);
    assert_eq!(evaluation.exit_code(), super::exit_code::POLICY_VIOLATED);
}
