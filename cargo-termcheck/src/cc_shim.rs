//! The C-compiler role (`CC_<target>` during workspace mode's build, a build-integration tool
//! of the CLI: the engine's front end never sees these invocations). The `cc` crate runs it like
//! a compiler; it runs clang-22 with the same arguments, so the object, the archive and the
//! build behave as with a plain clang. For a compile of one C source to an object (`-c … -o
//! X.o file.c`) it runs clang-22 a second time to write the analysis bitcode `X.o.bc` beside the
//! object, at -O0 without `optnone`, with debug info and without the finite-loop assumption (the
//! flags of the engine's own C front end; a later `-O0` overrides cc's optimisation level, so no
//! pass that exploits undefined behaviour runs). Preprocessing (`-E`, cc's compiler-family
//! probe), linking, version queries and anything else pass straight through.
//!
//! A failing bitcode compile never fails the build: its diagnostics are written to
//! `X.o.bc.err` and workspace mode lists the object as not analysed. Probes the `cc` crate
//! compiles to objects also get bitcode; workspace mode keeps only the bitcode of objects that
//! ended up in an archive (`workspace::c_bitcode`).

use crate::tool_role::{exit_code_of, run_inherited, CLANG_ENV};
use std::ffi::{OsStr, OsString};
use std::path::PathBuf;
use std::process::Command;

/// Flags of the bitcode compile, appended after cc's (later flags win).
const BITCODE_FLAGS: &[&str] =
    &["-emit-llvm", "-O0", "-g", "-Xclang", "-disable-O0-optnone", "-fno-finite-loops", "-fno-discard-value-names"];

/// Suffix of the bitcode file beside an object.
pub const BITCODE_SUFFIX: &str = ".bc";
/// Suffix of the diagnostics of a failed bitcode compile beside an object.
pub const BITCODE_ERROR_SUFFIX: &str = ".bc.err";

/// Options whose value is the next argument (among those a C compile for cc may carry).
const OPTIONS_WITH_VALUE: &[&str] = &["-o", "-MF", "-MT", "-MQ", "-include", "-x", "-Xclang", "-I", "-isystem", "-iquote", "-idirafter", "-target", "-arch"];

/// Runs clang-22 as the C compiler; see the module documentation.
pub fn run(args: &[OsString]) -> i32 {
    let clang = std::env::var_os(CLANG_ENV).filter(|c| !c.is_empty()).unwrap_or_else(|| OsString::from("clang-22"));
    let code = run_inherited(&clang, args);
    if code != 0 {
        return code;
    }
    if let Some(object) = compiled_object(args) {
        write_bitcode(&clang, args, &object);
    }
    0
}

/// The object file of a compile of exactly one C source (`-c`, `-o X`, no preprocess-only or
/// assembly-only mode), else `None`.
fn compiled_object(args: &[OsString]) -> Option<PathBuf> {
    let text: Vec<&str> = args.iter().map(|a| a.to_str()).collect::<Option<_>>()?;
    if !text.contains(&"-c") || text.iter().any(|a| ["-E", "-S", "-M", "-MM", "-fsyntax-only", "-###", "-emit-llvm"].contains(a)) {
        return None;
    }
    let mut object = None;
    let mut sources = 0;
    let mut i = 0;
    while i < text.len() {
        let arg = text[i];
        if arg == "-o" {
            object = text.get(i + 1).map(PathBuf::from);
        } else if let Some(joined) = arg.strip_prefix("-o").filter(|_| !arg.starts_with("-objc")) {
            object = Some(PathBuf::from(joined));
        } else if !arg.starts_with('-') && arg.ends_with(".c") {
            sources += 1;
        }
        i += if OPTIONS_WITH_VALUE.contains(&arg) { 2 } else { 1 };
    }
    (sources == 1).then_some(object).flatten()
}

/// The bitcode compile's arguments: cc's, without the output, dependency-file, LTO and
/// bitcode-embedding options, then `BITCODE_FLAGS` and `-o bitcode`.
fn bitcode_args(args: &[OsString], bitcode: &OsStr) -> Vec<OsString> {
    let mut out = Vec::with_capacity(args.len() + BITCODE_FLAGS.len() + 2);
    let mut i = 0;
    while i < args.len() {
        let arg = args[i].to_str().unwrap_or("");
        let drops_next = matches!(arg, "-o" | "-MF" | "-MT" | "-MQ");
        let drops_self = drops_next
            || matches!(arg, "-MD" | "-MMD" | "-save-temps")
            || arg.starts_with("-flto")
            || arg.starts_with("-fembed-bitcode")
            || (arg.starts_with("-o") && arg.len() > 2 && !arg.starts_with("-objc"));
        if !drops_self {
            out.push(args[i].clone());
        }
        i += if drops_next { 2 } else { 1 };
    }
    out.extend(BITCODE_FLAGS.iter().map(OsString::from));
    out.push("-o".into());
    out.push(bitcode.to_os_string());
    out
}

