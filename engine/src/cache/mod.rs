//! Stored function reports: cache keys, the `ReportStore` abstraction the whole-module
//! analysis takes, a no-op and an in-memory store, and the persistent disk store (`disk`).
//!
//! A function's report in `analysis::analyze_module` depends only on (1) the function and
//! every function it can reach by direct calls (inlined), (2) the module-wide facts those
//! functions are analysed with (their signed/unsigned views, whether they are summarized),
//! (3) the module's globals (every global is an allocation of the initial state, with its
//! initial contents), (4) the configuration and (5) the engine build. [`ModuleKeys`] hashes
//! exactly these into one [`CacheKey`] per function. A function that can reach an indirect
//! call, an untranslated callee or a function's address (which the interpreter may call
//! through a pointer) has no closed set of reachable functions: its key covers the own hash
//! of *every* function of the module as well.
//!
//! Key computation is pure; only [`disk::DiskStore`] does I/O (like `driver`, it lies outside
//! the analysis core).

pub mod disk;
pub mod envelope;
pub mod summaries;

use crate::analysis::FunctionReport;
use crate::config::Config;
use crate::facts::ModuleFacts;
use crate::ir::callgraph::{CallGraph, CallTarget};
use crate::ir::fingerprint::{visit_refs, ModuleHashes, RefMut};
use crate::ir::{Callee, FuncId, Module, Op};
use crate::verdict::{MemorySafety, Termination};
use std::collections::HashMap;
use std::sync::Mutex;

include!(concat!(env!("OUT_DIR"), "/build_id.rs"));

/// Version of the key derivation; bump it when what a key covers changes.
pub const KEY_VERSION: u32 = 1;

/// The key of one stored report (a blake3 hash).
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub struct CacheKey(pub [u8; 32]);

impl std::fmt::Display for CacheKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.0.iter().try_for_each(|b| write!(f, "{b:02x}"))
    }
}

/// Counters of a store's problems in one run (none of them fails the analysis).
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub struct StoreStats {
    /// Entries that were present but corrupt or truncated (treated as misses).
    pub corrupt: usize,
    /// Intact entries of another engine build or format (treated as misses).
    pub foreign: usize,
    /// Entries that could not be written (read-only directory, disk full, …).
    pub write_errors: usize,
}

/// Where function reports are looked up before and stored after their analysis.
/// Implementations never fail the analysis: a problem is a miss or a dropped write.
pub trait ReportStore: Sync {
    /// The report stored under `key`, if any (and intact).
    fn get(&self, key: &CacheKey) -> Option<FunctionReport>;
    /// Stores `report` under `key` (may do nothing, e.g. in read-only mode).
    fn put(&self, key: &CacheKey, report: &FunctionReport);
    /// Whether lookups can ever hit; `false` lets the analysis skip computing keys.
    fn is_enabled(&self) -> bool {
        true
    }
    /// Problems met so far.
    fn stats(&self) -> StoreStats {
        StoreStats::default()
    }
    /// The summary cache that goes with this store (`None`: summaries live for one run).
    fn summaries(&self) -> Option<std::sync::Arc<dyn crate::symexec::SummaryPersistence>> {
        None
    }
}

/// Stores nothing: every function is analysed.
#[derive(Clone, Copy, Debug, Default)]
pub struct NoStore;

impl ReportStore for NoStore {
    fn get(&self, _: &CacheKey) -> Option<FunctionReport> {
        None
    }
    fn put(&self, _: &CacheKey, _: &FunctionReport) {}
    fn is_enabled(&self) -> bool {
        false
    }
}

/// An in-memory store (for one process: tests, repeated runs in a server).
#[derive(Debug, Default)]
pub struct MemoryStore {
    entries: Mutex<HashMap<CacheKey, FunctionReport>>,
}

