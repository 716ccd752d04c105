//! The report cache through the binary: `--cache-dir`, `--no-cache`, `--cache-mode`, the
//! default directory under `XDG_CACHE_HOME`, and the analysed/reused counts in the stats.

use std::path::{Path, PathBuf};
use std::time::Duration;
use termcheck_tests::{run_binary, Run};

fn binary() -> &'static Path {
    Path::new(env!("CARGO_BIN_EXE_cargo-termcheck"))
}

fn program() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples/countdown.c")
}

fn prove(extra: &[&str]) -> Run {
    let mut args = vec!["prove".to_string(), program().display().to_string(), "--timeout".into(), "30".into()];
    args.extend(extra.iter().map(|s| s.to_string()));
    let run = run_binary(binary(), Path::new(env!("CARGO_MANIFEST_DIR")), &args, Duration::from_secs(60));
    assert_eq!(run.code, Some(0), "{}\n{}", run.stdout, run.stderr);
    run
}

/// The first two lines (verdict and memory safety).
fn verdict(run: &Run) -> Vec<&str> {
    run.stdout.lines().take(2).collect()
}

fn counts(run: &Run) -> (String, String) {
    let stat = |name: &str| {
        run.stdout
            .lines()
            .find_map(|l| l.trim().strip_prefix(&format!("{name}: ")).map(str::to_string))
            .unwrap_or_else(|| panic!("no `{name}` in\n{}", run.stdout))
    };
    (stat("functions analysed"), stat("functions reused from cache"))
}

fn entries(dir: &Path) -> usize {
    let Ok(read) = std::fs::read_dir(dir) else { return 0 };
    read.flatten().map(|e| if e.path().is_dir() { entries(&e.path()) } else { usize::from(e.path().extension().is_some_and(|x| x == "entry")) }).sum()
}

#[test]
fn second_run_reuses_the_entry_function_with_the_same_verdict() {
    let dir = tempfile::tempdir().expect("tempdir");
    let cache = dir.path().join("c");
    let cache_arg = cache.to_str().expect("utf-8 path");
    let first = prove(&["--cache-dir", cache_arg]);
    assert_eq!(counts(&first), ("1".into(), "0".into()));
    assert_eq!(entries(&cache), 1);
    let second = prove(&["--cache-dir", cache_arg]);
    assert_eq!(counts(&second), ("0".into(), "1".into()));
    assert_eq!(verdict(&first), verdict(&second));
    // Without the cache: the same verdict, analysed again.
    let uncached = prove(&["--no-cache"]);
    assert_eq!(counts(&uncached), ("1".into(), "0".into()));
    assert_eq!(verdict(&uncached), verdict(&first));
    // JSON carries the counts in its stats object.
    let json = prove(&["--cache-dir", cache_arg, "--format", "json"]);
    let v: serde_json::Value = serde_json::from_str(&json.stdout).expect("one JSON object");
    assert_eq!(v["stats"]["functions reused from cache"], "1", "{}", json.stdout);
    assert_eq!(v["stats"]["functions analysed"], "0", "{}", json.stdout);
}

#[test]
fn read_only_mode_never_writes_and_a_broken_entry_is_recomputed() {
    let dir = tempfile::tempdir().expect("tempdir");
    let cache = dir.path().join("c");
    let cache_arg = cache.to_str().expect("utf-8 path");
    let ro = prove(&["--cache-dir", cache_arg, "--cache-mode", "read-only"]);
    assert_eq!(counts(&ro), ("1".into(), "0".into()));
    assert!(!cache.exists(), "read-only mode created the cache");
    prove(&["--cache-dir", cache_arg]);
    assert_eq!(entries(&cache), 1);
    assert_eq!(counts(&prove(&["--cache-dir", cache_arg, "--cache-mode", "read-only"])), ("0".into(), "1".into()));
    // Truncate the entry (as a crash of a non-atomic writer would): a counted miss.
    let entry = find_entry(&cache).expect("an entry");
    let bytes = std::fs::read(&entry).expect("read");
    std::fs::write(&entry, &bytes[..bytes.len() / 2]).expect("truncate");
    let after = prove(&["--cache-dir", cache_arg]);
    assert_eq!(counts(&after), ("1".into(), "0".into()));
    assert!(after.stdout.contains("cache entries ignored (corrupt or foreign): 1"), "{}", after.stdout);
    assert_eq!(counts(&prove(&["--cache-dir", cache_arg])), ("0".into(), "1".into()), "rewritten");
}

