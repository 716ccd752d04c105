//! Where rustc wrote each member crate's bitcode. cargo does not report `.bc` files; rustc
//! writes `<crate-name><extra-filename>.bc` into its `--out-dir` (`deps/`), next to the
//! `lib<crate-name><extra-filename>.rlib` (libraries) or `<crate-name><extra-filename>`
//! (binaries, which cargo reports at their hard-linked copy outside `deps/`: the original is
//! found by its inode, or by its contents when the copy is not a hard link).

use super::error::WorkspaceError;
use cargo_metadata::{Artifact, PackageId, TargetKind};
use std::path::{Path, PathBuf};

/// Whether a target is a library or a binary (the targets workspace mode checks).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum TargetRole {
    Lib,
    Bin,
}

/// The bitcode of one library or binary target of a member.
#[derive(Clone, Debug)]
pub struct CrateBitcode {
    pub package: PackageId,
    pub target_name: String,
    pub role: TargetRole,
    pub bitcode: PathBuf,
}

/// The role of an artifact's target, if workspace mode checks it.
pub fn role_of(artifact: &Artifact) -> Option<TargetRole> {
    let kinds = &artifact.target.kind;
    if kinds.contains(&TargetKind::Bin) {
        Some(TargetRole::Bin)
    } else if kinds.iter().any(|k| matches!(k, TargetKind::Lib | TargetKind::RLib | TargetKind::DyLib | TargetKind::CDyLib | TargetKind::StaticLib)) {
        Some(TargetRole::Lib)
    } else {
        None
    }
}

/// The bitcode of a library or binary artifact of a member, which must exist.
pub fn crate_bitcode(artifact: &Artifact, termcheck_dir: &Path) -> Result<Option<CrateBitcode>, WorkspaceError> {
    let Some(role) = role_of(artifact) else { return Ok(None) };
    let crate_name = artifact.target.name.replace('-', "_");
    let what = format!("{} `{}`", if role == TargetRole::Lib { "library" } else { "binary" }, artifact.target.name);
    let missing = |path: String| WorkspaceError::MissingBitcode { what: what.clone(), path, dir: termcheck_dir.display().to_string() };
    let files: Vec<PathBuf> = artifact.filenames.iter().map(|f| f.clone().into_std_path_buf()).collect();
    // Prefer the rlib (always in deps/); otherwise find the deps/ original of the first file.
    let preferred = files.iter().find(|f| f.extension().is_some_and(|e| e == "rlib")).or(files.first());
    let Some(file) = preferred else { return Err(missing("(cargo reported no file)".into())) };
    let original = original_in_deps(file).ok_or_else(|| missing(format!("the deps/ original of {}", file.display())))?;
    let stem = bitcode_stem(&original, &crate_name).ok_or_else(|| missing(format!("a bitcode name for {}", original.display())))?;
    let bitcode = original.with_file_name(format!("{stem}.bc"));
    if !bitcode.is_file() {
        return Err(missing(bitcode.display().to_string()));
    }
    Ok(Some(CrateBitcode { package: artifact.package_id.clone(), target_name: artifact.target.name.clone(), role, bitcode }))
}

/// The file itself when it is in a `deps` directory, else its hard-linked (or identical)
/// original in the sibling `deps` directory.
fn original_in_deps(file: &Path) -> Option<PathBuf> {
    use std::os::unix::fs::MetadataExt;
    if file.parent().and_then(Path::file_name).is_some_and(|n| n == "deps") {
        return Some(file.to_path_buf());
    }
    let deps = file.parent()?.join("deps");
    let meta = std::fs::metadata(file).ok()?;
    let candidates: Vec<PathBuf> = std::fs::read_dir(&deps).ok()?.flatten().map(|e| e.path()).filter(|p| p.is_file()).collect();
    if let Some(same) = candidates.iter().find(|p| std::fs::metadata(p).is_ok_and(|m| m.dev() == meta.dev() && m.ino() == meta.ino())) {
        return Some(same.clone());
    }
    let contents = std::fs::read(file).ok()?;
    candidates.into_iter().find(|p| std::fs::metadata(p).is_ok_and(|m| m.len() == meta.len()) && std::fs::read(p).is_ok_and(|c| c == contents))
}

/// `<crate-name><extra-filename>` from a file rustc wrote in `deps/`: `libfoo-1a2b.rlib`,
/// `foo-1a2b`, `libfoo.so` give `foo-1a2b`, `foo-1a2b`, `foo`.
fn bitcode_stem(original: &Path, crate_name: &str) -> Option<String> {
    let name = original.file_name()?.to_str()?;
    let unprefixed = name.strip_prefix("lib").filter(|rest| rest.starts_with(crate_name)).unwrap_or(name);
    let rest = unprefixed.strip_prefix(crate_name)?;
    let extra = rest.split('.').next().unwrap_or("");
    Some(format!("{crate_name}{extra}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stems_of_rustc_outputs() {
        assert_eq!(bitcode_stem(Path::new("/t/deps/libffi_basic-1a2b.rlib"), "ffi_basic").as_deref(), Some("ffi_basic-1a2b"));
        assert_eq!(bitcode_stem(Path::new("/t/deps/ffi_basic-1a2b"), "ffi_basic").as_deref(), Some("ffi_basic-1a2b"));
        assert_eq!(bitcode_stem(Path::new("/t/deps/libffi.so"), "ffi").as_deref(), Some("ffi"));
        // A crate whose name starts with `lib`.
        assert_eq!(bitcode_stem(Path::new("/t/deps/liblibc-9f.rlib"), "libc").as_deref(), Some("libc-9f"));
        assert_eq!(bitcode_stem(Path::new("/t/deps/other-9f"), "ffi"), None);
    }

    #[test]
    fn an_uplifted_binary_is_traced_to_its_deps_original() {
        let dir = tempfile::tempdir().unwrap();
        let deps = dir.path().join("deps");
        std::fs::create_dir(&deps).unwrap();
        std::fs::write(deps.join("tool-00ff"), b"elf").unwrap();
        std::fs::write(deps.join("tool-11ee"), b"other").unwrap();
        std::fs::hard_link(deps.join("tool-00ff"), dir.path().join("tool")).unwrap();
        assert_eq!(original_in_deps(&dir.path().join("tool")), Some(deps.join("tool-00ff")));
        // A copy (no hard link) is matched by its contents.
        std::fs::write(dir.path().join("copy"), b"other").unwrap();
        assert_eq!(original_in_deps(&dir.path().join("copy")), Some(deps.join("tool-11ee")));
        assert_eq!(original_in_deps(&deps.join("tool-00ff")), Some(deps.join("tool-00ff")));
    }
}
