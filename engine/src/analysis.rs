//! Whole-module analysis: one termination and memory-safety verdict per defined function.
//!
//! This is the engine API the `--all-functions` mode and the cargo front end are built on.
//! Today every selected function is analysed as an entry function of its own (its parameters
//! arbitrary, every call inlined) by the same pipeline as `prove FILE`, independent functions
//! in parallel on a rayon pool of `jobs` threads; internal functions are then re-judged in
//! their call contexts (`call_contexts`); the modular analysis of seed 002 (summaries
//! reused by every caller, recursion, a persistent cache) replaces the inside of
//! [`analyze_module`] without changing its contract.

use crate::config::Config;
use crate::facts::ModuleFacts;
use crate::ir::callgraph::CallGraph;
use crate::ir::{FuncId, Module, SrcLoc};
use crate::schedule::Finished;
use std::collections::BTreeSet;
use crate::verdict::{MemorySafety, Report, Termination};
use serde::{Deserialize, Serialize};
use std::time::Instant;

/// Which functions of a module get a verdict.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FunctionSelection {
    /// Every function with a body.
    AllDefined,
    /// The named functions (each must have a body).
    Named(Vec<String>),
}

/// The verdicts of one function.
#[derive(Clone, PartialEq, Debug, Serialize, Deserialize)]
pub struct FunctionReport {
    /// The symbol name in the module.
    pub name: String,
    /// Where the function is defined (from debug info), if known.
    pub location: Option<SrcLoc>,
    pub termination: Termination,
    pub memory_safety: MemorySafety,
    /// Wall-clock time spent on this function.
    pub seconds: f64,
    /// Statistics of the analysis, free-form (as in [`Report::stats`]).
    pub stats: Vec<(String, String)>,
}

/// The result of a whole-module run.
#[derive(Clone, PartialEq, Debug, Serialize, Deserialize)]
pub struct ModuleReport {
    /// One report per selected function, in module order.
    pub functions: Vec<FunctionReport>,
    /// Functions analysed in this run.
    pub analysed: usize,
    /// Functions whose result came from a stored summary.
    pub reused: usize,
    pub seconds: f64,
    /// Callee summaries added to the run's summary store (`symexec::SummaryStore`).
    #[serde(default)]
    pub summaries_stored: u64,
    /// Calls whose callee was served from the summary store instead of having its graph built.
    #[serde(default)]
    pub calls_served_from_summaries: u64,
    /// Summaries loaded from the summary cache on disk (proved by earlier runs).
    #[serde(default)]
    pub summaries_loaded_from_disk: u64,
    /// Calls served by a summary loaded from disk (included in `calls_served_from_summaries`).
    #[serde(default)]
    pub calls_served_from_disk: u64,
}

/// Analyses the selected functions of `module`: the whole run ends by `config.timeout()`, one
/// function by `config.function_timeout_of(name)`, on `config.jobs()` worker threads. Functions
/// named in `selection` that do not exist or have no body are reported as MAYBE with that
/// reason (the caller validates names beforehand when it wants an error instead).
pub fn analyze_module(module: &Module, config: &Config, selection: &FunctionSelection) -> ModuleReport {
    analyze_module_with_store(module, config, selection, &crate::cache::NoStore)
}

/// [`analyze_module`] with stored reports: each selected function is looked up in `store`
/// under its cache key (`cache::ModuleKeys`: the function, everything it reaches, its facts,
/// the globals, the configuration and the engine build) before it is analysed, and its report
/// is stored afterwards unless it ran out of time. `analysed` and `reused` count both kinds.
pub fn analyze_module_with_store(
    module: &Module,
    config: &Config,
    selection: &FunctionSelection,
    store: &dyn crate::cache::ReportStore,
) -> ModuleReport {
    analyze_module_observed(module, config, selection, store, &|_| {})
}