impl MemoryStore {
    pub fn new() -> MemoryStore {
        MemoryStore::default()
    }
    /// Number of stored reports.
    pub fn len(&self) -> usize {
        self.entries.lock().map(|e| e.len()).unwrap_or(0)
    }
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

impl ReportStore for MemoryStore {
    fn get(&self, key: &CacheKey) -> Option<FunctionReport> {
        self.entries.lock().ok()?.get(key).cloned()
    }
    fn put(&self, key: &CacheKey, report: &FunctionReport) {
        if let Ok(mut e) = self.entries.lock() {
            e.insert(*key, report.clone());
        }
    }
}

/// The payload of a stored report: postcard (compact binary serde format).
pub fn encode_report(report: &FunctionReport) -> Option<Vec<u8>> {
    postcard::to_stdvec(report).ok()
}

/// The report of a payload written by [`encode_report`]; `None` if it does not decode
/// completely.
pub fn decode_report(bytes: &[u8]) -> Option<FunctionReport> {
    match postcard::take_from_bytes::<FunctionReport>(bytes) {
        Ok((report, [])) => Some(report),
        _ => None,
    }
}

/// Reports that needed more than this fraction of their time budget are not stored: the
/// pipeline splits its budget into shares (bit-vector prover, symbolic execution, witness
/// search), and a share that ran out does not always show in the final reason.
pub const CACHEABLE_BUDGET_FRACTION: f64 = 0.5;

/// Whether a report may be stored: never one that ran out of time (a later run with more
/// time, or the same run less loaded, must recompute it). `elapsed` is the time the analysis
/// took, `budget` the time it had (its `function_timeout`, or less when the run's deadline
/// came first). Stored only if no reason mentions a timeout or time limit and the analysis
/// used at most [`CACHEABLE_BUDGET_FRACTION`] of its budget.
pub fn is_cacheable(report: &FunctionReport, elapsed: std::time::Duration, budget: std::time::Duration) -> bool {
    const TIME_WORDS: [&str; 5] = ["timeout", "time limit", "out of time", "timed out", "deadline"];
    let mentions_time = |reason: &str| {
        let reason = reason.to_lowercase();
        TIME_WORDS.iter().any(|w| reason.contains(w))
    };
    let termination_timed_out = matches!(&report.termination, Termination::Maybe { reason } if mentions_time(reason));
    let memory_timed_out = matches!(&report.memory_safety, MemorySafety::Unknown { reason } if mentions_time(reason));
    let in_time = elapsed.as_secs_f64() <= budget.as_secs_f64() * CACHEABLE_BUDGET_FRACTION;
    in_time && !termination_timed_out && !memory_timed_out
}

/// The cache key of every defined function of one module under one configuration.
#[derive(Clone, Debug)]
pub struct ModuleKeys {
    keys: Vec<Option<CacheKey>>,
}

impl ModuleKeys {
    pub fn new(module: &Module, facts: &ModuleFacts, config: &Config) -> ModuleKeys {
        let cg = CallGraph::new(module);
        let hashes = ModuleHashes::new(module, &cg);
        let views = facts.views(module);
        let n = module.functions.len();
        // Every global's name, size, constness and initial contents, in module order.
        let globals = {
            let bytes = serde_json::to_vec(&module.globals).unwrap_or_default();
            let mut h = blake3::Hasher::new();
            h.update(b"globals\0");
            h.update(&module.pointer_bits.to_le_bytes());
            h.update(&bytes);
            *h.finalize().as_bytes()
        };
        // Every function's name and own hash, in module order (positions matter to the
        // interpreter's function addresses).
        let whole_module = {
            let mut h = blake3::Hasher::new();
            h.update(b"whole module\0");
            for (f, own) in module.functions.iter().zip(&hashes.own) {
                h.update(&(f.name.len() as u64).to_le_bytes());
                h.update(f.name.as_bytes());
                h.update(&own.0);
            }
            *h.finalize().as_bytes()
        };
        let escapes: Vec<bool> = (0..n as u32).map(|f| escapes_call_graph(module, &cg, FuncId(f))).collect();
        // Bottom-up over the components, like the deep hashes: the views and summary flags of
        // every reachable function, and whether any reachable function escapes.
        let mut context: Vec<[u8; 32]> = Vec::with_capacity(cg.sccs.len());
        let mut open: Vec<bool> = Vec::with_capacity(cg.sccs.len());
        for (k, members) in cg.sccs.iter().enumerate() {
            let mut sorted: Vec<FuncId> = members.clone();
            sorted.sort_by(|a, b| module.function(*a).name.cmp(&module.function(*b).name));
            let callees = cg.callee_sccs(k);
            let mut h = blake3::Hasher::new();
            h.update(b"context v1\0");
            for f in &sorted {
                let name = &module.function(*f).name;
                h.update(&(name.len() as u64).to_le_bytes());
                h.update(name.as_bytes());
                let v = format!("{:?}", views.get(f.0 as usize));
                h.update(&(v.len() as u64).to_le_bytes());
                h.update(v.as_bytes());
                h.update(&[facts.summarized(module, *f) as u8]);
            }
            let mut callee_contexts: Vec<[u8; 32]> = callees.iter().map(|c| context[*c]).collect();
            callee_contexts.sort();
            h.update(b"callees\0");
            for c in &callee_contexts {
                h.update(c);
            }
            context.push(*h.finalize().as_bytes());
            open.push(members.iter().any(|f| escapes[f.0 as usize]) || callees.iter().any(|c| open[*c]));
        }
        let keys = (0..n)
            .map(|i| {
                let (k, deep) = (cg.scc_of[i]?, hashes.deep[i]?);
                let name = &module.functions[i].name;
                // per function: another function's time limit does not change this report
                let fingerprint = config.function_fingerprint_of(name);
                let mut h = blake3::Hasher::new();
                h.update(b"termcheck report key\0");
                h.update(&KEY_VERSION.to_le_bytes());
                h.update(&envelope::FORMAT_VERSION.to_le_bytes());
                h.update(&ENGINE_BUILD_ID);
                h.update(&fingerprint.0);
                h.update(&(name.len() as u64).to_le_bytes());
                h.update(name.as_bytes());
                h.update(&deep.0);
                h.update(&context[k]);
                h.update(&globals);
                if open[k] {
                    h.update(b"\x01");
                    h.update(&whole_module);
                } else {
                    h.update(b"\x00");
                }
                Some(CacheKey(*h.finalize().as_bytes()))
            })
            .collect();
        ModuleKeys { keys }
    }

