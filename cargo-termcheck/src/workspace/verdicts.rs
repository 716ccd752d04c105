//! Linking one unit and running the engine on the functions it reports: those of its owned
//! inputs whose debug-info source file is inside the workspace (C functions of owned inputs
//! always). Everything else linked in — the member dependencies, std/core/alloc instances
//! compiled into the crate, compiler-generated glue without a source location — is analysed
//! only as a callee. Linking and analysis run on a supervised thread: a panic or the run's
//! deadline gives MAYBE for the unit's functions, never a verdict.

use super::args::WorkspaceArgs;
use super::units::LinkUnit;
use crate::supervise::{run_with_limit, Supervised, GRACE};
use std::collections::HashSet;
use std::num::NonZeroUsize;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};
use termcheck_engine::analysis::{analyze_module_observed, FunctionReport, FunctionSelection};
use termcheck_engine::cache::ReportStore;
use termcheck_engine::config::Config;
use termcheck_engine::frontend::linking::{link_files_with_std, LinkedFunction, LinkedModule};
use termcheck_engine::frontend::std_bitcode::StdBitcodeOptions;
use termcheck_engine::ir::Module;
use termcheck_engine::verdict::{MemorySafety, Termination};

/// The least time linking one module gets (loading, linking and translating bitcode takes
/// seconds even for large crates).
const LINK_TIME: Duration = Duration::from_secs(120);

/// One reported function's verdict.
#[derive(Clone, Debug)]
pub struct FunctionVerdict {
    pub owner: String,
    /// The demangled name (Rust, without hashes) or the symbol (C).
    pub display_name: String,
    /// `path:line`, the path relative to the workspace root when inside it.
    pub location: Option<String>,
    pub report: FunctionReport,
}

/// The outcome of one unit.
#[derive(Debug, Default)]
pub struct UnitOutcome {
    pub label: String,
    pub functions: Vec<FunctionVerdict>,
    /// Owned Rust functions without a source location (compiler-generated glue), not reported.
    pub unreported_glue: usize,
    /// Owned internal functions the linker dropped (unreferenced): not analysed.
    pub dropped: Vec<(String, String)>,
    /// Why the unit could not be linked or analysed at all (a failure of the run).
    pub failure: Option<String>,
    /// The direct callees (symbols, defined or not) of every reported function, for the
    /// policy's allowed-callee rule.
    pub calls: Vec<(String, Vec<String>)>,
    /// The source annotations of the module's functions (`#[termcheck::…]`, `termcheck.h`).
    pub annotations: Vec<crate::policy::annotations::SourceAnnotation>,
    /// `termcheck:` annotation texts the front end could not read.
    pub malformed_annotations: Vec<termcheck_engine::ir::annotation::MalformedAnnotation>,
}

/// The analysis options of the run.
pub struct AnalysisOptions<'a> {
    pub args: &'a WorkspaceArgs,
    pub workspace_root: &'a Path,
    pub deadline: Instant,
    /// termcheck.toml: `[analysis] function-timeout` and `[[timeout]]` entries.
    pub policy: &'a crate::policy::Policy,
    /// Where the sysroot's std bitcode is cached once extracted (`frontend::std_bitcode`).
    pub std_bitcode_dir: PathBuf,
}

/// The engine's configuration for `remaining` time and the functions `names` (symbols): each
/// function's budget is the last matching `[[timeout]]` of termcheck.toml, else its
/// `[analysis] function-timeout`, else `--function-timeout` (docs/policy.md, "Precedence").
/// The budgets are part of the report cache's key.
fn config_for(args: &WorkspaceArgs, policy: &crate::policy::Policy, remaining: Duration, names: &[String]) -> Config {
    let jobs = args.analysis_jobs.unwrap_or_else(|| std::thread::available_parallelism().unwrap_or(NonZeroUsize::MIN));
    let mut config = Config::new(args.semantics.into(), remaining).with_jobs(jobs);
    let default = policy.function_timeout.unwrap_or_else(|| Duration::from_secs_f64(args.per_function_timeout));
    config = config.clone().with_function_timeout(default).unwrap_or(config);
    for name in names {
        if let Some(limit) = policy.timeout_entry_for(&display_name(name), name) {
            config = config.clone().with_function_timeout_for(name, limit).unwrap_or(config);
        }
    }
    config
}

