//! The build-tool roles of the real binary, chosen by the name it runs under: the rustc
//! wrapper (adds bitcode output for members, chains the user's wrapper) and the C shim (the
//! object as clang makes it, plus `X.o.bc`; `-E` passes through).

use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::Command;

/// A link to the binary under `name` in `dir`.
fn tool(dir: &Path, name: &str) -> PathBuf {
    let link = dir.join(name);
    std::os::unix::fs::symlink(env!("CARGO_BIN_EXE_cargo-termcheck"), &link).expect("symlink");
    link
}

/// An executable shell script that appends its name and arguments to `log`, then runs them.
fn recorder(dir: &Path, name: &str, log: &Path, run_rest: bool) -> PathBuf {
    let path = dir.join(name);
    let tail = if run_rest { "exec \"$@\"\n" } else { "exit 0\n" };
    std::fs::write(&path, format!("#!/bin/sh\necho \"{name} $*\" >> {}\n{tail}", log.display())).unwrap();
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    path
}

#[test]
fn the_rustc_wrapper_adds_bitcode_for_members_only_and_chains_the_users_wrapper() {
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("log");
    let wrapper = tool(dir.path(), "termcheck-rustc-wrapper");
    let rustc = recorder(dir.path(), "fake-rustc", &log, false);
    let user = recorder(dir.path(), "user-wrapper", &log, true);
    let member = dir.path().join("member");
    let args = ["--crate-name", "m", "--crate-type", "lib", "--emit=dep-info,metadata,link", "--target", "x86_64-unknown-linux-gnu"];
    for (manifest_dir, chained) in [(member.clone(), true), (dir.path().join("dependency"), false)] {
        let mut command = Command::new(&wrapper);
        command.arg(&rustc).args(args).env("TERMCHECK_MEMBER_DIRS", &member).env("CARGO_MANIFEST_DIR", &manifest_dir);
        if chained {
            command.env("TERMCHECK_CHAINED_RUSTC_WRAPPER", &user);
        } else {
            command.env_remove("TERMCHECK_CHAINED_RUSTC_WRAPPER");
        }
        assert!(command.status().unwrap().success());
    }
    let lines: Vec<String> = std::fs::read_to_string(&log).unwrap().lines().map(str::to_string).collect();
    assert_eq!(lines.len(), 3, "{lines:?}");
    assert!(lines[0].starts_with("user-wrapper ") && lines[0].contains("fake-rustc"), "{lines:?}");
    assert!(lines[1].starts_with("fake-rustc ") && lines[1].contains("--emit=dep-info,metadata,link,llvm-bc"), "{lines:?}");
    assert!(lines[2].starts_with("fake-rustc ") && lines[2].contains("--emit=dep-info,metadata,link ") && !lines[2].contains("llvm-bc"), "{lines:?}");
}

#[test]
fn the_c_shim_writes_the_object_and_its_bitcode_and_passes_preprocessing_through() {
    let clang = ["/usr/bin/clang-22", "/usr/lib/llvm-22/bin/clang"].into_iter().map(PathBuf::from).find(|p| p.is_file()).expect("clang-22 (scripts/setup.sh)");
    let dir = tempfile::tempdir().unwrap();
    let shim = tool(dir.path(), "termcheck-cc");
    let source = dir.path().join("ops.c");
    std::fs::write(&source, "int twice(int x) { return 2 * x; }\n").unwrap();
    let object = dir.path().join("h-ops.o");
    let status = Command::new(&shim)
        .args(["-O2", "-fPIC", "-o"])
        .arg(&object)
        .arg("-c")
        .arg(&source)
        .env("TERMCHECK_CLANG", &clang)
        .status()
        .unwrap();
    assert!(status.success());
    assert!(object.is_file());
    let bitcode = std::fs::read(dir.path().join("h-ops.o.bc")).expect("bitcode beside the object");
    assert_eq!(&bitcode[..4], b"BC\xC0\xDE");
    // Preprocessing (the cc crate's compiler-family probe) passes through, without bitcode.
    let out = Command::new(&shim).arg("-E").arg(&source).env("TERMCHECK_CLANG", &clang).output().unwrap();
    assert!(out.status.success() && String::from_utf8_lossy(&out.stdout).contains("twice"));
    // A failing compile fails like clang, and writes nothing.
    std::fs::write(&source, "int broken( {\n").unwrap();
    std::fs::remove_file(&object).unwrap();
    let out = Command::new(&shim).arg("-o").arg(&object).arg("-c").arg(&source).env("TERMCHECK_CLANG", &clang).output().unwrap();
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("error"), "clang's diagnostics reach the caller");
    assert!(!object.exists());
}
