//! The module-wide summary store (seed 002 §2.4, docs/design/modular.md "The module-wide
//! summary store"): proved entry states of non-recursive callees with their return states,
//! shared by every function's analysis of one run, so that a callee's graph is built once and
//! a caller's graph (and ITS) never contains the callee's loops again.
//!
//! A stored summary is the canonical form of an entry state `E` of a function, its return
//! states (weakly complete for `E`: every returning run from a state `E` represents ends in a
//! state one of them represents) and the fact that every run from every state `E` represents
//! terminates without reaching an error state. Canonical form: every variable renamed
//! (`$e0, $e1, …` by traversal order of LV, allocations, cells, then the KB; the return
//! states' own variables `$r0, …`), allocation ids renumbered by their order, the KB sorted.
//! The key is the callee's deep content hash and the blake3 hash of the canonical entry, so
//! two entries that differ only in variable names and allocation ids have one key.
//!
//! The store is plain owned data behind a lock (`Send + Sync`); it never decides coverage:
//! the graph builder checks that a call abstraction is an instance of a stored entry (one z3
//! entailment, `unknown` = not covered) before it uses one.

use super::ctx::Ctx;
use super::returns::ReturnSummary;
use super::state::{Alloc, PtEntry, State};
use crate::ir::fingerprint::ContentHash;
use crate::ir::FuncId;
use crate::logic::Var;
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, RwLock};

/// The key of one stored summary: the callee's deep hash and the canonical entry's hash.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct SummaryKey {
    pub callee: [u8; 32],
    pub entry: [u8; 32],
}

/// A proved summary of one entry state of a function, over canonical names.
#[derive(Clone, Debug)]
pub struct StoredSummary {
    pub(crate) func: FuncId,
    /// The function whose analysis built and proved it: a task sees only the summaries its
    /// transitive callees produced (all finished before it), so what it sees does not depend
    /// on the order in which parallel tasks finish.
    pub(crate) producer: FuncId,
    pub(crate) entry: State,
    /// Return states over the entry's canonical names (their `entry` field is meaningless
    /// here; an import sets it to the imported node).
    pub(crate) returns: Vec<ReturnSummary>,
    /// Loaded from the summary cache on disk (proved by an earlier run); its `producer` is
    /// then `func` itself, so every reader outside `func`'s call-graph component sees it.
    pub(crate) from_disk: bool,
}

/// Where summaries persist between runs: the summary cache on disk (`cache::summaries`,
/// outside the analysis core). Entries are keyed by a function key (pinning the function's
/// IR, its callees', the engine build and the options) and an entry key
/// (`summary_portable`); implementations check their envelopes and never fail the analysis.
pub trait SummaryPersistence: Send + Sync {
    /// The intact entries stored under `function`: (entry key, payload).
    fn load(&self, function: &[u8; 32]) -> Vec<([u8; 32], Vec<u8>)>;
    /// Stores one entry (may do nothing, e.g. in read-only mode).
    fn save(&self, function: &[u8; 32], entry: &[u8; 32], payload: &[u8]);
}

/// The summary cache of a store: the backend, every function's key and the module's names.
struct Disk {
    backend: std::sync::Arc<dyn SummaryPersistence>,
    keys: Vec<Option<[u8; 32]>>,
    names: super::summary_portable::ModuleNames,
    /// Per function: loaded (once, on the first question about the function).
    loaded: Vec<std::sync::OnceLock<()>>,
    /// Entry keys written by this run (not loaded back as disk summaries).
    saved: std::sync::Mutex<std::collections::HashSet<[u8; 32]>>,
}

/// A summary ready to be stored once its termination is proved: what the producer hands to
/// the pipeline (which owns the provers) together with the ITS of the entry's subgraph.
#[derive(Clone, Debug)]
pub struct Export {
    pub(crate) summary: StoredSummary,
    /// The name of the summarized function (for statistics and notes).
    pub function: String,
    /// `None`: the entry is the root of the analysed graph, whose own termination proof is
    /// the summary's. Otherwise the termination argument of the entry's subgraph alone (its
    /// ITS starts at the entry, so no invariant from the caller's context enters the proof).
    pub subgraph: Option<super::GraphOutcome>,
}

#[derive(Default)]
struct Inner {
    /// One summary per key and producer.
    by_key: HashMap<(SummaryKey, FuncId), Arc<StoredSummary>>,
    /// Keys and producers per function, oldest first.
    by_func: HashMap<FuncId, Vec<(SummaryKey, FuncId)>>,
}