/// An entry written by a newer termcheck (a higher format version in its header, same key and
/// path) is intact but foreign: ignored and counted, the function analysed, the same verdict,
/// exit 0 (a cache never fails a run). It is then overwritten with this version's entry.
#[test]
fn an_entry_from_a_newer_version_is_ignored_and_recomputed() {
    let dir = tempfile::tempdir().expect("tempdir");
    let cache = dir.path().join("c");
    let cache_arg = cache.to_str().expect("utf-8 path");
    let cold = prove(&["--cache-dir", cache_arg]);
    let entry = find_entry(&cache).expect("an entry");
    let mut bytes = std::fs::read(&entry).expect("read");
    // Layout (engine/src/cache/envelope.rs): magic (8), format version (u32 LE), …
    let version = u32::from_le_bytes(bytes[8..12].try_into().expect("4 bytes"));
    bytes[8..12].copy_from_slice(&(version + 1).to_le_bytes());
    std::fs::write(&entry, &bytes).expect("write the newer entry");
    let after = prove(&["--cache-dir", cache_arg]);
    assert_eq!(counts(&after), ("1".into(), "0".into()), "{}", after.stdout);
    assert!(after.stdout.contains("cache entries ignored (corrupt or foreign): 1"), "{}", after.stdout);
    assert_eq!(verdict(&after), verdict(&cold));
    assert_eq!(counts(&prove(&["--cache-dir", cache_arg])), ("0".into(), "1".into()), "rewritten by this version");
}

#[test]
fn unwritable_cache_directory_does_not_fail_the_run() {
    let dir = tempfile::tempdir().expect("tempdir");
    let file = dir.path().join("file");
    std::fs::write(&file, b"not a directory").expect("write");
    let run = prove(&["--cache-dir", file.to_str().expect("utf-8")]);
    assert_eq!(counts(&run), ("1".into(), "0".into()));
    assert!(run.stdout.contains("cache write errors: 1"), "{}", run.stdout);
}

#[test]
fn default_directory_is_termcheck_under_xdg_cache_home() {
    let dir = tempfile::tempdir().expect("tempdir");
    let args = vec!["prove".to_string(), program().display().to_string()];
    let mut cmd = std::process::Command::new(binary());
    let out = cmd.args(&args).env("XDG_CACHE_HOME", dir.path()).output().expect("run");
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(entries(&dir.path().join("termcheck")), 1);
}

fn find_entry(dir: &Path) -> Option<PathBuf> {
    for e in std::fs::read_dir(dir).ok()?.flatten() {
        let p = e.path();
        if p.is_dir() {
            if let Some(found) = find_entry(&p) {
                return Some(found);
            }
        } else if p.extension().is_some_and(|x| x == "entry") {
            return Some(p);
        }
    }
    None
}

/// `prove FILE --all-functions` in `dir` with the cache in `dir/c`, JSON: the run's object.
fn all_functions_json(dir: &Path, file: &str) -> serde_json::Value {
    let args: Vec<String> = ["prove", file, "--all-functions", "--int-semantics", "math", "--jobs", "2", "--timeout", "120", "--cache-dir", "c", "--format", "json"].iter().map(|s| s.to_string()).collect();
    let run = run_binary(binary(), dir, &args, Duration::from_secs(180));
    assert_eq!(run.code, Some(0), "{}\n{}", run.stdout, run.stderr);
    serde_json::from_str(run.stdout.trim_end()).expect("one JSON object")
}

#[test]
fn after_an_edit_the_callers_import_summaries_from_the_summary_cache() {
    // `stored-summaries.c` (tests/cases/all-functions): `count` and `sum` loop; edit `twice`
    // (same line and columns): `twice`, `chain` and `main` are analysed again, and `count`'s
    // report comes from the report cache, so its summary can only come from disk.
    let dir = tempfile::tempdir().expect("tempdir");
    let source = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/cases/all-functions/stored-summaries.c");
    let text = std::fs::read_to_string(source).expect("the case");
    std::fs::write(dir.path().join("p.c"), &text).expect("write");
    let cold = all_functions_json(dir.path(), "p.c");
    assert_eq!(cold["summaries_loaded_from_disk"], 0, "{cold}");
    assert!(cold["summaries_stored"].as_u64().is_some_and(|n| n >= 2), "{cold}");
    assert!(entries(&dir.path().join("c").join("v1").join("summaries")) >= 2, "summary entries written");
    std::fs::write(dir.path().join("p.c"), text.replacen("a > 1000", "a > 1001", 1)).expect("edit");
    let edited = all_functions_json(dir.path(), "p.c");
    assert_eq!(edited["analysed"], 3, "{edited}");
    assert!(edited["summaries_loaded_from_disk"].as_u64().is_some_and(|n| n >= 1), "{edited}");
    assert!(edited["calls_served_from_disk"].as_u64().is_some_and(|n| n >= 1), "{edited}");
    let verdicts = |v: &serde_json::Value| v["functions"].as_array().expect("functions").iter().map(|f| (f["name"].clone(), f["verdict"].clone(), f["memory_safety"].clone())).collect::<Vec<_>>();
    assert_eq!(verdicts(&cold), verdicts(&edited));
}
