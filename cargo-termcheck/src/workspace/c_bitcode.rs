//! The C bitcode of the members' build scripts. A build script reports the static libraries
//! it built (`cargo:rustc-link-lib=static=NAME`, `cargo:rustc-link-search=native=DIR`; cargo's
//! `build-script-executed` message); the C shim wrote `X.o.bc` beside each object `X.o` it
//! compiled. An object counts when its bytes are a member of such an archive, which leaves out
//! the `cc` crate's probe objects. Archive members without bitcode (C compiled another way,
//! or a failed bitcode compile) and libraries that are not static archives built here are
//! listed as not analysed, by name.

use crate::cc_shim::{BITCODE_ERROR_SUFFIX, BITCODE_SUFFIX};
use cargo_metadata::BuildScript;
use std::collections::BTreeMap;
use std::io::Read;
use std::path::{Path, PathBuf};

/// The C bitcode of one build script's archives, and what could not be analysed.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CBitcode {
    pub bitcode: Vec<PathBuf>,
    pub not_analysed: Vec<NotAnalysed>,
}

/// Something linked into a member that has no bitcode, with why.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct NotAnalysed {
    pub what: String,
    pub why: String,
}

/// The bitcode of the objects in the static libraries `script` reported.
pub fn collect(script: &BuildScript) -> CBitcode {
    let search: Vec<PathBuf> = script
        .linked_paths
        .iter()
        .map(|p| PathBuf::from(p.as_str().split_once('=').map_or(p.as_str(), |(_, dir)| dir)))
        .chain(std::iter::once(script.out_dir.clone().into_std_path_buf()))
        .collect();
    let mut result = CBitcode::default();
    for lib in &script.linked_libs {
        let (kind, name) = match lib.as_str().split_once('=') {
            Some((kind, name)) => (kind.split(':').next().unwrap_or(kind), name),
            None => ("", lib.as_str()),
        };
        let name = name.split(':').next().unwrap_or(name);
        let archive = search.iter().map(|dir| dir.join(format!("lib{name}.a"))).find(|p| p.is_file());
        match (kind, archive) {
            ("static" | "", Some(archive)) => collect_archive(&archive, &script.out_dir.clone().into_std_path_buf(), &mut result),
            _ => result.not_analysed.push(NotAnalysed {
                what: format!("library `{name}`"),
                why: "linked by the build script but not a static archive built in its output directory".into(),
            }),
        }
    }
    result
}

/// Adds the bitcode of `archive`'s members, found among the objects under `out_dir`.
fn collect_archive(archive: &Path, out_dir: &Path, result: &mut CBitcode) {
    let shown = archive.file_name().map_or_else(|| archive.display().to_string(), |n| n.to_string_lossy().into_owned());
    let members = match archive_members(archive) {
        Ok(members) => members,
        Err(e) => {
            result.not_analysed.push(NotAnalysed { what: format!("archive {shown}"), why: format!("cannot read it: {e}") });
            return;
        }
    };
    let objects = objects_by_size(out_dir);
    for (member, bytes) in members {
        let object = objects.get(&(bytes.len() as u64)).into_iter().flatten().find(|o| std::fs::read(o).is_ok_and(|c| c == bytes));
        let what = format!("{member} in {shown}");
        let Some(object) = object else {
            result.not_analysed.push(NotAnalysed { what, why: "no object file with these contents in the build script's output directory".into() });
            continue;
        };
        let bitcode = with_suffix(object, BITCODE_SUFFIX);
        let error = with_suffix(object, BITCODE_ERROR_SUFFIX);
        let fresh = |p: &Path| -> bool {
            let modified = |p: &Path| std::fs::metadata(p).and_then(|m| m.modified()).ok();
            matches!((modified(p), modified(object)), (Some(b), Some(o)) if b >= o)
        };
        if bitcode.is_file() && fresh(&bitcode) {
            result.bitcode.push(bitcode);
        } else if error.is_file() {
            let first = std::fs::read_to_string(&error).unwrap_or_default().lines().find(|l| l.contains("error")).unwrap_or("").to_string();
            result.not_analysed.push(NotAnalysed { what, why: format!("its bitcode compile failed: {first}") });
        } else {
            result.not_analysed.push(NotAnalysed { what, why: "compiled without termcheck's C shim (no bitcode beside the object)".into() });
        }
    }
}

