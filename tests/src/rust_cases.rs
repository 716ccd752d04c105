//! Rust cases: `NAME.rs` under `tests/cases/` is compiled at test time by `rustc` (the one
//! cargo runs the tests with, or `$RUSTC`) with exactly the flags termcheck documents for
//! Rust bitcode, `--crate-type=lib --emit=llvm-bc -C codegen-units=1 -C
//! symbol-mangling-version=v0 -g`, into a temporary folder; the case then runs on that `.bc`.
//! rustc runs in the case's folder with the file's own name, so debug locations read
//! `NAME.rs:LINE` as in the source.

use crate::Case;
use std::path::PathBuf;
use std::process::Command;

/// The flags every Rust case is compiled with.
pub const RUSTC_FLAGS: &[&str] =
    &["--crate-type=lib", "--emit=llvm-bc", "-C", "codegen-units=1", "-C", "symbol-mangling-version=v0", "-g"];

/// A case whose input was compiled to bitcode, and the folder holding it (removed on drop).
pub struct Compiled {
    pub case: Case,
    pub _dir: Option<tempfile::TempDir>,
}

/// `case` itself if its input is not a `.rs` file; else the case run on the compiled bitcode
/// (the `.rs` argument replaced by the `.bc` path). Panics when rustc fails: a Rust case that
/// does not compile is a broken test.
pub fn compiled(case: &Case) -> Compiled {
    let Some(pos) = case.args.iter().position(|a| a.ends_with(".rs")) else {
        return Compiled { case: case.clone(), _dir: None };
    };
    let source = case.args[pos].clone();
    let dir = tempfile::tempdir().expect("temporary folder for rustc output");
    let bc: PathBuf = dir.path().join(source.trim_end_matches(".rs")).with_extension("bc");
    let rustc = std::env::var("RUSTC").unwrap_or_else(|_| "rustc".into());
    let out = Command::new(&rustc)
        .args(RUSTC_FLAGS)
        .arg(&source)
        .arg("-o")
        .arg(&bc)
        .current_dir(&case.dir)
        .output()
        .unwrap_or_else(|e| panic!("cannot run {rustc}: {e}"));
    assert!(out.status.success(), "{}: rustc failed:\n{}", case.name, String::from_utf8_lossy(&out.stderr));
    let mut case = case.clone();
    case.args[pos] = bc.to_string_lossy().into_owned();
    Compiled { case, _dir: Some(dir) }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rust_sources_are_compiled_and_other_inputs_kept() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("k.rs"), "#[no_mangle] pub fn k(x: u32) -> u32 { x / 2 }\n").unwrap();
        let case = |args: &[&str]| Case {
            name: "k".into(),
            dir: dir.path().to_path_buf(),
            args: args.iter().map(|a| a.to_string()).collect(),
            expected_path: dir.path().join("k.expected"),
            is_its: false,
            all_functions: false,
        };
        let c = compiled(&case(&["prove", "k.rs", "--timeout", "20"]));
        let bc = PathBuf::from(&c.case.args[1]);
        assert!(bc.is_absolute() && bc.extension().is_some_and(|e| e == "bc"), "{bc:?}");
        assert!(std::fs::read(&bc).unwrap().starts_with(b"BC"), "LLVM bitcode magic");
        assert_eq!(c.case.args[2..], ["--timeout", "20"]);
        let kept = compiled(&case(&["prove", "k.c"]));
        assert_eq!(kept.case.args, ["prove", "k.c"]);
        assert!(kept._dir.is_none());
    }
}