/// The summaries of one run, shared by the scheduler's tasks.
pub struct SummaryStore {
    deep: Vec<Option<ContentHash>>,
    callees: Vec<Vec<FuncId>>,
    scc_of: Vec<Option<usize>>,
    /// Per function, the functions it may reach (itself excluded), computed once.
    reach: RwLock<HashMap<FuncId, Arc<BTreeSet<FuncId>>>>,
    inner: RwLock<Inner>,
    served: AtomicU64,
    stored: AtomicU64,
    disk: Option<Disk>,
    loaded: AtomicU64,
    served_from_disk: AtomicU64,
    rejected: AtomicU64,
}

impl SummaryStore {
    /// An empty store for the functions of `module`.
    pub fn new(module: &crate::ir::Module) -> SummaryStore {
        let cg = crate::ir::callgraph::CallGraph::new(module);
        let hashes = crate::ir::fingerprint::ModuleHashes::new(module, &cg);
        let callees = (0..module.functions.len()).map(|i| cg.callees[i].to_vec()).collect();
        SummaryStore {
            deep: hashes.deep,
            callees,
            scc_of: cg.scc_of.clone(),
            reach: RwLock::new(HashMap::new()),
            inner: RwLock::new(Inner::default()),
            served: AtomicU64::new(0),
            stored: AtomicU64::new(0),
            disk: None,
            loaded: AtomicU64::new(0),
            served_from_disk: AtomicU64::new(0),
            rejected: AtomicU64::new(0),
        }
    }

    /// This store backed by the summary cache `backend`: a function's summaries are loaded
    /// from it the first time an analysis asks for them, and every summary stored is written
    /// to it under `keys[f]` (the function key of `cache::ModuleKeys::summary_key`; a
    /// function without one is neither loaded nor written).
    pub fn with_persistence(mut self, module: &crate::ir::Module, backend: std::sync::Arc<dyn SummaryPersistence>, keys: Vec<Option<[u8; 32]>>) -> SummaryStore {
        let loaded = (0..module.functions.len()).map(|_| std::sync::OnceLock::new()).collect();
        let names = super::summary_portable::ModuleNames::new(module);
        self.disk = Some(Disk { backend, keys, names, loaded, saved: std::sync::Mutex::new(Default::default()) });
        self
    }

    /// Loads `f`'s summaries from the summary cache, once per run. An entry that does not
    /// decode, names what the module lacks or does not give back its key is counted and
    /// skipped; one this run wrote is already in memory.
    fn ensure_loaded(&self, f: FuncId) {
        let Some(disk) = &self.disk else { return };
        let (Some(once), Some(Some(fkey))) = (disk.loaded.get(f.0 as usize), disk.keys.get(f.0 as usize)) else { return };
        once.get_or_init(|| {
            for (ekey, payload) in disk.backend.load(fkey) {
                if disk.saved.lock().is_ok_and(|s| s.contains(&ekey)) {
                    continue;
                }
                match super::summary_portable::decode(&disk.names, fkey, f, &ekey, &payload) {
                    Some(summary) => {
                        if self.insert(summary) {
                            self.loaded.fetch_add(1, Ordering::Relaxed);
                        }
                    }
                    None => {
                        self.rejected.fetch_add(1, Ordering::Relaxed);
                        tracing::debug!(function = f.0, "stored summary rejected (names, shape or key do not match); recomputed");
                    }
                }
            }
        });
    }

    /// Writes a summary proved in this run to the summary cache.
    fn save(&self, summary: &StoredSummary) {
        let Some(disk) = &self.disk else { return };
        let Some(Some(fkey)) = disk.keys.get(summary.func.0 as usize) else { return };
        let Some((ekey, payload)) = super::summary_portable::encode(&disk.names, fkey, summary) else { return };
        if let Ok(mut saved) = disk.saved.lock() {
            if !saved.insert(ekey) {
                return;
            }
        }
        disk.backend.save(fkey, &ekey, &payload);
    }

    /// Adds a summary under its key and producer; `false` if one is there already.
    fn insert(&self, summary: StoredSummary) -> bool {
        let Some(callee) = self.callee_hash(summary.func) else { return false };
        let key = (SummaryKey { callee, entry: entry_hash(&summary.entry) }, summary.producer);
        let Ok(mut inner) = self.inner.write() else { return false };
        if inner.by_key.contains_key(&key) {
            return false;
        }
        inner.by_func.entry(summary.func).or_default().push(key);
        inner.by_key.insert(key, Arc::new(summary));
        true
    }

