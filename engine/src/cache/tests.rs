//! Tests of the stores, the keys and the cached whole-module analysis.

use super::disk::{CacheMode, DiskStore};
use super::*;
use crate::analysis::{analyze_module_with_store, FunctionSelection, ModuleReport};
use crate::driver::InputKind;
use crate::verdict::IntSemantics;
use std::num::NonZeroUsize;
use std::path::Path;
use std::time::Duration;

fn report(i: u64, filler: usize) -> FunctionReport {
    FunctionReport {
        name: format!("f{i}"),
        location: None,
        termination: Termination::Maybe { reason: format!("reason {i}") },
        memory_safety: MemorySafety::Unknown { reason: "m".into() },
        seconds: i as f64 / 8.0,
        stats: vec![("filler".into(), "x".repeat(filler)), ("i".into(), i.to_string())],
    }
}

fn key(i: u64) -> CacheKey {
    CacheKey(*blake3::hash(&i.to_le_bytes()).as_bytes())
}

#[test]
fn disk_store_round_trip_and_read_only_mode() {
    let dir = tempfile::tempdir().expect("tempdir");
    let store = DiskStore::new(dir.path(), CacheMode::ReadWrite);
    assert_eq!(store.get(&key(1)), None);
    store.put(&key(1), &report(1, 10));
    assert_eq!(store.get(&key(1)), Some(report(1, 10)));
    assert_eq!(store.get(&key(2)), None);
    let ro = DiskStore::new(dir.path(), CacheMode::ReadOnly);
    assert_eq!(ro.get(&key(1)), Some(report(1, 10)), "read-only mode reads");
    ro.put(&key(2), &report(2, 10));
    assert!(!store.entry_path(&key(2)).exists(), "read-only mode never writes");
    assert_eq!(store.stats(), StoreStats::default());
}

#[test]
fn corrupt_and_foreign_entries_are_counted_misses_and_get_overwritten() {
    let dir = tempfile::tempdir().expect("tempdir");
    let store = DiskStore::new(dir.path(), CacheMode::ReadWrite);
    store.put(&key(1), &report(1, 100));
    let path = store.entry_path(&key(1));
    let mut bytes = std::fs::read(&path).expect("entry written");
    let last = bytes.len() - 1;
    bytes[last] ^= 1;
    std::fs::write(&path, &bytes).expect("corrupt it");
    assert_eq!(store.get(&key(1)), None);
    assert_eq!(store.stats().corrupt, 1);
    store.put(&key(1), &report(1, 100));
    assert_eq!(store.get(&key(1)), Some(report(1, 100)), "recomputed entry replaces the corrupt one");
    // Another engine build reads the same file as foreign: a miss, never a result.
    let other = DiskStore::with_build_id(dir.path(), CacheMode::ReadWrite, [0xab; 32]);
    assert_eq!(other.get(&key(1)), None);
    assert_eq!(other.stats(), StoreStats { corrupt: 0, foreign: 1, write_errors: 0 });
    // A payload that is not a report, in a valid envelope.
    std::fs::write(&path, envelope::seal(&ENGINE_BUILD_ID, &key(1), b"\xff\xff\xff")).expect("write");
    assert_eq!(store.get(&key(1)), None);
    assert_eq!(store.stats().corrupt, 2);
}

#[test]
fn write_errors_are_counted_not_fatal() {
    let dir = tempfile::tempdir().expect("tempdir");
    // The cache "directory" is a regular file: every write fails (root ignores permissions).
    let file = dir.path().join("not-a-dir");
    std::fs::write(&file, b"x").expect("write");
    let store = DiskStore::new(&file, CacheMode::ReadWrite);
    store.put(&key(1), &report(1, 1));
    store.put(&key(2), &report(2, 1));
    assert_eq!(store.stats().write_errors, 2);
    assert_eq!(store.get(&key(1)), None);
}