/// Whether a linked function is reported by `unit`.
fn is_reported(f: &LinkedFunction, unit: &LinkUnit, root: &Path) -> bool {
    unit.reported_owners.contains(&f.owner)
        && (unit.c_owners.contains(&f.owner) || f.source_file.as_deref().is_some_and(|p| p.starts_with(root)))
}

/// A symbol's readable name: v0/legacy Rust symbols demangled without hashes, others as they are.
pub fn display_name(symbol: &str) -> String {
    match rustc_demangle::try_demangle(symbol) {
        Ok(demangled) => format!("{demangled:#}"),
        Err(_) => symbol.to_string(),
    }
}

/// `FILE:LINE` of a report, the file relative to the workspace root when inside it.
fn location_text(source: Option<&Path>, report: &FunctionReport, root: &Path) -> Option<String> {
    let line = report.location.as_ref().map(|l| l.line)?;
    let file: PathBuf = match source {
        Some(path) => path.strip_prefix(root).map(Path::to_path_buf).unwrap_or_else(|_| path.to_path_buf()),
        None => PathBuf::from(&report.location.as_ref()?.file),
    };
    Some(format!("{}:{line}", file.display()))
}

/// A MAYBE report (memory safety unknown) for `reason`, at the function's location.
fn maybe(name: &str, reason: &str, module: &Module) -> FunctionReport {
    FunctionReport {
        name: name.to_string(),
        location: module.functions.iter().find(|f| f.name == name).and_then(|f| f.loc.clone()),
        termination: Termination::Maybe { reason: reason.to_string() },
        memory_safety: MemorySafety::Unknown { reason: reason.to_string() },
        seconds: 0.0,
        stats: vec![],
    }
}

/// Links and analyses `unit`; functions already reported by an earlier unit (`seen`, by
/// symbol) are not reported again.
pub fn analyse_unit(unit: &LinkUnit, options: &AnalysisOptions<'_>, store: Box<dyn ReportStore + Send>, seen: &mut HashSet<String>, progress: &super::progress::Progress) -> UnitOutcome {
    let mut outcome = UnitOutcome { label: unit.label.clone(), ..UnitOutcome::default() };
    let inputs = unit.inputs.clone();
    let name = unit.label.clone();
    // Linking is not analysis: it gets at least LINK_TIME even when the analysis time is up.
    let link_limit = options.deadline.saturating_duration_since(Instant::now()).max(LINK_TIME) + GRACE;
    let std = StdBitcodeOptions { cache_dir: Some(options.std_bitcode_dir.clone()), disabled: false };
    let linked: LinkedModule = match run_with_limit(link_limit, move || link_files_with_std(&inputs, &name, &std)) {
        Supervised::Finished(Ok(linked)) => linked,
        Supervised::Finished(Err(error)) => {
            outcome.failure = Some(format!("{:?}", miette::Report::new(error)));
            return outcome;
        }
        Supervised::Panicked(message) => {
            outcome.failure = Some(format!("internal error while linking: {message}"));
            return outcome;
        }
        Supervised::TimedOut => {
            outcome.failure = Some(format!("linking took longer than {} s", link_limit.as_secs()));
            return outcome;
        }
        Supervised::MemoryLimit(megabytes) => {
            outcome.failure = Some(format!("linking: {}", crate::supervise::memory_limit_reason(megabytes)));
            return outcome;
        }
    };
    let root = options.workspace_root;
    outcome.dropped = linked.dropped.iter().filter(|(_, owner)| unit.reported_owners.contains(owner)).cloned().collect();
    outcome.unreported_glue = linked.functions.iter().filter(|f| unit.reported_owners.contains(&f.owner) && !unit.c_owners.contains(&f.owner) && f.source_file.is_none()).count();
    let reported: Vec<&LinkedFunction> = linked.functions.iter().filter(|f| is_reported(f, unit, root) && !seen.contains(&f.name)).collect();
    seen.extend(reported.iter().map(|f| f.name.clone()));
    let names: Vec<String> = reported.iter().map(|f| f.name.clone()).collect();
    progress.start_unit(&unit.label, names.len());
    let remaining = options.deadline.saturating_duration_since(Instant::now());
    let module = Arc::new(linked.module);
    outcome.calls = direct_callees(&module, &names);
    outcome.annotations = module
        .annotations
        .iter()
        .flat_map(|(symbol, list)| {
            list.iter().map(|annotation| crate::policy::annotations::SourceAnnotation { symbol: symbol.clone(), path: display_name(symbol), annotation: annotation.clone() })
        })
        .collect();
    outcome.malformed_annotations = module.malformed_annotations.clone();
    let timeout = format!("timeout after {} s", options.args.analysis_timeout);
    let all_maybe = |reason: &str| -> Vec<FunctionReport> { names.iter().map(|n| maybe(n, reason, &module)).collect() };
    let reports: Vec<FunctionReport> = if names.is_empty() {
        Vec::new()
    } else if remaining.is_zero() {
        all_maybe(&timeout)
    } else {
        let token = termcheck_engine::cancel::CancelToken::new();
        let config = config_for(options.args, options.policy, remaining, &names).with_cancel(token.clone());
        let shared = Arc::clone(&module);
        let selection = FunctionSelection::Named(names.clone());
        let bar = progress.clone();
        let selected: HashSet<String> = names.iter().cloned().collect();
        let finished: Arc<std::sync::Mutex<Vec<FunctionReport>>> = Arc::default();
        let sink = Arc::clone(&finished);
        let on_report = move |report: &FunctionReport| {
            if selected.contains(&report.name) {
                bar.function_done();
                if let Ok(mut done) = sink.lock() {
                    done.push(report.clone());
                }
            }
        };
        let kept_or_maybe = |reason: &str| {
            let done = finished.lock().map(|d| d.clone()).unwrap_or_default();
            let internal = |name: &str| module.function_by_name(name).is_some_and(|f| !module.function(f).callable_from_outside());
            keep_finished(&names, done, internal, |n| maybe(n, reason, &module))
        };
        match crate::supervise::run_cancelling(remaining + GRACE, &token, move || analyze_module_observed(&shared, &config, &selection, store.as_ref(), &on_report)) {
            Supervised::Finished(report) => report.functions,
            Supervised::Panicked(message) => all_maybe(&format!("internal error: {message}")),
            // Either way the reports that finished before the supervisor stopped waiting are
            // kept (`keep_finished`); the rest are MAYBE with the reason. The worker was
            // cancelled and normally stops at once (`supervise::run_cancelling`); after the
            // memory limit no later unit starts either way.
            Supervised::TimedOut => kept_or_maybe(&timeout),
            Supervised::MemoryLimit(megabytes) => kept_or_maybe(&crate::supervise::memory_limit_reason(megabytes)),
        }
    };
    for report in reports {
        let Some(f) = reported.iter().find(|f| f.name == report.name) else { continue };
        outcome.functions.push(FunctionVerdict {
            owner: f.owner.clone(),
            display_name: display_name(&f.name),
            location: location_text(f.source_file.as_deref(), &report, root),
            report,
        });
    }
    outcome
}

