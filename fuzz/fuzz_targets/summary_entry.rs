//! Fuzz target: arbitrary bytes as the payload of a stored summary (the summary cache on disk,
//! `symexec::summary_portable::decode`), read back by a real analysis of a fixed module.
//!
//! The fixture (built once per process) compiles `SOURCE` and analyses it with a recording
//! store: every summary the analysis writes is kept with its function key and entry key. Each
//! input is then served as the payload of every recorded entry key of every function (before
//! the intact recorded entries, as in a warm cache with one damaged file), and `main` is
//! analysed again (the other functions' reports come from the recording, so only `main` runs,
//! and its callees' summaries can only come from "disk"). An entry key pins the function key and the
//! portable ENTRY state only, so a mutation of the return states of a recorded payload decodes,
//! passes the key check and is used by the analysis: the target reaches the decoder's checks
//! and what the analysis does with an accepted summary. The seeds (`corpus/summary_entry`) are
//! the payloads of entries the CLI wrote for the same program (`fuzz/README.md`).
#![no_main]
use libfuzzer_sys::fuzz_target;
use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};
use std::time::Duration;
use termcheck_engine::analysis::{analyze_module_with_store, FunctionReport, FunctionSelection};
use termcheck_engine::cache::{CacheKey, ReportStore};
use termcheck_engine::config::Config;
use termcheck_engine::driver::InputKind;
use termcheck_engine::ir::Module;
use termcheck_engine::symexec::SummaryPersistence;
use termcheck_engine::verdict::IntSemantics;

/// The program of the CLI's summary-cache test (`tests/cases/all-functions/stored-summaries.c`,
/// math semantics): `count`'s and `sum`'s summaries are proved, stored and served to callers.
/// The seeds were written by `cargo termcheck prove --all-functions --int-semantics math
/// --cache-dir` on that file.
pub const SOURCE: &str = include_str!("../../tests/cases/all-functions/stored-summaries.c");

/// The functions analysed again in each run (the others' reports come from the recording):
/// their calls can only be served from the summaries on disk.
const READERS: [&str; 1] = ["main"];

/// Long enough for the recording run to prove the callees on a loaded machine (the function
/// keys depend on the configuration, so both runs use this one).
const BUDGET: Duration = Duration::from_secs(5);

struct Fixture {
    module: Module,
    config: Config,
    /// Entry keys and payloads per function key, as the recording run wrote them.
    entries: HashMap<[u8; 32], Vec<([u8; 32], Vec<u8>)>>,
    /// Reports per cache key from the recording run (all but the `READERS`' are served again).
    reports: HashMap<CacheKey, FunctionReport>,
}

/// The recording store: keeps every report and summary written.
#[derive(Default)]
struct Recorder {
    reports: Mutex<HashMap<CacheKey, FunctionReport>>,
    summaries: Arc<RecordedSummaries>,
}

/// Per function key: the entry keys and payloads written.
#[derive(Default)]
struct RecordedSummaries(Mutex<HashMap<[u8; 32], Vec<([u8; 32], Vec<u8>)>>>);

impl SummaryPersistence for RecordedSummaries {
    fn load(&self, _: &[u8; 32]) -> Vec<([u8; 32], Vec<u8>)> {
        vec![]
    }
    fn save(&self, function: &[u8; 32], entry: &[u8; 32], payload: &[u8]) {
        self.0.lock().expect("lock").entry(*function).or_default().push((*entry, payload.to_vec()));
    }
}

impl ReportStore for Recorder {
    fn get(&self, _: &CacheKey) -> Option<FunctionReport> {
        None
    }
    fn put(&self, key: &CacheKey, report: &FunctionReport) {
        self.reports.lock().expect("lock").insert(*key, report.clone());
    }
    fn summaries(&self) -> Option<Arc<dyn SummaryPersistence>> {
        Some(self.summaries.clone())
    }
}