fn with_suffix(path: &Path, suffix: &str) -> PathBuf {
    let mut text = path.as_os_str().to_os_string();
    text.push(suffix);
    PathBuf::from(text)
}

/// The members of an `ar` archive: (name, contents).
fn archive_members(archive: &Path) -> std::io::Result<Vec<(String, Vec<u8>)>> {
    let mut reader = ar::Archive::new(std::fs::File::open(archive)?);
    let mut members = Vec::new();
    while let Some(entry) = reader.next_entry() {
        let mut entry = entry?;
        let name = String::from_utf8_lossy(entry.header().identifier()).trim_end_matches('/').to_string();
        let mut bytes = Vec::new();
        entry.read_to_end(&mut bytes)?;
        members.push((name, bytes));
    }
    Ok(members)
}

/// Every `.o` file under `dir`, by size.
fn objects_by_size(dir: &Path) -> BTreeMap<u64, Vec<PathBuf>> {
    let mut found: BTreeMap<u64, Vec<PathBuf>> = BTreeMap::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(next) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&next) else { continue };
        for entry in entries.flatten() {
            let path = entry.path();
            let Ok(meta) = entry.metadata() else { continue };
            if meta.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|e| e == "o") {
                found.entry(meta.len()).or_default().push(path);
            }
        }
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    fn script(out_dir: &Path, libs: &[&str]) -> BuildScript {
        let json = serde_json::json!({
            "reason": "build-script-executed",
            "package_id": "path+file:///w#a@0.1.0",
            "linked_libs": libs,
            "linked_paths": [format!("native={}", out_dir.display())],
            "cfgs": [], "env": [],
            "out_dir": out_dir.display().to_string(),
        });
        serde_json::from_value(json).unwrap()
    }

    fn archive(path: &Path, members: &[(&str, &[u8])]) {
        let mut builder = ar::Builder::new(std::fs::File::create(path).unwrap());
        for (name, data) in members {
            builder.append(&ar::Header::new(name.as_bytes().to_vec(), data.len() as u64), *data).unwrap();
        }
    }

    #[test]
    fn keeps_the_bitcode_of_archived_objects_and_names_the_rest() {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path();
        std::fs::write(out.join("h1-ops.o"), b"ops object").unwrap();
        std::fs::write(out.join("h1-ops.o.bc"), b"bc").unwrap();
        std::fs::write(out.join("h2-plain.o"), b"plain object").unwrap(); // no bitcode
        std::fs::write(out.join("h3-bad.o"), b"bad object").unwrap();
        std::fs::write(out.join("h3-bad.o.bc.err"), b"x.c:1: error: oops\n").unwrap();
        std::fs::write(out.join("flag_check.o"), b"probe").unwrap(); // a probe: not archived
        std::fs::write(out.join("flag_check.o.bc"), b"bc").unwrap();
        archive(&out.join("libops.a"), &[("h1-ops.o", b"ops object"), ("h2-plain.o", b"plain object"), ("h3-bad.o", b"bad object")]);
        let c = collect(&script(out, &["static=ops", "dylib=m"]));
        assert_eq!(c.bitcode, [out.join("h1-ops.o.bc")]);
        let names: Vec<&str> = c.not_analysed.iter().map(|n| n.what.as_str()).collect();
        assert_eq!(names, ["h2-plain.o in libops.a", "h3-bad.o in libops.a", "library `m`"]);
        assert!(c.not_analysed[1].why.contains("error: oops"), "{:?}", c.not_analysed[1]);
    }
}