/// [`analyze_module_with_store`] that calls `finished` with each selected function's report as
/// soon as it is known (from the store or analysed), on the worker's thread: for progress
/// displays. Reports derived afterwards from call contexts are not passed again.
pub fn analyze_module_observed(
    module: &Module,
    config: &Config,
    selection: &FunctionSelection,
    store: &dyn crate::cache::ReportStore,
    finished: &(dyn Fn(&FunctionReport) + Sync),
) -> ModuleReport {
    let started = Instant::now();
    let deadline = started + config.timeout();
    // Shared by every worker: each function's facts are computed once.
    let facts = ModuleFacts::new(module);
    let keys = store.is_enabled().then(|| crate::cache::ModuleKeys::new(module, &facts, config));
    let reused = std::sync::atomic::AtomicUsize::new(0);
    let targets: Vec<Result<FuncId, String>> = match selection {
        FunctionSelection::AllDefined => (0..module.functions.len() as u32)
            .map(FuncId)
            .filter(|f| !module.function(*f).is_declaration())
            .map(Ok)
            .collect(),
        FunctionSelection::Named(names) => names
            .iter()
            .map(|n| module.function_by_name(n).filter(|f| !module.function(*f).is_declaration()).ok_or_else(|| n.clone()))
            .collect(),
    };
    let cg = CallGraph::new(module);
    // The module-wide summary store (docs/design/modular.md): with more than one function to
    // analyse, the proved entry states of callees are shared by every task, callees first.
    // With a persistent store, summaries also persist: loaded from and written to its summary
    // cache under the functions' summary keys (docs/design/modular.md "Summaries on disk").
    let summaries = (targets.len() > 1).then(|| {
        let fresh = crate::symexec::SummaryStore::new(module);
        match (store.summaries(), keys.as_ref()) {
            (Some(backend), Some(keys)) => {
                let fkeys = (0..module.functions.len() as u32).map(|f| keys.summary_key(FuncId(f))).collect();
                fresh.with_persistence(module, backend, fkeys)
            }
            _ => fresh,
        }
    });
    // One function: from the store, or analysed with the callees already proved (their own
    // analyses, finished before it: `schedule`) not executed first.
    let analyse_one = |f: FuncId, done: Option<&Finished<FunctionReport>>| {
        let key = keys.as_ref().and_then(|k| k.key(f));
        let lookup = Instant::now();
        if let Some(mut report) = key.and_then(|k| store.get(&k)).filter(|r| r.name == module.function(f).name) {
            reused.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            report.seconds = lookup.elapsed().as_secs_f64();
            finished(&report);
            return report;
        }
        let proved = done.map(|done| proved_callees(module, &facts, &cg, f, done)).unwrap_or_default();
        let (report, cacheable) = analyze_function(module, &facts, f, config, deadline, &proved, summaries.as_ref());
        if let Some(key) = key.filter(|_| cacheable) {
            store.put(&key, &report);
        }
        finished(&report);
        report
    };
    let analyse = |target: &Result<FuncId, String>| match target {
        Ok(f) => analyse_one(*f, None),
        Err(name) => {
            let reason = format!("function `{name}` is not defined in the module");
            FunctionReport {
                name: name.clone(),
                location: None,
                termination: Termination::Maybe { reason: reason.clone() },
                memory_safety: MemorySafety::Unknown { reason },
                seconds: 0.0,
                stats: vec![],
            }
        }
    };
    let pool = (targets.len() > 1).then(|| rayon::ThreadPoolBuilder::new().num_threads(config.jobs().get()).stack_size(crate::config::WORKER_STACK_BYTES).build().ok()).flatten();
    let mut functions: Vec<FunctionReport> = match pool {
        Some(pool) => {
            let defined: Vec<FuncId> = targets.iter().filter_map(|t| t.as_ref().ok().copied()).collect();
            let finished = crate::schedule::bottom_up(&cg, module.functions.len(), &defined, &pool, &|f, done| analyse_one(f, Some(done)));
            targets
                .iter()
                .map(|t| match t {
                    Ok(f) => finished.get(*f).cloned().unwrap_or_else(|| analyse_one(*f, None)),
                    Err(_) => analyse(t),
                })
                .collect()
        }
        // One function (e.g. `prove FILE`'s entry): on the caller's thread and stack.
        None => targets.iter().map(analyse).collect(),
    };
    crate::call_contexts::judge_internal_functions_in_contexts(module, &mut functions);
    let reused = reused.into_inner();
    let analysed = targets.iter().filter(|t| t.is_ok()).count() - reused;
    let (summaries_stored, calls_served_from_summaries) = summaries.as_ref().map(|s| (s.stored(), s.served())).unwrap_or_default();
    let (summaries_loaded_from_disk, calls_served_from_disk) = summaries.as_ref().map(|s| (s.loaded_from_disk(), s.served_from_disk())).unwrap_or_default();
    ModuleReport {
        functions,
        analysed,
        reused,
        seconds: started.elapsed().as_secs_f64(),
        summaries_stored,
        calls_served_from_summaries,
        summaries_loaded_from_disk,
        calls_served_from_disk,
    }
}