    /// The functions `f` may call, directly or not, outside its own call-graph component
    /// (those are finished before `f`'s analysis starts).
    fn reach(&self, f: FuncId) -> Arc<BTreeSet<FuncId>> {
        if let Some(r) = self.reach.read().ok().and_then(|m| m.get(&f).cloned()) {
            return r;
        }
        let mut seen = BTreeSet::new();
        let mut todo: Vec<FuncId> = self.callees.get(f.0 as usize).cloned().unwrap_or_default();
        while let Some(g) = todo.pop() {
            if seen.insert(g) {
                todo.extend(self.callees.get(g.0 as usize).into_iter().flatten().copied());
            }
        }
        let own = self.scc_of.get(f.0 as usize).copied().flatten();
        seen.retain(|g| *g != f && (own.is_none() || self.scc_of.get(g.0 as usize).copied().flatten() != own));
        let r = Arc::new(seen);
        if let Ok(mut m) = self.reach.write() {
            m.insert(f, r.clone());
        }
        r
    }

    fn callee_hash(&self, f: FuncId) -> Option<[u8; 32]> {
        self.deep.get(f.0 as usize).copied().flatten().map(|h| h.0)
    }

    /// Stores a proved summary (already canonical) and writes it to the summary cache; a
    /// summary with the same key is kept, and so is one loaded from disk with the same key
    /// (every reader that sees the producer's also sees it: the producer reaches `func`).
    pub fn put(&self, summary: StoredSummary) {
        if self.has(&summary) {
            return;
        }
        self.save(&summary);
        if self.insert(summary) {
            self.stored.fetch_add(1, Ordering::Relaxed);
        }
    }

    /// The stored summaries of `f` the analysis of `reader` may use (those produced by the
    /// functions `reader` may reach): those whose entry hash is `exact` first, then the
    /// others newest first.
    pub(crate) fn candidates(&self, f: FuncId, reader: FuncId, exact: Option<[u8; 32]>) -> Vec<Arc<StoredSummary>> {
        let visible = self.reach(reader);
        if visible.contains(&f) {
            self.ensure_loaded(f);
        }
        let Ok(inner) = self.inner.read() else { return vec![] };
        let Some(keys) = inner.by_func.get(&f) else { return vec![] };
        let keys: Vec<&(SummaryKey, FuncId)> = keys.iter().rev().filter(|(_, p)| visible.contains(p)).collect();
        let (first, rest): (Vec<_>, Vec<_>) = keys.into_iter().partition(|(k, _)| Some(k.entry) == exact);
        first.into_iter().chain(rest).filter_map(|k| inner.by_key.get(k).cloned()).collect()
    }

    /// Whether the store holds a summary of a function `wanted` accepts that the analysis of
    /// `reader` may use.
    pub fn offers(&self, reader: FuncId, wanted: &dyn Fn(FuncId) -> bool) -> bool {
        let visible = self.reach(reader);
        for g in visible.iter().filter(|g| wanted(**g)) {
            self.ensure_loaded(*g);
        }
        let Ok(inner) = self.inner.read() else { return false };
        inner.by_func.iter().any(|(f, keys)| wanted(*f) && keys.iter().any(|(_, p)| visible.contains(p)))
    }

    /// Whether `summary`'s key is stored by its producer, or by its function itself (the
    /// function's own analysis or the summary cache on disk: every reader that sees the
    /// producer's summaries sees those too, since the producer reaches the function).
    /// `true` without a key (nothing to store).
    pub fn has(&self, summary: &StoredSummary) -> bool {
        self.ensure_loaded(summary.func);
        let Some(key) = self.key_of(summary) else { return true };
        self.inner.read().is_ok_and(|i| i.by_key.contains_key(&(key, summary.producer)) || i.by_key.contains_key(&(key, summary.func)))
    }

    /// The key a canonical entry of `f` has (`None` without a body).
    pub fn key_of(&self, summary: &StoredSummary) -> Option<SummaryKey> {
        Some(SummaryKey { callee: self.callee_hash(summary.func)?, entry: entry_hash(&summary.entry) })
    }

    pub(crate) fn note_served(&self, summary: &StoredSummary) {
        self.served.fetch_add(1, Ordering::Relaxed);
        if summary.from_disk {
            self.served_from_disk.fetch_add(1, Ordering::Relaxed);
        }
    }