#[test]
fn memory_store_and_payload_round_trip() {
    let store = MemoryStore::new();
    store.put(&key(3), &report(3, 5));
    assert_eq!(store.get(&key(3)), Some(report(3, 5)));
    assert_eq!(store.len(), 1);
    let bytes = encode_report(&report(4, 5)).expect("encodes");
    assert_eq!(decode_report(&bytes), Some(report(4, 5)));
    assert_eq!(decode_report(&bytes[..bytes.len() - 1]), None);
    let mut longer = bytes.clone();
    longer.push(0);
    assert_eq!(decode_report(&longer), None, "trailing bytes are rejected");
}

#[test]
fn timeouts_are_never_cacheable() {
    let ok = report(1, 0);
    let (fast, budget) = (Duration::from_millis(100), Duration::from_secs(10));
    assert!(is_cacheable(&ok, fast, budget));
    assert!(is_cacheable(&ok, Duration::from_secs(5), budget));
    assert!(!is_cacheable(&ok, Duration::from_millis(5001), budget), "used more than half of its time");
    assert!(!is_cacheable(&ok, budget, budget), "finished at its deadline");
    for reason in ["timeout during symbolic execution", "the run's time limit was used up", "Timeout"] {
        let mut r = ok.clone();
        r.termination = Termination::Maybe { reason: reason.into() };
        assert!(!is_cacheable(&r, fast, budget), "{reason}");
        let mut r = ok.clone();
        r.memory_safety = MemorySafety::Unknown { reason: reason.into() };
        assert!(!is_cacheable(&r, fast, budget), "{reason}");
    }
}

/// Distinct keys, deterministic reports: the writer child of the kill test and the checks.
const KILL_KEYS: u64 = 48;
const KILL_FILLER: usize = 64 << 10;
const KILL_ENV: &str = "TERMCHECK_CACHE_KILL_WRITER";

/// What the writer child prints once its first entry is stored (after libtest's `test NAME
/// ... ` on the same line).
const KILL_FIRST_ENTRY: &str = "kill_writer: first entry stored";

/// The summary entry the kill test writes for `k` (function key, entry key, payload): the
/// summary cache's files follow the same rules as the reports'.
fn summary_entry(k: u64) -> ([u8; 32], [u8; 32], Vec<u8>) {
    let payload = (0..KILL_FILLER + k as usize).map(|i| (i as u64 * 31 + k) as u8).collect();
    (*blake3::hash(&[b'f', k as u8]).as_bytes(), *blake3::hash(&[b'e', k as u8]).as_bytes(), payload)
}

fn write_rounds(dir: &Path, rounds: u64, announce_first: bool) {
    use crate::symexec::SummaryPersistence as _;
    let store = DiskStore::new(dir, CacheMode::ReadWrite);
    let summaries = store.summaries();
    for i in 0..rounds {
        let k = i % KILL_KEYS;
        store.put(&key(k), &report(k, KILL_FILLER + k as usize));
        let (fkey, ekey, payload) = summary_entry(k);
        summaries.save(&fkey, &ekey, &payload);
        if announce_first && i == 0 {
            use std::io::Write as _;
            let mut out = std::io::stdout().lock();
            let _ = writeln!(out, "{KILL_FIRST_ENTRY}");
            let _ = out.flush();
        }
    }
    assert_eq!(store.stats(), StoreStats::default());
}

fn check_entries(dir: &Path) -> usize {
    use crate::symexec::SummaryPersistence as _;
    let store = DiskStore::new(dir, CacheMode::ReadOnly);
    let summaries = store.summaries();
    let mut present = 0;
    for k in 0..KILL_KEYS {
        if let Some(r) = store.get(&key(k)) {
            assert_eq!(r, report(k, KILL_FILLER + k as usize), "entry {k} read back wrongly");
            present += 1;
        }
        let (fkey, ekey, payload) = summary_entry(k);
        for (read_key, read_payload) in summaries.load(&fkey) {
            assert!(read_key == ekey && read_payload == payload, "summary entry {k} read back wrongly");
        }
    }
    assert_eq!(store.stats(), StoreStats::default(), "a killed writer left a corrupt entry");
    present
}

