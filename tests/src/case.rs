//! Discovery of the data-driven cases under `tests/cases/`.

use std::path::{Path, PathBuf};

/// `--timeout` the harness adds to `prove` cases that set none, so that a regression that makes
/// the engine slow costs the suite 20 s per case, not the default 60.
pub const CASE_TIMEOUT_SECS: &str = "20";

/// Extensions of files that describe a case rather than being its input.
const SIDE_FILES: &[&str] = &["expected", "args", "md"];

/// One end-to-end case: a command line run from `dir` and the file with its expected output.
#[derive(Clone, Debug)]
pub struct Case {
    /// Path relative to the cases folder without extension, e.g. `programs/list-free`.
    pub name: String,
    /// Folder the binary runs in (paths in arguments are relative to it).
    pub dir: PathBuf,
    /// Arguments after the binary's name.
    pub args: Vec<String>,
    /// `NAME.expected` (may not exist yet: then only bless mode can pass).
    pub expected_path: PathBuf,
    /// Whether the input is an integer transition system (no memory-safety line).
    pub is_its: bool,
    /// Whether the run is `prove --all-functions` (one block per function, then a summary).
    pub all_functions: bool,
}

/// Reads `NAME.args`: one argument per line, surrounding whitespace and empty lines ignored.
fn read_args(path: &Path) -> Vec<String> {
    std::fs::read_to_string(path)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()))
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .map(String::from)
        .collect()
}

fn is_its_path(p: &str) -> bool {
    p.ends_with(".smt2") || p.ends_with(".koat")
}

fn collect(root: &Path, dir: &Path, out: &mut Vec<Case>) {
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("cannot list {}: {e}", dir.display()))
        .map(|e| e.expect("directory entry").path())
        .collect();
    entries.sort();
    for path in &entries {
        if path.is_dir() {
            collect(root, path, out);
            continue;
        }
        let ext = path.extension().and_then(|e| e.to_str()).unwrap_or("");
        let stem = path.file_stem().and_then(|s| s.to_str()).expect("UTF-8 file name");
        let args_path = dir.join(format!("{stem}.args"));
        let args = if ext == "args" {
            // An args file is a case of its own only when no input file shares its stem.
            let has_input = entries.iter().any(|p| {
                p != path
                    && p.file_stem().and_then(|s| s.to_str()) == Some(stem)
                    && !SIDE_FILES.contains(&p.extension().and_then(|e| e.to_str()).unwrap_or(""))
            });
            if has_input {
                continue;
            }
            read_args(path)
        } else if SIDE_FILES.contains(&ext) {
            continue;
        } else {
            let file_name = path.file_name().and_then(|s| s.to_str()).expect("UTF-8 file name");
            let mut args = vec!["prove".to_string(), file_name.to_string()];
            if args_path.is_file() {
                args.extend(read_args(&args_path));
            }
            args
        };
        let mut args = args;
        if args.first().is_some_and(|a| a == "prove") && !args.iter().any(|a| a == "--timeout") {
            args.extend(["--timeout".to_string(), CASE_TIMEOUT_SECS.to_string()]);
        }
        let relative = dir.strip_prefix(root).expect("inside the cases folder").join(stem);
        let is_its = args.iter().any(|a| is_its_path(a));
        let all_functions = args.iter().any(|a| a == "--all-functions");
        out.push(Case {
            name: relative.to_string_lossy().replace('\\', "/"),
            dir: dir.to_path_buf(),
            args,
            expected_path: dir.join(format!("{stem}.expected")),
            is_its,
            all_functions,
        });
    }
}

/// All cases under `root`, sorted by name. Panics when two inputs share a name (e.g. `a.c` and
/// `a.ll`), since they would share one expected file.
pub fn discover_cases(root: &Path) -> Vec<Case> {
    let mut out = Vec::new();
    collect(root, root, &mut out);
    out.sort_by(|a, b| a.name.cmp(&b.name));
    if let Some(pair) = out.windows(2).find(|w| w[0].name == w[1].name) {
        panic!("two cases named {}: give the inputs different file stems", pair[0].name);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn inputs_args_and_args_only_cases_are_found() {
        let dir = tempfile::tempdir().unwrap();
        let d = dir.path();
        std::fs::create_dir(d.join("sub")).unwrap();
        std::fs::write(d.join("sub/a.c"), "").unwrap();
        std::fs::write(d.join("sub/a.args"), "--entry\n f \n\n").unwrap();
        std::fs::write(d.join("sub/a.expected"), "").unwrap();
        std::fs::write(d.join("sub/b.args"), "prove\nx.koat\n--timeout\n5\n").unwrap();
        std::fs::write(d.join("sub/c.args"), "").unwrap();
        std::fs::write(d.join("README.md"), "").unwrap();
        let cases = discover_cases(d);
        let names: Vec<_> = cases.iter().map(|c| c.name.as_str()).collect();
        assert_eq!(names, ["sub/a", "sub/b", "sub/c"]);
        assert_eq!(cases[0].args, ["prove", "a.c", "--entry", "f", "--timeout", "20"]);
        assert!(!cases[0].is_its);
        assert_eq!(cases[1].args, ["prove", "x.koat", "--timeout", "5"]);
        assert!(cases[2].args.is_empty());
        assert!(cases[1].is_its);
        assert!(cases.iter().all(|c| !c.all_functions));
        assert_eq!(cases[0].expected_path, d.join("sub/a.expected"));
    }

    #[test]
    #[should_panic(expected = "two cases named x")]
    fn inputs_sharing_a_stem_are_rejected() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("x.c"), "").unwrap();
        std::fs::write(dir.path().join("x.ll"), "").unwrap();
        discover_cases(dir.path());
    }
}