    /// Summaries loaded from the summary cache on disk so far.
    pub fn loaded_from_disk(&self) -> u64 {
        self.loaded.load(Ordering::Relaxed)
    }

    /// Calls served by a summary loaded from disk so far.
    pub fn served_from_disk(&self) -> u64 {
        self.served_from_disk.load(Ordering::Relaxed)
    }

    /// Entries of the summary cache that were intact on disk but rejected on decoding.
    pub fn rejected_from_disk(&self) -> u64 {
        self.rejected.load(Ordering::Relaxed)
    }

    /// Calls served from the store so far (over all tasks).
    pub fn served(&self) -> u64 {
        self.served.load(Ordering::Relaxed)
    }

    /// Summaries stored so far.
    pub fn stored(&self) -> u64 {
        self.stored.load(Ordering::Relaxed)
    }

    /// The number of stored summaries.
    pub fn len(&self) -> usize {
        self.inner.read().map(|i| i.by_key.len()).unwrap_or(0)
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// The blake3 hash of a canonical entry state (its frames, sorted KB, allocations and cells).
pub(crate) fn entry_hash(s: &State) -> [u8; 32] {
    let text = format!("{:?}|{:?}|{:?}|{:?}|{:?}", s.frames, s.kb, s.allocs, s.pt, s.lists);
    *blake3::hash(text.as_bytes()).as_bytes()
}

/// Variables of `s` in traversal order: LV (frames bottom-up, values by id), allocation
/// bounds, cells, list invariants, inputs, then the KB (facts in order, each one's variables
/// in its own order).
fn traversal_order(s: &State) -> Vec<Var> {
    let mut seen = BTreeSet::new();
    let mut out = vec![];
    let mut push = |v: &Var, out: &mut Vec<Var>| {
        if seen.insert(v.clone()) {
            out.push(v.clone());
        }
    };
    for fr in &s.frames {
        for v in fr.lv.values() {
            push(v, &mut out);
        }
    }
    for a in &s.allocs {
        push(&a.start, &mut out);
        push(&a.end, &mut out);
    }
    for p in &s.pt {
        push(&p.addr, &mut out);
        push(&p.value, &mut out);
    }
    for l in &s.lists {
        for v in l.vars() {
            push(&v, &mut out);
        }
    }
    for (_, v) in &s.inputs {
        push(v, &mut out);
    }
    for f in &s.kb {
        let mut vs = BTreeSet::new();
        f.collect_vars(&mut vs);
        for v in &vs {
            push(v, &mut out);
        }
    }
    out
}

fn rename_allocs(allocs: &[Alloc], pt: &[PtEntry], names: &BTreeMap<Var, Var>, ids: &HashMap<u32, u32>) -> (Vec<Alloc>, Vec<PtEntry>) {
    let r = |v: &Var| names.get(v).cloned().unwrap_or_else(|| v.clone());
    let allocs = allocs.iter().map(|a| Alloc { id: ids.get(&a.id).copied().unwrap_or(a.id), start: r(&a.start), end: r(&a.end), ..a.clone() }).collect();
    let pt = pt.iter().map(|p| PtEntry { addr: r(&p.addr), value: r(&p.value), alloc: ids.get(&p.alloc).copied().unwrap_or(p.alloc), ..p.clone() }).collect();
    (allocs, pt)
}

/// Renames a state's variables by `names` and its allocation ids by `ids`.
fn rename_state(s: &State, names: &BTreeMap<Var, Var>, ids: &HashMap<u32, u32>) -> State {
    let mut out = s.rename(&|v| names.get(v).cloned().unwrap_or_else(|| v.clone()));
    for a in &mut out.allocs {
        a.id = ids.get(&a.id).copied().unwrap_or(a.id);
    }
    for p in &mut out.pt {
        p.alloc = ids.get(&p.alloc).copied().unwrap_or(p.alloc);
    }
    out
}

/// Renames a return state's variables and allocation ids (the entry's and its own new ones).
fn rename_return(r: &ReturnSummary, names: &BTreeMap<Var, Var>, ids: &HashMap<u32, u32>, entry: usize) -> ReturnSummary {
    let rn = |v: &Var| names.get(v).cloned().unwrap_or_else(|| v.clone());
    let (allocs, pt) = rename_allocs(&r.allocs, &r.pt, names, ids);
    ReturnSummary {
        entry,
        block: r.block,
        value: r.value.as_ref().map(|(v, view)| (rn(v), *view)),
        facts: r.facts.iter().map(|f| f.rename(&rn)).collect(),
        allocs,
        pt,
        lists: r.lists.iter().map(|l| l.rename(&rn)).collect(),
    }
}

/// Every variable a return state mentions (its facts, value and memory).
fn return_vars(r: &ReturnSummary) -> Vec<Var> {
    let mut out: Vec<Var> = vec![];
    let mut seen = BTreeSet::new();
    let mut push = |v: &Var| {
        if seen.insert(v.clone()) {
            out.push(v.clone());
        }
    };
    if let Some((v, _)) = &r.value {
        push(v);
    }
    for a in &r.allocs {
        push(&a.start);
        push(&a.end);
    }
    for p in &r.pt {
        push(&p.addr);
        push(&p.value);
    }
    for l in &r.lists {
        for v in l.vars() {
            push(&v);
        }
    }
    for f in &r.facts {
        let mut vs = BTreeSet::new();
        f.collect_vars(&mut vs);
        for v in &vs {
            push(v);
        }
    }
    out
}

/// The canonical form of an entry state of `func` and its return states: variables renamed
/// `$e0, …` (entry) and `$r0, …` (the return states' own), allocation ids renumbered in
/// order (the entry's first, then the return states' new heap blocks), the KB sorted.
pub(crate) fn canonical(func: FuncId, producer: FuncId, entry: &State, returns: &[ReturnSummary]) -> StoredSummary {
    let mut names: BTreeMap<Var, Var> = BTreeMap::new();
    for (i, v) in traversal_order(entry).into_iter().enumerate() {
        names.insert(v, Var::new(format!("$e{i}")));
    }
    let mut ids: HashMap<u32, u32> = HashMap::new();
    for a in &entry.allocs {
        let n = ids.len() as u32;
        ids.entry(a.id).or_insert(n);
    }
    let mut own = 0usize;
    for r in returns {
        for v in return_vars(r) {
            names.entry(v).or_insert_with(|| {
                own += 1;
                Var::new(format!("$r{}", own - 1))
            });
        }
        for a in &r.allocs {
            let n = ids.len() as u32;
            ids.entry(a.id).or_insert(n);
        }
    }
    let mut e = rename_state(entry, &names, &ids);
    e.kb.sort();
    e.kb.dedup();
    e.inputs.clear();
    e.inputs_exact = false;
    let returns = returns.iter().map(|r| rename_return(r, &names, &ids, 0)).collect();
    StoredSummary { func, producer, entry: e, returns, from_disk: false }
}

impl StoredSummary {
    /// The summary renamed apart into fresh variables and allocation ids of `ctx`, its return
    /// states attached to the graph node `node`.
    pub(crate) fn import(&self, ctx: &mut Ctx<'_>, node: usize) -> (State, Vec<ReturnSummary>) {
        let mut names: BTreeMap<Var, Var> = BTreeMap::new();
        let mut all = self.entry.all_vars().into_iter().collect::<Vec<_>>();
        for r in &self.returns {
            all.extend(return_vars(r));
        }
        for v in all {
            let hint = if v.name().starts_with("$r") { "ret" } else { "in" };
            names.entry(v).or_insert_with(|| ctx.fresh(hint));
        }
        let mut ids: HashMap<u32, u32> = HashMap::new();
        for a in self.entry.allocs.iter().chain(self.returns.iter().flat_map(|r| r.allocs.iter())) {
            ids.entry(a.id).or_insert_with(|| ctx.fresh_alloc_id());
        }
        let state = rename_state(&self.entry, &names, &ids);
        let returns = self.returns.iter().map(|r| rename_return(r, &names, &ids, node)).collect();
        (state, returns)
    }
}

/// Drops the memory of an entry of a function that touches no memory, and of its return
/// states: a register-only call abstraction has no allocation or cell, so a stored entry of
/// such a function must not have any either; the facts are projected onto what remains.
pub(crate) fn strip_memory(entry: &mut State, returns: &mut [ReturnSummary], limits: crate::config::ProjectionLimits) {
    entry.allocs.clear();
    entry.pt.clear();
    let roots = entry.root_vars();
    entry.kb = super::generalize::project_facts(std::mem::take(&mut entry.kb), &roots, limits);
    for r in returns {
        r.allocs.clear();
        r.pt.clear();
        r.lists.clear();
        let mut keep = roots.clone();
        keep.extend(r.value.iter().map(|(v, _)| v.clone()));
        r.facts = super::generalize::project_facts(std::mem::take(&mut r.facts), &keep, limits);
    }
}