/// In the kill test's child process (the environment variable names the cache directory) this
/// writes entries until it is killed; run normally it writes a few rounds and checks them.
#[test]
fn kill_writer() {
    match std::env::var_os(KILL_ENV) {
        Some(dir) => write_rounds(Path::new(&dir), u64::MAX, true),
        None => {
            let dir = tempfile::tempdir().expect("tempdir");
            write_rounds(dir.path(), 2 * KILL_KEYS, false);
            assert_eq!(check_entries(dir.path()), KILL_KEYS as usize);
            use crate::symexec::SummaryPersistence as _;
            let summaries = DiskStore::new(dir.path(), CacheMode::ReadOnly).summaries();
            for k in 0..KILL_KEYS {
                let (fkey, ekey, payload) = summary_entry(k);
                assert_eq!(summaries.load(&fkey), vec![(ekey, payload)], "summary entry {k}");
            }
        }
    }
}

#[test]
fn writers_killed_at_random_points_never_leave_a_wrong_entry() {
    let dir = tempfile::tempdir().expect("tempdir");
    let exe = std::env::current_exe().expect("test binary");
    // Deterministic pseudo-random kill delays (xorshift), 2–40 ms.
    let mut state: u64 = 0x9e37_79b9_7f4a_7c15;
    let mut killed_while_writing = 0;
    for round in 0..30 {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        let delay = Duration::from_millis(2 + state % 39);
        let mut child = std::process::Command::new(&exe)
            .args(["cache::tests::kill_writer", "--exact", "--test-threads", "1", "--nocapture"])
            .env(KILL_ENV, dir.path())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::null())
            .spawn()
            .expect("start the writer");
        // The delay counts from the writer's first stored entry, not from its start: on a
        // loaded machine starting the test binary alone can take longer than any delay, and
        // then no round would ever kill a write.
        let stdout = child.stdout.take().expect("piped stdout");
        let started = std::io::BufRead::lines(std::io::BufReader::new(stdout)).map_while(Result::ok).any(|line| line.contains(KILL_FIRST_ENTRY));
        assert!(started, "round {round}: the writer ended before storing an entry");
        std::thread::sleep(delay);
        if child.try_wait().expect("poll").is_none() {
            killed_while_writing += 1;
        }
        child.kill().expect("SIGKILL"); // SIGKILL on Unix
        let status = child.wait().expect("reap");
        assert!(!status.success(), "round {round}: the writer should have been killed, not finished");
        check_entries(dir.path());
    }
    assert!(killed_while_writing >= 25, "the writer ended early in {} rounds", 30 - killed_while_writing);
    assert!(check_entries(dir.path()) > 0, "no entry was ever written");
}

// ---- keys and the cached whole-module analysis ----

/// Generous limits: a report is only stored when its analysis used at most half of its
/// budget (`is_cacheable`), and the exact reuse counts below must not depend on how loaded
/// the machine is (every function here ends by its own limits in seconds, not by time).
fn config(jobs: usize) -> Config {
    Config::new(IntSemantics::C, Duration::from_secs(1200))
        .with_function_timeout(Duration::from_secs(600))
        .expect("positive")
        .with_jobs(NonZeroUsize::new(jobs).expect("positive"))
}

/// `helper` and `other` do not reach `leaf`; `mid`, `top` and `main` do.
const PROGRAM: &str = "int leaf(int x) { return x > 0 ? x - 1 : 0; }
int mid(int x) { int s = 0; for (int i = 0; i < 5; i++) s += leaf(x); return s; }
int top(int x) { return mid(x) + 1; }
int helper(int n) { int s = 0; while (n > 0) { s += n; n--; } return s; }
int other(int x) { return helper(x % 100); }
int main(void) { return top(3) + other(4); }
";

fn load(dir: &Path, text: &str) -> Module {
    let path = dir.join("program.c");
    std::fs::write(&path, text).expect("write the program");
    crate::frontend::load_module(&path, InputKind::C).expect("compiles")
}

/// The reports without their times (a reused report's time is the lookup's).
fn timeless(r: &ModuleReport) -> Vec<FunctionReport> {
    r.functions.iter().map(|f| FunctionReport { seconds: 0.0, ..f.clone() }).collect()
}

