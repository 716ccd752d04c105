//! The persistent report cache: one file per key under the cache directory, crash-safe.
//!
//! Layout: `DIR/v{FORMAT_VERSION}/{first two hex digits of the key}/{key in hex}.entry`, each
//! file one envelope (`envelope`) around a postcard payload. A write goes to a fresh
//! temporary file in the entry's directory, is fsynced and then renamed over the entry
//! (atomic on POSIX): a reader sees the old entry, the new one or none, never a mixture, and
//! a killed writer leaves at most an orphaned temporary file (never read; its name does not
//! end in `.entry`). Two runs writing the same key both write complete, valid entries; the
//! last rename wins. A corrupt, truncated or foreign entry is a miss (counted, logged through
//! `tracing` once per run) and is overwritten when the report is recomputed. Write errors
//! (read-only directory, full disk) are counted and logged, never fatal.

use super::{decode_report, encode_report, envelope, CacheKey, ReportStore, StoreStats, ENGINE_BUILD_ID};
use crate::analysis::FunctionReport;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};

/// Whether the store writes.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum CacheMode {
    ReadWrite,
    /// Reads entries, never writes (e.g. CI with a prepared cache).
    ReadOnly,
}

/// The disk store rooted at one directory.
#[derive(Debug)]
pub struct DiskStore {
    files: std::sync::Arc<EntryFiles>,
}

/// The entry files under one cache directory, with the rules every kind of entry shares
/// (reports here, summaries in `cache::summaries`): envelope checks on reading, atomic
/// writes, counters and logging of rejected entries and failed writes.
#[derive(Debug)]
pub(crate) struct EntryFiles {
    pub(crate) root: PathBuf,
    pub(crate) mode: CacheMode,
    build_id: [u8; 32],
    corrupt: AtomicUsize,
    foreign: AtomicUsize,
    write_errors: AtomicUsize,
    warned_read: AtomicBool,
    warned_write: AtomicBool,
    temp_counter: AtomicU64,
}

impl DiskStore {
    /// The store in `dir` (created on the first write; nothing is touched before).
    pub fn new(dir: impl Into<PathBuf>, mode: CacheMode) -> DiskStore {
        DiskStore::with_build_id(dir, mode, ENGINE_BUILD_ID)
    }

    /// As [`DiskStore::new`], acting as engine build `build_id` (tests of foreign entries).
    pub fn with_build_id(dir: impl Into<PathBuf>, mode: CacheMode, build_id: [u8; 32]) -> DiskStore {
        DiskStore { files: std::sync::Arc::new(EntryFiles::new(dir.into(), mode, build_id)) }
    }

    /// The file of `key`'s entry.
    pub fn entry_path(&self, key: &CacheKey) -> PathBuf {
        let hex = key.to_string();
        self.files.root.join(&hex[..2]).join(format!("{hex}.entry"))
    }

    /// The summary cache in the same directory, sharing this store's counters.
    pub fn summaries(&self) -> super::summaries::DiskSummaries {
        super::summaries::DiskSummaries::new(self.files.clone())
    }
}

impl EntryFiles {
    fn new(dir: PathBuf, mode: CacheMode, build_id: [u8; 32]) -> EntryFiles {
        EntryFiles {
            root: dir.join(format!("v{}", envelope::FORMAT_VERSION)),
            mode,
            build_id,
            corrupt: AtomicUsize::new(0),
            foreign: AtomicUsize::new(0),
            write_errors: AtomicUsize::new(0),
            warned_read: AtomicBool::new(false),
            warned_write: AtomicBool::new(false),
            temp_counter: AtomicU64::new(0),
        }
    }

    pub(crate) fn reject(&self, key: &CacheKey, path: &Path, what: &str, foreign: bool) {
        let counter = if foreign { &self.foreign } else { &self.corrupt };
        counter.fetch_add(1, Ordering::Relaxed);
        if !self.warned_read.swap(true, Ordering::Relaxed) {
            tracing::warn!(path = %path.display(), "cache entry ignored ({what}); it is recomputed (further ones are logged at debug level)");
        } else {
            tracing::debug!(%key, path = %path.display(), "cache entry ignored ({what})");
        }
    }