/// The reports of a run the supervisor ended: each function's own report if it finished in
/// time, else `unfinished(name)`. An internal function's own report is kept only when it
/// proves both properties: its NO or violation was found from arbitrary arguments, which the
/// engine re-judges in its callers' contexts only at the end of a complete run
/// (`call_contexts`), so it is not a verdict on its own.
fn keep_finished(names: &[String], done: Vec<FunctionReport>, internal: impl Fn(&str) -> bool, unfinished: impl Fn(&str) -> FunctionReport) -> Vec<FunctionReport> {
    names
        .iter()
        .map(|name| {
            let proved = |r: &FunctionReport| matches!(r.termination, Termination::Yes(_)) && r.memory_safety == MemorySafety::Proved;
            done.iter().find(|r| &r.name == name && (!internal(name) || proved(r))).cloned().unwrap_or_else(|| unfinished(name))
        })
        .collect()
}

/// The direct callees of each function in `names` (symbols; calls through pointers are not
/// listed: the engine reports such calls itself as the reason a proof is missing).
fn direct_callees(module: &termcheck_engine::ir::Module, names: &[String]) -> Vec<(String, Vec<String>)> {
    let cg = termcheck_engine::ir::callgraph::CallGraph::new(module);
    names
        .iter()
        .filter_map(|n| module.function_by_name(n).map(|f| (n, f)))
        .map(|(n, f)| {
            let mut callees: Vec<String> = cg.sites[f.0 as usize]
                .iter()
                .filter_map(|site| match site.target {
                    termcheck_engine::ir::callgraph::CallTarget::Defined(g) | termcheck_engine::ir::callgraph::CallTarget::Declared(g) => Some(module.function(g).name.clone()),
                    _ => None,
                })
                .collect();
            callees.sort();
            callees.dedup();
            (n.clone(), callees)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use termcheck_engine::frontend::linking::BitcodeInput;

    #[test]
    fn rust_symbols_are_demangled_without_hashes() {
        assert_eq!(display_name("_RNvCskeZPfhuDrfT_7ffi_exp5total"), "ffi_exp::total");
        assert_eq!(display_name("_ZN7ffi_exp5total17h0123456789abcdefE"), "ffi_exp::total");
        assert_eq!(display_name("c_sum"), "c_sum");
    }

    #[test]
    fn a_supervised_timeout_keeps_the_reports_that_finished() {
        let report = |name: &str, termination: Termination| FunctionReport { name: name.into(), location: None, termination, memory_safety: MemorySafety::Proved, seconds: 0.0, stats: vec![] };
        let no = || Termination::No(Default::default());
        let done = vec![report("pub_no", no()), report("internal_no", no()), report("internal_yes", Termination::Yes(Default::default()))];
        let names: Vec<String> = ["pub_no", "internal_no", "internal_yes", "late"].map(String::from).to_vec();
        let kept = keep_finished(&names, done, |n| n.starts_with("internal"), |n| report(n, Termination::Maybe { reason: "timeout".into() }));
        let words: Vec<&str> = kept.iter().map(|r| match r.termination { Termination::Yes(_) => "YES", Termination::No(_) => "NO", Termination::Maybe { .. } => "MAYBE" }).collect();
        assert_eq!(words, ["NO", "MAYBE", "YES", "MAYBE"]);
    }

    #[test]
    fn the_policys_time_limits_reach_the_engines_configuration() {
        use clap::Parser;
        let cli = crate::cli::Cli::try_parse_from(["cargo-termcheck", "--function-timeout", "7"]).expect("arguments");
        let slow = "_RNvCskeZPfhuDrfT_7ffi_exp4slow";
        let names = vec![slow.to_string(), "c_fast".to_string()];
        let root = Path::new("/w");
        // No termcheck.toml: --function-timeout for every function.
        let config = config_for(&cli.workspace, &crate::policy::Policy::defaults(root), Duration::from_secs(100), &names);
        assert_eq!((config.function_timeout_of(slow), config.function_timeout_of("c_fast")), (Duration::from_secs(7), Duration::from_secs(7)));
        // [analysis] function-timeout, then the last matching [[timeout]] (by demangled path or symbol).
        let text = "[analysis]\nfunction-timeout = 3\n\n[[timeout]]\nfunction = \"ffi_exp::*\"\nseconds = 30\n\n[[timeout]]\nfunction = \"ffi_exp::slow\"\nseconds = 45\n";
        let policy = crate::policy::parse_policy(text, Path::new("/w/termcheck.toml"), root).expect("valid policy");
        let config = config_for(&cli.workspace, &policy, Duration::from_secs(100), &names);
        assert_eq!(config.function_timeout_of(slow), Duration::from_secs(45));
        assert_eq!(config.function_timeout_of("c_fast"), Duration::from_secs(3));
    }

    #[test]
    fn only_owned_functions_inside_the_workspace_are_reported() {
        let unit = LinkUnit {
            label: "a lib `a`".into(),
            inputs: vec![BitcodeInput { path: "/t/a.bc".into(), owner: "a lib `a`".into() }],
            reported_owners: vec!["a lib `a`".into(), "a C code".into()],
            c_owners: vec!["a C code".into()],
        };
        let f = |owner: &str, file: Option<&str>| LinkedFunction { name: "f".into(), owner: owner.into(), source_file: file.map(PathBuf::from) };
        let root = Path::new("/w");
        assert!(is_reported(&f("a lib `a`", Some("/w/a/src/lib.rs")), &unit, root));
        // A std instance compiled into the crate, and glue without a location.
        assert!(!is_reported(&f("a lib `a`", Some("/rustc/abc/library/core/src/slice/iter.rs")), &unit, root));
        assert!(!is_reported(&f("a lib `a`", None), &unit, root));
        // A member dependency linked in for its callees.
        assert!(!is_reported(&f("b lib `b`", Some("/w/b/src/lib.rs")), &unit, root));
        // C of the package, with or without debug info.
        assert!(is_reported(&f("a C code", Some("/w/a/csrc/ops.c")), &unit, root));
        assert!(is_reported(&f("a C code", None), &unit, root));
    }
}