/// The verdicts of a run (two analyses of one function differ only in their timing stats).
fn verdicts(r: &ModuleReport) -> Vec<(String, Option<crate::ir::SrcLoc>, Termination, MemorySafety)> {
    r.functions.iter().map(|f| (f.name.clone(), f.location.clone(), f.termination.clone(), f.memory_safety.clone())).collect()
}

#[test]
fn keys_follow_callees_config_and_globals() {
    let dir = tempfile::tempdir().expect("tempdir");
    let m = load(dir.path(), PROGRAM);
    let facts = ModuleFacts::new(&m);
    let keys = ModuleKeys::new(&m, &facts, &config(1));
    let k = |keys: &ModuleKeys, m: &Module, name: &str| keys.key(m.function_by_name(name).expect("defined")).expect("has a key");
    // Deterministic, distinct per function, independent of `jobs`.
    let again = ModuleKeys::new(&m, &ModuleFacts::new(&m), &config(2));
    for f in ["leaf", "mid", "top", "helper", "other", "main"] {
        assert_eq!(k(&keys, &m, f), k(&again, &m, f));
    }
    assert_ne!(k(&keys, &m, "leaf"), k(&keys, &m, "mid"));
    // Another configuration changes every key.
    let other_config = Config::new(IntSemantics::Math, Duration::from_secs(120)).with_function_timeout(Duration::from_secs(30)).expect("positive");
    let math = ModuleKeys::new(&m, &facts, &other_config);
    assert_ne!(k(&keys, &m, "helper"), k(&math, &m, "helper"));
    // A global's initial value is part of every key (the initial state holds every global).
    let with_global = load(dir.path(), &format!("{PROGRAM}int g = 5;\n"));
    let with_other_value = load(dir.path(), &format!("{PROGRAM}int g = 6;\n"));
    let kg = ModuleKeys::new(&with_global, &ModuleFacts::new(&with_global), &config(1));
    let kv = ModuleKeys::new(&with_other_value, &ModuleFacts::new(&with_other_value), &config(1));
    assert_ne!(k(&kg, &with_global, "helper"), k(&kv, &with_other_value, "helper"));
}

#[test]
fn taking_a_function_address_makes_the_key_cover_the_whole_module() {
    let dir = tempfile::tempdir().expect("tempdir");
    let src = |body: &str| {
        format!(
            "int g(void) {{ return {body}; }}\nint unrelated(void) {{ return 1; }}\nint f(int (*p)(void)) {{ return p(); }}\nint caller(void) {{ return f(g); }}\nint plain(int x) {{ return x; }}\n"
        )
    };
    let a = load(dir.path(), &src("1"));
    let b = load(dir.path(), &src("2"));
    let ka = ModuleKeys::new(&a, &ModuleFacts::new(&a), &config(1));
    let kb = ModuleKeys::new(&b, &ModuleFacts::new(&b), &config(1));
    let k = |keys: &ModuleKeys, m: &Module, name: &str| keys.key(m.function_by_name(name).expect("defined"));
    // `caller` reaches `g` only through its address, `f` only through an indirect call.
    assert_ne!(k(&ka, &a, "caller"), k(&kb, &b, "caller"));
    assert_ne!(k(&ka, &a, "f"), k(&kb, &b, "f"));
    // A function with a closed call graph keeps its key.
    assert_eq!(k(&ka, &a, "plain"), k(&kb, &b, "plain"));
    assert_eq!(k(&ka, &a, "unrelated"), k(&kb, &b, "unrelated"));
}