    pub(crate) fn write_failed(&self, path: &Path, error: &std::io::Error) {
        self.write_errors.fetch_add(1, Ordering::Relaxed);
        if !self.warned_write.swap(true, Ordering::Relaxed) {
            tracing::warn!(path = %path.display(), %error, "cannot write the cache entry; the analysis goes on (further errors are logged at debug level)");
        } else {
            tracing::debug!(path = %path.display(), %error, "cannot write the cache entry");
        }
    }

    /// The payload of the entry file `path` for `key`, if it exists and its envelope is intact
    /// and ours (a rejected one is counted and logged).
    pub(crate) fn read(&self, key: &CacheKey, path: &Path) -> Option<Vec<u8>> {
        let bytes = match std::fs::read(path) {
            Ok(b) => b,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return None,
            Err(e) => {
                tracing::debug!(path = %path.display(), error = %e, "cannot read the cache entry");
                return None;
            }
        };
        match envelope::open(&self.build_id, key, &bytes) {
            Ok(p) => Some(p.to_vec()),
            Err(e) => {
                self.reject(key, path, &format!("{e:?}"), e.is_foreign());
                None
            }
        }
    }

    /// Seals `payload` for `key` and writes it atomically to `path` (nothing in read-only
    /// mode; a failure is counted and logged).
    pub(crate) fn write(&self, key: &CacheKey, path: &Path, payload: &[u8]) {
        if self.mode == CacheMode::ReadOnly {
            return;
        }
        let bytes = envelope::seal(&self.build_id, key, payload);
        if let Err(e) = self.write_entry(path, &bytes) {
            self.write_failed(path, &e);
        }
    }

    fn write_entry(&self, path: &Path, bytes: &[u8]) -> std::io::Result<()> {
        let dir = path.parent().unwrap_or(&self.root);
        std::fs::create_dir_all(dir)?;
        let n = self.temp_counter.fetch_add(1, Ordering::Relaxed);
        let name = path.file_name().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default();
        let temp = dir.join(format!(".{name}.{}.{n}.tmp", std::process::id()));
        let result = (|| {
            let mut file = std::fs::OpenOptions::new().write(true).create_new(true).open(&temp)?;
            file.write_all(bytes)?;
            file.sync_all()?;
            drop(file);
            std::fs::rename(&temp, path)?;
            // Makes the rename itself durable; failing to is not an error of the entry.
            if let Ok(d) = std::fs::File::open(dir) {
                let _ = d.sync_all();
            }
            Ok(())
        })();
        if result.is_err() {
            let _ = std::fs::remove_file(&temp);
        }
        result
    }
}

impl ReportStore for DiskStore {
    fn get(&self, key: &CacheKey) -> Option<FunctionReport> {
        let path = self.entry_path(key);
        let payload = self.files.read(key, &path)?;
        match decode_report(&payload) {
            Some(report) => Some(report),
            None => {
                self.files.reject(key, &path, "payload does not decode", false);
                None
            }
        }
    }

    fn put(&self, key: &CacheKey, report: &FunctionReport) {
        if self.files.mode == CacheMode::ReadOnly {
            return;
        }
        let path = self.entry_path(key);
        let Some(payload) = encode_report(report) else {
            self.files.write_failed(&path, &std::io::Error::other("report does not serialize"));
            return;
        };
        self.files.write(key, &path, &payload);
    }

    fn stats(&self) -> StoreStats {
        self.files.stats()
    }

    fn summaries(&self) -> Option<std::sync::Arc<dyn crate::symexec::SummaryPersistence>> {
        Some(std::sync::Arc::new(DiskStore::summaries(self)))
    }
}

impl EntryFiles {
    pub(crate) fn stats(&self) -> StoreStats {
        StoreStats {
            corrupt: self.corrupt.load(Ordering::Relaxed),
            foreign: self.foreign.load(Ordering::Relaxed),
            write_errors: self.write_errors.load(Ordering::Relaxed),
        }
    }
}
