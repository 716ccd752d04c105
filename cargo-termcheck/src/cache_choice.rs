//! Which report store `prove` uses: `--no-cache`, `--cache-dir DIR`, `--cache-mode`, or by
//! default the `termcheck` directory in the user's cache directory (`dirs::cache_dir`, which
//! honours `XDG_CACHE_HOME`).

use crate::cli::{CacheModeArg, ProveArgs};
use termcheck_engine::cache::disk::{CacheMode, DiskStore};
use termcheck_engine::cache::{NoStore, ReportStore, StoreStats};
use termcheck_engine::verdict::Report;

/// The store for one `prove` run (no store when there is no cache directory at all).
pub fn store_for(args: &ProveArgs) -> Box<dyn ReportStore + Send> {
    store_from(args.no_cache, args.cache_dir.clone(), args.cache_mode)
}

/// Where `prove` caches the std bitcode it extracts from the sysroot (`std-bitcode` in the
/// report cache's directory; none with `--no-cache`).
pub fn std_bitcode_dir(args: &ProveArgs) -> Option<std::path::PathBuf> {
    if args.no_cache {
        return None;
    }
    args.cache_dir.clone().or_else(|| dirs::cache_dir().map(|d| d.join("termcheck"))).map(|d| d.join("std-bitcode"))
}

/// The store for `--no-cache`, `--cache-dir` and `--cache-mode` (shared by `prove` and workspace mode).
pub fn store_from(no_cache: bool, cache_dir: Option<std::path::PathBuf>, cache_mode: CacheModeArg) -> Box<dyn ReportStore + Send> {
    if no_cache {
        return Box::new(NoStore);
    }
    let Some(dir) = cache_dir.or_else(|| dirs::cache_dir().map(|d| d.join("termcheck"))) else {
        tracing::debug!("no user cache directory: the report cache is off");
        return Box::new(NoStore);
    };
    let mode = match cache_mode {
        CacheModeArg::ReadWrite => CacheMode::ReadWrite,
        CacheModeArg::ReadOnly => CacheMode::ReadOnly,
    };
    Box::new(DiskStore::new(dir, mode))
}

/// `report` with the cache's problems in this run (rejected entries, failed writes) added to
/// its stats when there were any.
pub fn with_store_problems(mut report: Report, stats: StoreStats) -> Report {
    if stats.corrupt + stats.foreign > 0 {
        report.stats.push(("cache entries ignored (corrupt or foreign)".into(), (stats.corrupt + stats.foreign).to_string()));
    }
    if stats.write_errors > 0 {
        report.stats.push(("cache write errors".into(), stats.write_errors.to_string()));
    }
    report
}