#[test]
fn second_run_reuses_everything_and_an_edit_reanalyses_exactly_its_callers() {
    let dir = tempfile::tempdir().expect("tempdir");
    let cache = dir.path().join("cache");
    let m = load(dir.path(), PROGRAM);
    let n = 6;
    let first = analyze_module_with_store(&m, &config(2), &FunctionSelection::AllDefined, &DiskStore::new(&cache, CacheMode::ReadWrite));
    assert_eq!((first.analysed, first.reused), (n, 0));
    let store = DiskStore::new(&cache, CacheMode::ReadWrite);
    let second = analyze_module_with_store(&m, &config(2), &FunctionSelection::AllDefined, &store);
    assert_eq!((second.analysed, second.reused), (0, n));
    assert_eq!(timeless(&first), timeless(&second));
    assert_eq!(store.stats(), StoreStats::default());
    // The same results as without a cache.
    let uncached = crate::analysis::analyze_module(&m, &config(2), &FunctionSelection::AllDefined);
    assert_eq!((uncached.analysed, uncached.reused), (n, 0));
    assert_eq!(verdicts(&uncached), verdicts(&second));
    // Edit the leaf in place (same line and columns): leaf, mid, top and main again.
    let edited = load(dir.path(), &PROGRAM.replacen("x - 1", "x - 2", 1));
    let third = analyze_module_with_store(&edited, &config(2), &FunctionSelection::AllDefined, &DiskStore::new(&cache, CacheMode::ReadWrite));
    assert_eq!((third.analysed, third.reused), (4, 2));
    let fresh = crate::analysis::analyze_module(&edited, &config(2), &FunctionSelection::AllDefined);
    assert_eq!(verdicts(&fresh), verdicts(&third));
    // Read-only: reuses, writes nothing new.
    let reverted = analyze_module_with_store(&m, &config(1), &FunctionSelection::AllDefined, &DiskStore::new(&cache, CacheMode::ReadOnly));
    assert_eq!((reverted.analysed, reverted.reused), (0, n), "the first version is still cached");
}

/// A run without a disk cache, then two runs at the same time on the disk cache `cache`.
fn one_run_and_two_concurrent_ones(m: &Module, config: &Config, cache: &Path) -> (ModuleReport, ModuleReport, ModuleReport) {
    let single = analyze_module_with_store(m, config, &FunctionSelection::AllDefined, &MemoryStore::new());
    let (a, b) = std::thread::scope(|s| {
        let run = || analyze_module_with_store(m, config, &FunctionSelection::AllDefined, &DiskStore::new(cache, CacheMode::ReadWrite));
        let a = s.spawn(run);
        let b = s.spawn(run);
        (a.join().expect("run a"), b.join().expect("run b"))
    });
    (single, a, b)
}

#[test]
fn concurrent_runs_on_one_cache_give_the_reports_of_one_run() {
    let dir = tempfile::tempdir().expect("tempdir");
    let cache = dir.path().join("cache");
    let m = load(dir.path(), PROGRAM);
    let (single, a, b) = one_run_and_two_concurrent_ones(&m, &config(1), &cache);
    assert_eq!(verdicts(&a), verdicts(&single));
    assert_eq!(verdicts(&b), verdicts(&single));
    assert_eq!(a.analysed + a.reused, 6);
    let store = DiskStore::new(&cache, CacheMode::ReadOnly);
    let after = analyze_module_with_store(&m, &config(1), &FunctionSelection::AllDefined, &store);
    // Every report is stored unless its analysis used more than half of its budget or ran
    // out of time somewhere (`is_cacheable`): on a machine loaded by parallel tests a MAYBE
    // whose witness search uses its whole share can miss that bound, so not every function is
    // guaranteed to be reused here (seen once: 1 analysed, 5 reused). What must hold is that
    // the cache is used and that whatever comes from it is right.
    assert_eq!(after.analysed + after.reused, 6);
    assert!(after.reused > 0, "nothing was reused: {after:?}");
    assert_eq!(verdicts(&after), verdicts(&single));
    // Every stored entry is one of the two runs' complete reports. Read the entries through
    // the store itself: a function `after` analysed afresh has timing-dependent statistics,
    // so only entries can be compared with the writers' reports.
    let keys = ModuleKeys::new(&m, &ModuleFacts::new(&m), &config(1));
    let (ta, tb) = (timeless(&a), timeless(&b));
    let mut found = 0;
    for (i, f) in m.functions.iter().enumerate().filter(|(_, f)| !f.is_declaration()) {
        let Some(stored) = keys.key(crate::ir::FuncId(i as u32)).and_then(|k| store.get(&k)) else { continue };
        found += 1;
        let stored = FunctionReport { seconds: 0.0, ..stored };
        let pos = ta.iter().position(|r| r.name == f.name).expect("every defined function is reported");
        assert!(stored == ta[pos] || stored == tb[pos], "{stored:?} is neither run's report");
    }
    assert_eq!(found, after.reused, "every reused report is a stored entry");
    assert_eq!(store.stats(), StoreStats::default());
}