/// Writes `object.bc` (or `object.bc.err` with clang's diagnostics when that compile fails).
fn write_bitcode(clang: &OsStr, args: &[OsString], object: &std::path::Path) {
    let with_suffix = |suffix: &str| {
        let mut path = object.as_os_str().to_os_string();
        path.push(suffix);
        PathBuf::from(path)
    };
    let (bitcode, error_file) = (with_suffix(BITCODE_SUFFIX), with_suffix(BITCODE_ERROR_SUFFIX));
    let _ = std::fs::remove_file(&bitcode);
    let _ = std::fs::remove_file(&error_file);
    let failure = match Command::new(clang).args(bitcode_args(args, bitcode.as_os_str())).output() {
        Ok(output) if output.status.success() => return,
        Ok(output) => format!("clang exited with {}: {}", exit_code_of(output.status), String::from_utf8_lossy(&output.stderr)),
        Err(e) => format!("cannot run {}: {e}", std::path::Path::new(clang).display()),
    };
    let _ = std::fs::remove_file(&bitcode);
    let _ = std::fs::write(&error_file, failure);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn os(args: &[&str]) -> Vec<OsString> {
        args.iter().map(OsString::from).collect()
    }

    /// The shape of the `cc` crate's compile command.
    const CC_COMPILE: &[&str] = &[
        "-O2", "-ffunction-sections", "-fPIC", "-g", "-m64", "--target=x86_64-unknown-linux-gnu", "-I", "include", "-Wall",
        "-o", "/out/abc-ops.o", "-c", "csrc/ops.c",
    ];

    #[test]
    fn a_c_compile_names_its_object() {
        assert_eq!(compiled_object(&os(CC_COMPILE)), Some(PathBuf::from("/out/abc-ops.o")));
        assert_eq!(compiled_object(&os(&["-c", "-o/out/x.o", "x.c"])), Some(PathBuf::from("/out/x.o")));
    }

    #[test]
    fn other_invocations_pass_through_without_bitcode() {
        for args in [
            &["-E", "/tmp/detect_compiler_family.c"][..],
            &["--version"][..],
            &["-o", "/out/x.o", "x.c"][..],              // no -c: a link
            &["-c", "-o", "/out/x.o", "x.cpp"][..],     // not C
            &["-c", "-o", "/out/x.o", "a.c", "b.c"][..], // two sources
            &["-c", "-S", "-o", "/out/x.s", "x.c"][..],
            &["-c", "x.c"][..],                         // no -o
        ] {
            assert_eq!(compiled_object(&os(args)), None, "{args:?}");
        }
        // The value of -I is not a source even when it ends in .c.
        assert_eq!(compiled_object(&os(&["-I", "dir.c", "-c", "-o", "x.o", "x.c"])), Some(PathBuf::from("x.o")));
    }

    #[test]
    fn bitcode_flags_replace_output_dependency_and_lto_options() {
        let mut args = os(CC_COMPILE);
        args.extend(os(&["-MD", "-MF", "/out/x.d", "-flto=thin"]));
        let out = bitcode_args(&args, OsStr::new("/out/abc-ops.o.bc"));
        let text: Vec<&str> = out.iter().map(|a| a.to_str().unwrap()).collect();
        assert!(!text.contains(&"/out/abc-ops.o") && !text.contains(&"/out/x.d") && !text.contains(&"-MD"), "{text:?}");
        assert!(!text.iter().any(|a| a.starts_with("-flto")), "{text:?}");
        assert_eq!(&text[text.len() - 2..], ["-o", "/out/abc-ops.o.bc"]);
        // -O0 comes after cc's -O2, so it wins.
        let o2 = text.iter().position(|a| *a == "-O2").unwrap();
        let o0 = text.iter().position(|a| *a == "-O0").unwrap();
        assert!(o0 > o2 && text.contains(&"-emit-llvm") && text.contains(&"-disable-O0-optnone"), "{text:?}");
        assert!(text.contains(&"csrc/ops.c") && text.contains(&"-c"));
    }
}
