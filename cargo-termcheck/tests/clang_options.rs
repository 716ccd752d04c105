//! `prove -I DIR -D NAME[=VAL] --clang-arg ARG`: the options reach clang and change the program.

use std::path::Path;
use std::time::Duration;
use termcheck_tests::{run_binary, Run};

/// A program that needs a header from `inc/` and whose loop terminates only when `STEP` is
/// defined to a positive value.
fn program_dir() -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("temp dir");
    std::fs::create_dir(dir.path().join("inc")).expect("mkdir");
    std::fs::write(dir.path().join("inc/step.h"), "#ifndef STEP\n#define STEP 0\n#endif\nstatic const int step = STEP;\n").expect("write");
    std::fs::write(
        dir.path().join("loop.c"),
        "#include \"step.h\"\nint main(void) {\n  int x = 10;\n  while (x > 0) { x -= step; }\n  return 0;\n}\n",
    )
    .expect("write");
    dir
}

fn run(dir: &Path, extra: &[&str]) -> Run {
    let mut args: Vec<String> = ["prove", "loop.c", "--timeout", "30", "--no-cache"].iter().map(|s| s.to_string()).collect();
    args.extend(extra.iter().map(|s| s.to_string()));
    run_binary(Path::new(env!("CARGO_BIN_EXE_cargo-termcheck")), dir, &args, Duration::from_secs(60))
}

#[test]
fn without_the_include_directory_clang_fails() {
    let dir = program_dir();
    let r = run(dir.path(), &[]);
    assert_eq!(r.code, Some(2), "{r:?}");
    assert!(r.stderr.contains("step.h"), "{r:?}");
}

#[test]
fn include_directory_and_defines_reach_clang() {
    let dir = program_dir();
    // STEP defaults to 0 in the header: the loop never ends.
    let r = run(dir.path(), &["-I", "inc"]);
    assert_eq!(r.stdout.lines().next(), Some("NO"), "{r:?}");
    let r = run(dir.path(), &["-Iinc", "-D", "STEP=2"]);
    assert_eq!(r.stdout.lines().next(), Some("YES"), "{r:?}");
    // --clang-arg passes anything, e.g. another -D (later definitions win in clang).
    let r = run(dir.path(), &["--clang-arg=-Iinc", "-DSTEP=0", "--clang-arg", "-USTEP", "--clang-arg", "-DSTEP=1"]);
    assert_eq!(r.stdout.lines().next(), Some("YES"), "{r:?}");
}