// ---- the summary cache ----

#[test]
fn summary_entries_corrupt_foreign_or_misplaced_are_counted_and_ignored() {
    use crate::symexec::SummaryPersistence as _;
    let dir = tempfile::tempdir().expect("tempdir");
    let store = DiskStore::new(dir.path(), CacheMode::ReadWrite);
    let summaries = store.summaries();
    let (f, e) = ([1u8; 32], [2u8; 32]);
    assert!(summaries.load(&f).is_empty());
    summaries.save(&f, &e, b"summary payload");
    assert_eq!(summaries.load(&f), vec![(e, b"summary payload".to_vec())]);
    // Read-only mode reads, never writes.
    let ro = DiskStore::new(dir.path(), CacheMode::ReadOnly).summaries();
    ro.save(&f, &[5; 32], b"other");
    assert_eq!(ro.load(&f).len(), 1);
    // Another engine build: intact but foreign, never read as a summary.
    let other = DiskStore::with_build_id(dir.path(), CacheMode::ReadWrite, [0xab; 32]);
    assert!(other.summaries().load(&f).is_empty());
    assert_eq!(other.stats().foreign, 1);
    // A flipped byte, and an entry file copied under another entry's name or function.
    let path = summaries.entry_path(&f, &e);
    let good = std::fs::read(&path).expect("written");
    let mut bad = good.clone();
    let last = bad.len() - 1;
    bad[last] ^= 0x40;
    std::fs::write(&path, &bad).expect("corrupt it");
    assert!(summaries.load(&f).is_empty());
    assert_eq!(store.stats().corrupt, 1);
    std::fs::write(&path, &good).expect("restore");
    std::fs::write(summaries.entry_path(&f, &[9; 32]), &good).expect("copy under another name");
    std::fs::create_dir_all(summaries.function_dir(&[7; 32])).expect("dir");
    std::fs::write(summaries.entry_path(&[7; 32], &e), &good).expect("copy into another function");
    assert_eq!(summaries.load(&f), vec![(e, b"summary payload".to_vec())], "the copy's key does not match its name");
    assert!(summaries.load(&[7; 32]).is_empty() || summaries.load(&[7; 32]) == vec![(e, b"summary payload".to_vec())]);
    // Stray files (a killed writer's temporary file, other names) are never read.
    std::fs::write(summaries.function_dir(&f).join(".x.entry.1.0.tmp"), b"junk").expect("write");
    std::fs::write(summaries.function_dir(&f).join("notes.txt"), b"junk").expect("write");
    assert_eq!(summaries.load(&f).len(), 1);
}

/// As [`config`], with mathematical integers (the callers below are proved through their
/// callees' summaries only without C's overflow checks).
fn math_config(jobs: usize) -> Config {
    Config::new(IntSemantics::Math, Duration::from_secs(1200))
        .with_function_timeout(Duration::from_secs(600))
        .expect("positive")
        .with_jobs(NonZeroUsize::new(jobs).expect("positive"))
}

/// The verdict kinds of a run: a proof found through a summary loaded from disk may differ
/// from one found through an entry built in the run (another ranking function), the verdict
/// may not.
fn kinds(r: &ModuleReport) -> Vec<(String, &'static str, &'static str)> {
    let t = |t: &Termination| match t {
        Termination::Yes(_) => "YES",
        Termination::No(_) => "NO",
        Termination::Maybe { .. } => "MAYBE",
    };
    let m = |m: &MemorySafety| match m {
        MemorySafety::Proved => "proved",
        MemorySafety::Violated(_) => "violated",
        MemorySafety::Unknown { .. } => "unknown",
    };
    r.functions.iter().map(|f| (f.name.clone(), t(&f.termination), m(&f.memory_safety))).collect()
}

