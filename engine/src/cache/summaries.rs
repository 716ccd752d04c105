//! The summary cache on disk: proved summaries (`symexec::SummaryStore`) persisted between
//! runs, next to the report cache and under the same rules (`disk::EntryFiles`: one
//! self-checking envelope per file, atomic writes, corrupt or foreign entries counted and
//! ignored, write errors never fatal).
//!
//! Layout: `DIR/v{FORMAT_VERSION}/summaries/{function key in hex}/{entry key in hex}.entry`.
//! A function's directory holds every summary stored for it under one function key
//! (`ModuleKeys::summary_key`); the entry key is derived from the function key and the
//! portable entry state (`symexec::summary_portable`), so a file moved into another
//! function's directory, or renamed, fails the envelope's key check or the re-derivation of
//! its key on decoding. Files whose names are not `{64 hex digits}.entry` (e.g. the
//! temporary files of a killed writer) are never read.

use super::disk::EntryFiles;
use super::CacheKey;
use crate::symexec::SummaryPersistence;
use std::path::PathBuf;
use std::sync::Arc;

/// The summary cache of one cache directory.
#[derive(Debug, Clone)]
pub struct DiskSummaries {
    files: Arc<EntryFiles>,
}

fn hex(bytes: &[u8; 32]) -> String {
    CacheKey(*bytes).to_string()
}

/// The 32 bytes of a key written as 64 hex digits (blake3's own parser).
fn parse_hex(s: &str) -> Option<[u8; 32]> {
    blake3::Hash::from_hex(s).ok().map(|h| *h.as_bytes())
}

impl DiskSummaries {
    pub(crate) fn new(files: Arc<EntryFiles>) -> DiskSummaries {
        DiskSummaries { files }
    }

    /// The directory of the summaries stored under `function`.
    pub fn function_dir(&self, function: &[u8; 32]) -> PathBuf {
        self.files.root.join("summaries").join(hex(function))
    }

    /// The file of one entry.
    pub fn entry_path(&self, function: &[u8; 32], entry: &[u8; 32]) -> PathBuf {
        self.function_dir(function).join(format!("{}.entry", hex(entry)))
    }
}

impl SummaryPersistence for DiskSummaries {
    fn load(&self, function: &[u8; 32]) -> Vec<([u8; 32], Vec<u8>)> {
        let dir = self.function_dir(function);
        let Ok(listing) = std::fs::read_dir(&dir) else { return vec![] };
        let mut names: Vec<String> = listing.filter_map(|e| e.ok()?.file_name().into_string().ok()).collect();
        // Directory order is the file system's; sorted, every run sees the same order.
        names.sort();
        names
            .iter()
            .filter_map(|name| {
                let key = parse_hex(name.strip_suffix(".entry")?)?;
                let payload = self.files.read(&CacheKey(key), &dir.join(name))?;
                Some((key, payload))
            })
            .collect()
    }

    fn save(&self, function: &[u8; 32], entry: &[u8; 32], payload: &[u8]) {
        self.files.write(&CacheKey(*entry), &self.entry_path(function, entry), payload);
    }
}