/// The store of one fuzz run: the recorded reports of every function but the `READERS`, and
/// `data` as the payload of every recorded entry.
struct Served {
    fixture: &'static Fixture,
    summaries: Arc<ServedSummaries>,
}

struct ServedSummaries {
    fixture: &'static Fixture,
    data: Vec<u8>,
}

impl SummaryPersistence for ServedSummaries {
    /// `data` under every recorded entry key of `function`, then the recorded entries
    /// themselves: the first accepted entry of a key wins, so a mutated payload that still
    /// carries a recorded entry replaces it, and the other callees' entries stay intact (as in a
    /// warm cache with one damaged file).
    fn load(&self, function: &[u8; 32]) -> Vec<([u8; 32], Vec<u8>)> {
        let recorded = self.fixture.entries.get(function).map(Vec::as_slice).unwrap_or_default();
        let fuzzed = recorded.iter().map(|(k, _)| (*k, self.data.clone()));
        fuzzed.chain(recorded.iter().cloned()).collect()
    }
    fn save(&self, _: &[u8; 32], _: &[u8; 32], _: &[u8]) {}
}

impl ReportStore for Served {
    fn get(&self, key: &CacheKey) -> Option<FunctionReport> {
        self.fixture.reports.get(key).filter(|r| !READERS.contains(&r.name.as_str())).cloned()
    }
    fn put(&self, _: &CacheKey, _: &FunctionReport) {}
    fn summaries(&self) -> Option<Arc<dyn SummaryPersistence>> {
        Some(self.summaries.clone())
    }
}

fn fixture() -> &'static Fixture {
    static FIXTURE: OnceLock<Fixture> = OnceLock::new();
    FIXTURE.get_or_init(|| {
        let module = termcheck_engine::frontend::load_source(SOURCE, InputKind::C).expect("the fixture compiles");
        let config = Config::new(IntSemantics::Math, BUDGET);
        let recorder = Recorder::default();
        let _ = analyze_module_with_store(&module, &config, &FunctionSelection::AllDefined, &recorder);
        let mut entries = recorder.summaries.0.lock().expect("lock").clone();
        for es in entries.values_mut() {
            es.sort();
        }
        let reports = recorder.reports.lock().expect("lock").clone();
        Fixture { module, config, entries, reports }
    })
}

/// The target is only worth its time if intact entries are loaded and serve calls: checked
/// once per process (an empty input is no entry). With `TERMCHECK_FUZZ_DUMP=DIR` the recorded
/// payloads are also written to DIR (to compare them with the seeds).
fn checked_fixture() -> &'static Fixture {
    static CHECKED: OnceLock<()> = OnceLock::new();
    let fixture = fixture();
    CHECKED.get_or_init(|| {
        let report = run(fixture, &[]);
        let recorded: Vec<&Vec<u8>> = fixture.entries.values().flatten().map(|(_, p)| p).collect();
        assert!(report.calls_served_from_disk > 0, "the {} recorded entries serve no call when loaded back", recorded.len());
        eprintln!("summary_entry: {} entries recorded; loaded back: {} summaries, {} calls served from disk", recorded.len(), report.summaries_loaded_from_disk, report.calls_served_from_disk);
        if let Some(dir) = std::env::var_os("TERMCHECK_FUZZ_DUMP") {
            for (i, p) in recorded.iter().enumerate() {
                std::fs::write(std::path::Path::new(&dir).join(format!("recorded{i}")), p).expect("write a recorded payload");
            }
        }
    });
    fixture
}

/// The `READERS` analysed with `data` served as every recorded entry's payload.
fn run(fixture: &'static Fixture, data: &[u8]) -> termcheck_engine::analysis::ModuleReport {
    let store = Served { fixture, summaries: Arc::new(ServedSummaries { fixture, data: data.to_vec() }) };
    analyze_module_with_store(&fixture.module, &fixture.config, &FunctionSelection::AllDefined, &store)
}

fuzz_target!(|data: &[u8]| {
    let _ = run(checked_fixture(), data);
});