/// The callees `f` may reach (outside its own call-graph component) whose own finished
/// analyses prove termination and memory safety for all arguments, and whose code touches no
/// memory and returns an integer or nothing: their calls need not be executed
/// (`pipeline::prove_function_assuming`). Only own analyses are in `done` (verdicts derived
/// from call contexts are made after the whole run), so no proof rests on itself.
fn proved_callees(module: &Module, facts: &ModuleFacts, cg: &CallGraph, f: FuncId, done: &Finished<FunctionReport>) -> BTreeSet<FuncId> {
    let mut seen = BTreeSet::from([f]);
    let mut stack = vec![f];
    let mut proved = BTreeSet::new();
    while let Some(g) = stack.pop() {
        for &h in &cg.callees[g.0 as usize] {
            if !seen.insert(h) {
                continue;
            }
            stack.push(h);
            let func = module.function(h);
            let usable = matches!(func.ret, crate::ir::Type::Int(_) | crate::ir::Type::Void) && !func.is_vararg && facts.memory_free(module, h);
            let proof = done.get_for(f, h).is_some_and(|r| matches!(r.termination, Termination::Yes(_)) && r.memory_safety == MemorySafety::Proved);
            if usable && proof {
                proved.insert(h);
            }
        }
    }
    proved
}

/// One function as an entry of its own: its parameters arbitrary, its callees inlined (or,
/// first, those in `proved` not executed). Also says whether the report may be cached
/// (`cache::is_cacheable`).
fn analyze_function(module: &Module, facts: &ModuleFacts, f: FuncId, config: &Config, deadline: Instant, proved: &BTreeSet<FuncId>, summaries: Option<&crate::symexec::SummaryStore>) -> (FunctionReport, bool) {
    let started = Instant::now();
    let func = module.function(f);
    let own_deadline = (started + config.function_timeout_of(&func.name)).min(deadline);
    let report = if config.cancel_token().is_cancelled() || started >= deadline {
        let reason = "the run's time limit was used up before this function was analysed".to_string();
        Report { termination: Termination::Maybe { reason: reason.clone() }, memory_safety: Some(MemorySafety::Unknown { reason }), stats: vec![] }
    } else {
        crate::pipeline::prove_function_assuming(module, facts, f, config, own_deadline, proved, summaries)
    };
    let memory_safety = report
        .memory_safety
        .unwrap_or(MemorySafety::Unknown { reason: "no memory-safety verdict".into() });
    let report = FunctionReport {
        name: func.name.clone(),
        location: func.loc.clone(),
        termination: report.termination,
        memory_safety,
        seconds: started.elapsed().as_secs_f64(),
        stats: report.stats,
    };
    let budget = own_deadline.saturating_duration_since(started);
    let cacheable = crate::cache::is_cacheable(&report, started.elapsed(), budget);
    (report, cacheable)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::driver::InputKind;
    use crate::verdict::IntSemantics;
    use std::num::NonZeroUsize;
    use std::time::Duration;

    fn options(jobs: usize) -> Config {
        Config::new(IntSemantics::C, Duration::from_secs(60))
            .with_function_timeout(Duration::from_secs(20))
            .expect("positive")
            .with_jobs(NonZeroUsize::new(jobs).expect("at least one job"))
    }

    const TWO_FUNCTIONS: &str = r#"
        unsigned countdown(unsigned n) { while (n > 0) n--; return n; }
        int spin(int x) { while (x != 0) { x = x; } return 0; }
        int reads(int *p) { return *p; }
    "#;

    #[test]
    fn every_defined_function_gets_a_verdict_of_its_own() {
        let module = crate::frontend::load_source(TWO_FUNCTIONS, InputKind::C).expect("compiles");
        let report = analyze_module(&module, &options(2), &FunctionSelection::AllDefined);
        let by_name = |n: &str| report.functions.iter().find(|f| f.name == n).unwrap_or_else(|| panic!("{n} reported"));
        assert_eq!(report.functions.len(), 3);
        assert_eq!(report.analysed, 3);
        assert!(matches!(by_name("countdown").termination, Termination::Yes(_)), "{:?}", by_name("countdown"));
        assert!(matches!(by_name("spin").termination, Termination::No(_)), "{:?}", by_name("spin"));
        // An arbitrary pointer parameter: the load may be out of bounds, so nothing is proved.
        assert!(!matches!(by_name("reads").memory_safety, MemorySafety::Proved), "{:?}", by_name("reads"));
        assert!(by_name("countdown").location.as_ref().is_some_and(|l| l.line == 2));
    }

    #[test]
    fn unknown_names_are_reported_not_dropped() {
        let module = crate::frontend::load_source(TWO_FUNCTIONS, InputKind::C).expect("compiles");
        let sel = FunctionSelection::Named(vec!["countdown".into(), "missing".into()]);
        let report = analyze_module(&module, &options(1), &sel);
        assert_eq!(report.functions.len(), 2);
        assert!(matches!(&report.functions[1].termination, Termination::Maybe { reason } if reason.contains("missing")));
    }

    fn stat<'a>(r: &'a FunctionReport, key: &str) -> Option<&'a str> {
        r.stats.iter().find(|(k, _)| k == key).map(|(_, v)| v.as_str())
    }

    #[test]
    fn proved_memory_free_callees_are_not_executed_and_a_failed_attempt_falls_back() {
        // `work` loops; `twice` needs nothing of its result; `drive` loops on `dec`'s result,
        // which an arbitrary result cannot show decreasing, so it falls back to executing it.
        let src = r#"
            unsigned work(unsigned x) { unsigned s = 1u; while (x > 3u) { s += x; x -= 3u; } return s; }
            unsigned twice(unsigned x) { return work(x) + work(x / 2u); }
            unsigned dec(unsigned x) { return x > 0u ? x - 1u : 0u; }
            unsigned drive(unsigned x) { while (x > 0u) x = dec(x); return x; }
            unsigned keep(unsigned *p) { return *p; }
            unsigned uses_memory(unsigned x) { unsigned v = x; return keep(&v); }
        "#;
        let module = crate::frontend::load_source(src, InputKind::C).expect("compiles");
        let report = analyze_module(&module, &options(2), &FunctionSelection::AllDefined);
        let by_name = |n: &str| report.functions.iter().find(|f| f.name == n).unwrap_or_else(|| panic!("{n} reported"));
        for f in ["work", "twice", "dec", "drive", "uses_memory"] {
            assert!(matches!(by_name(f).termination, Termination::Yes(_)), "{f}: {:?}", by_name(f));
        }
        let twice = by_name("twice");
        assert_eq!(stat(twice, "calls of proved callees not executed"), Some("2"), "{twice:?}");
        let Termination::Yes(proof) = &twice.termination else { unreachable!() };
        assert!(proof.notes.iter().any(|n| n.contains("`work`") && n.contains("not executed")), "{proof:?}");
        let drive = by_name("drive");
        assert!(stat(drive, "first attempt (proved callees not executed)").is_some_and(|v| v.starts_with("not proved")), "{drive:?}");
        // `keep` reads memory: never assumed, always executed.
        assert!(stat(by_name("uses_memory"), "first attempt (proved callees not executed)").is_none(), "{:?}", by_name("uses_memory"));
    }
}