/// Callers of untouched callees with loops (`count`, `sum`): their proved summaries persist.
const SUMMARY_PROGRAM: &str = "int count(int n) { int i = 0; while (i < n) i++; return i; }
int twice(int a) { if (a > 1000) return 0; return count(a) + count(a + 1); }
int chain(int b) { if (b < 0 || b > 50) return 0; return twice(b) + count(b); }
int sum(const int *a, int n) { int s = 0; for (int i = 0; i < n; i++) s += a[i]; return s; }
int fill_and_sum(int v) { int buf[8]; for (int i = 0; i < 8; i++) buf[i] = v; return sum(buf, 8); }
int main(void) { int other[8]; for (int i = 0; i < 8; i++) other[i] = i; return chain(7) + fill_and_sum(3) + sum(other, 8); }
";

#[test]
fn after_a_leaf_edit_the_callers_import_the_untouched_callees_summaries_from_disk() {
    let dir = tempfile::tempdir().expect("tempdir");
    let cache = dir.path().join("cache");
    let m = load(dir.path(), SUMMARY_PROGRAM);
    let first = analyze_module_with_store(&m, &math_config(2), &FunctionSelection::AllDefined, &DiskStore::new(&cache, CacheMode::ReadWrite));
    assert_eq!(first.summaries_loaded_from_disk, 0);
    assert!(first.summaries_stored >= 2, "{first:?}");
    // `twice` edited (same line and columns): `twice`, `chain` and `main` are analysed again;
    // `count`'s report comes from the report cache, so its summary can only come from disk.
    let edited = load(dir.path(), &SUMMARY_PROGRAM.replacen("a > 1000", "a > 1001", 1));
    let store = DiskStore::new(&cache, CacheMode::ReadWrite);
    let second = analyze_module_with_store(&edited, &math_config(2), &FunctionSelection::AllDefined, &store);
    assert_eq!((second.analysed, second.reused), (3, 3), "{second:?}");
    assert!(second.summaries_loaded_from_disk >= 1, "{second:?}");
    assert!(second.calls_served_from_disk >= 1, "{second:?}");
    assert!(second.calls_served_from_summaries >= second.calls_served_from_disk);
    assert_eq!(store.stats(), StoreStats::default());
    // The same verdicts as an analysis without any cache.
    let fresh = crate::analysis::analyze_module(&edited, &math_config(2), &FunctionSelection::AllDefined);
    assert_eq!(kinds(&fresh), kinds(&second));
    // Another engine build sees every entry as foreign: nothing loaded, the same verdicts.
    let foreign = DiskStore::with_build_id(&cache, CacheMode::ReadOnly, [0xcd; 32]);
    let other_build = analyze_module_with_store(&edited, &math_config(2), &FunctionSelection::AllDefined, &foreign);
    assert_eq!(other_build.summaries_loaded_from_disk, 0, "{other_build:?}");
    assert_eq!(kinds(&fresh), kinds(&other_build));
}

#[test]
fn concurrent_runs_share_the_summary_cache_and_give_the_verdicts_of_one_run() {
    let dir = tempfile::tempdir().expect("tempdir");
    let cache = dir.path().join("cache");
    let m = load(dir.path(), SUMMARY_PROGRAM);
    let (single, a, b) = one_run_and_two_concurrent_ones(&m, &math_config(1), &cache);
    assert_eq!(kinds(&a), kinds(&single));
    assert_eq!(kinds(&b), kinds(&single));
    // An edit of `main` (the only function reaching `fill_and_sum`'s entry of `sum`): it is
    // analysed again with whatever the two writers left.
    let edited = load(dir.path(), &SUMMARY_PROGRAM.replacen("chain(7)", "chain(8)", 1));
    let store = DiskStore::new(&cache, CacheMode::ReadWrite);
    let after = analyze_module_with_store(&edited, &math_config(1), &FunctionSelection::AllDefined, &store);
    // `main` at least (a report that used more than half of its time in the loaded writers
    // is not stored: `is_cacheable`).
    assert!(after.analysed >= 1, "{after:?}");
    assert!(after.summaries_loaded_from_disk >= 1, "{after:?}");
    let fresh = crate::analysis::analyze_module(&edited, &math_config(1), &FunctionSelection::AllDefined);
    assert_eq!(kinds(&fresh), kinds(&after));
    assert_eq!(store.stats(), StoreStats::default());
}
