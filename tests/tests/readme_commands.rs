//! The README starts with the two commands a new user runs, and CI runs exactly the second one.

use std::path::{Path, PathBuf};

fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().expect("tests/ is inside the repository").to_path_buf()
}

/// The bodies of the first `n` ```sh blocks of a markdown text.
fn sh_blocks(markdown: &str, n: usize) -> Vec<String> {
    let mut blocks = Vec::new();
    let mut current: Option<String> = None;
    for line in markdown.lines() {
        match (&mut current, line.trim()) {
            (None, "```sh") => current = Some(String::new()),
            (Some(body), "```") => {
                blocks.push(body.trim().to_string());
                current = None;
                if blocks.len() == n {
                    break;
                }
            }
            (Some(body), _) => {
                body.push_str(line);
                body.push('\n');
            }
            (None, _) => {}
        }
    }
    blocks
}

#[test]
fn readme_opens_with_the_example_and_the_test_command() {
    let readme = std::fs::read_to_string(repo_root().join("README.md")).expect("README.md");
    let blocks = sh_blocks(&readme, 2);
    assert_eq!(blocks.len(), 2, "README.md must start with two ```sh blocks");
    let first_block_at = readme.find("```sh").unwrap();
    assert!(!readme[..first_block_at].contains("```"), "nothing but prose before the two commands");
    // The first command runs workspace mode on a bundled example workspace.
    assert_eq!(
        blocks[0],
        "bash scripts/setup.sh && cargo run --release -p cargo-termcheck -- termcheck --manifest-path examples/ffi-basic/Cargo.toml"
    );
    assert!(repo_root().join("examples/ffi-basic/Cargo.toml").is_file());
    // The test command checks the no-printing lints (clippy) before running the tests.
    let lints = "cargo clippy --workspace --all-targets -- -D clippy::print_stdout -D clippy::print_stderr";
    assert!(blocks[1].starts_with(&format!("bash scripts/setup.sh && {lints} && cargo test")), "{}", blocks[1]);
}

#[test]
fn ci_runs_exactly_the_readme_test_command() {
    let readme = std::fs::read_to_string(repo_root().join("README.md")).expect("README.md");
    let test_command = sh_blocks(&readme, 2).pop().expect("second command");
    let ci = std::fs::read_to_string(repo_root().join(".ci/run")).expect(".ci/run");
    assert!(ci.starts_with("#!/usr/bin/env bash\n"), "{ci}");
    assert!(ci.contains("set -euo pipefail"), "{ci}");
    let commands: Vec<&str> = ci.lines().filter(|l| !l.trim().is_empty() && !l.starts_with('#')).collect();
    // The README's test command runs as it is (its output teed for the closing summary line).
    let runs = commands.iter().filter(|l| **l == test_command || l.starts_with(&format!("{test_command} 2>&1 | tee "))).count();
    assert_eq!(runs, 1, "exactly one line of .ci/run runs the README test command `{test_command}`:\n{ci}");
    assert!(commands.last().is_some_and(|l| l.contains("passed,") && l.contains("failed")), "the last line prints `N passed, N failed`:\n{ci}");
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(repo_root().join(".ci/run")).unwrap().permissions().mode();
        assert!(mode & 0o111 != 0, ".ci/run must be executable");
    }
}

#[test]
fn readme_links_point_to_existing_or_announced_files() {
    let readme = std::fs::read_to_string(repo_root().join("README.md")).expect("README.md");
    // Written by other owners in parallel; every other link must resolve now.
    let announced = ["BENCHMARKS.md", "engine/src/interp/SEMANTICS.md"];
    for part in readme.split("](").skip(1) {
        let target = part.split(')').next().unwrap_or("");
        if target.starts_with("http") || announced.contains(&target) {
            continue;
        }
        assert!(repo_root().join(target).exists(), "README links to missing {target}");
    }
}