    /// The key of `f` (`None` for a declaration).
    pub fn key(&self, f: FuncId) -> Option<CacheKey> {
        self.keys.get(f.0 as usize).copied().flatten()
    }

    /// The function key of `f`'s summaries on disk (docs/design/modular.md "Summaries on
    /// disk"): everything `f`'s report key covers — its deep content hash (its IR and its
    /// callees'), the module-wide facts of what it reaches, the globals (every entry state
    /// holds them), the engine build and the configuration — under another domain and the
    /// summary format's version.
    pub fn summary_key(&self, f: FuncId) -> Option<[u8; 32]> {
        let report = self.key(f)?;
        let mut h = blake3::Hasher::new();
        h.update(b"termcheck summary function key\0");
        h.update(&crate::symexec::SUMMARY_FORMAT.to_le_bytes());
        h.update(&report.0);
        Some(*h.finalize().as_bytes())
    }
}

/// Whether `f` itself makes an indirect or untranslated call or mentions a function other
/// than as the callee of a direct call (taking its address).
fn escapes_call_graph(module: &Module, cg: &CallGraph, f: FuncId) -> bool {
    let sites = &cg.sites[f.0 as usize];
    if sites.iter().any(|s| matches!(s.target, CallTarget::Indirect | CallTarget::Unsupported)) {
        return true;
    }
    let func = module.function(f);
    let direct_calls = func
        .blocks
        .iter()
        .flat_map(|b| &b.instrs)
        .filter(|i| matches!(&i.op, Op::Call { callee: Callee::Direct(_), .. }))
        .count();
    let mut function_refs = 0usize;
    visit_refs(&mut func.clone(), &mut |r| {
        if let RefMut::Function(_) = r {
            function_refs += 1;
        }
    });
    function_refs > direct_calls
}

#[cfg(test)]
mod tests;
