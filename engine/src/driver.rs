//! Entry point of the engine for one input file: dispatch on the file kind, run the pipeline
//! for one entry function (`prove_file`) or for every defined function (`prove_all_functions`).

use crate::analysis::{analyze_module, FunctionSelection, ModuleReport};
use crate::config::Config;
use crate::error::EngineError;
use crate::ir::Module;
use crate::verdict::Report;
use std::path::Path;

/// The kinds of input `prove` accepts.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum InputKind {
    C,
    LlvmText,
    LlvmBitcode,
    ItsSmt2,
    ItsKoat,
}

impl InputKind {
    pub fn of(path: &Path) -> Option<InputKind> {
        match path.extension()?.to_str()? {
            "c" | "i" => Some(InputKind::C),
            "ll" => Some(InputKind::LlvmText),
            "bc" => Some(InputKind::LlvmBitcode),
            "smt2" => Some(InputKind::ItsSmt2),
            "koat" => Some(InputKind::ItsKoat),
            _ => None,
        }
    }

    /// Whether the input is an integer transition system (no functions, no memory).
    pub fn is_its(self) -> bool {
        matches!(self, InputKind::ItsSmt2 | InputKind::ItsKoat)
    }
}

/// The input kind of `path` after checking that it names a regular file (see
/// [`check_regular_file`]).
fn input_kind(path: &Path) -> Result<InputKind, EngineError> {
    let shown = path.display().to_string();
    let kind = InputKind::of(path).ok_or(EngineError::UnsupportedExtension { path: shown })?;
    check_regular_file(path)?;
    Ok(kind)
}

/// Checks, from the file's metadata and without opening it (a FIFO would block the open),
/// that `path` names a regular file, following symbolic links. Each problem gets its own
/// message: `no such file`, `permission denied`, `too many levels of symbolic links` (and
/// other operating-system errors in the system's words), or [`EngineError::NotARegularFile`]
/// for directories, FIFOs, sockets and devices.
pub fn check_regular_file(path: &Path) -> Result<(), EngineError> {
    let shown = path.display().to_string();
    let metadata = std::fs::metadata(path).map_err(|e| EngineError::Io { path: shown.clone(), message: io_message(&e) })?;
    let file_type = metadata.file_type();
    if file_type.is_file() {
        return Ok(());
    }
    let what = if file_type.is_dir() {
        "a directory"
    } else {
        special_file_kind(&file_type)
    };
    Err(EngineError::NotARegularFile { path: shown, what: what.to_string() })
}

#[cfg(unix)]
fn special_file_kind(file_type: &std::fs::FileType) -> &'static str {
    use std::os::unix::fs::FileTypeExt;
    if file_type.is_fifo() {
        "a named pipe (FIFO)"
    } else if file_type.is_socket() {
        "a socket"
    } else if file_type.is_char_device() {
        "a character device"
    } else if file_type.is_block_device() {
        "a block device"
    } else {
        "a special file"
    }
}

#[cfg(not(unix))]
fn special_file_kind(_: &std::fs::FileType) -> &'static str {
    "a special file"
}

/// An I/O error in a few words: `no such file`, `permission denied`, otherwise the operating
/// system's message without its `(os error N)` suffix, starting in lower case (e.g. `too many
/// levels of symbolic links` for a symlink loop).
fn io_message(e: &std::io::Error) -> String {
    match e.kind() {
        std::io::ErrorKind::NotFound => "no such file".into(),
        std::io::ErrorKind::PermissionDenied => "permission denied".into(),
        _ => {
            let text = e.to_string();
            let text = match text.rfind(" (os error ") {
                Some(at) if text.ends_with(')') => text[..at].to_string(),
                _ => text,
            };
            let mut chars = text.chars();
            match chars.next() {
                Some(first) => first.to_lowercase().chain(chars).collect(),
                None => "unreadable".into(),
            }
        }
    }
}

/// The text of an ITS file; bytes that are not UTF-8 are a parse error at their line and
/// (byte) column, not an I/O problem.
fn its_text(shown: &str, bytes: Vec<u8>) -> Result<String, EngineError> {
    String::from_utf8(bytes).map_err(|e| {
        let valid = &e.as_bytes()[..e.utf8_error().valid_up_to()];
        let line = valid.iter().filter(|b| **b == b'\n').count() + 1;
        let col = valid.len() - valid.iter().rposition(|b| *b == b'\n').map_or(0, |i| i + 1) + 1;
        let byte = e.as_bytes().get(valid.len()).copied().unwrap_or_default();
        EngineError::ItsParse { path: shown.to_string(), line, col, message: format!("not UTF-8 text (byte 0x{byte:02x})") }
    })
}

/// Proves termination (and, for programs, memory safety) of the file's runs: for programs the
/// runs of the function `entry` (its parameters arbitrary), for ITSs those from the start
/// location (`entry` is not used). The whole analysis ends by `config.timeout()`.
pub fn prove_file(path: &Path, entry: &str, config: &Config) -> Result<Report, EngineError> {
    let shown = path.display().to_string();
    let kind = input_kind(path)?;
    let deadline = std::time::Instant::now() + config.timeout();
    match kind {
        InputKind::ItsSmt2 | InputKind::ItsKoat => {
            let bytes = std::fs::read(path).map_err(|e| EngineError::Io { path: shown.clone(), message: io_message(&e) })?;
            let text = its_text(&shown, bytes)?;
            let its = crate::its::parse_file(&shown, &text, kind == InputKind::ItsKoat)?;
            let budget = crate::smt::Budget::until(deadline, config.termination().query_limit);
            let termination = crate::cancel::scope(config.cancel_token(), || crate::termination::prove_its(&its, &config.termination().shares, &budget));
            Ok(Report { termination, memory_safety: None, stats: vec![] })
        }
        InputKind::C | InputKind::LlvmText | InputKind::LlvmBitcode => {
            let module = load_linked(path, kind, config)?.module;
            let entry = module
                .function_by_name(entry)
                .filter(|f| !module.function(*f).is_declaration())
                .ok_or_else(|| EngineError::MissingEntry { path: shown, name: entry.to_string() })?;
            let facts = crate::facts::ModuleFacts::new(&module);
            let function_deadline = deadline.min(std::time::Instant::now() + config.function_timeout());
            Ok(crate::pipeline::prove_function(&module, &facts, entry, config, function_deadline))
        }
    }
}

/// Loads a program (`.c`, `.i`, `.ll`, `.bc`) as an engine IR module. Integer transition
/// systems have no functions: they give [`EngineError::NotAProgram`].
pub fn load_program(path: &Path) -> Result<Module, EngineError> {
    load_program_with_clang_args(path, &[])
}

/// [`load_program`] with extra clang arguments for C inputs (`prove -I/-D/--clang-arg`).
pub fn load_program_with_clang_args(path: &Path, clang_args: &[String]) -> Result<Module, EngineError> {
    let kind = input_kind(path)?;
    if kind.is_its() {
        return Err(EngineError::NotAProgram { path: path.display().to_string() });
    }
    crate::frontend::load_module_with_clang_args(path, kind, clang_args)
}

/// A program's module with the Rust standard library's definitions it calls linked in
/// (rustc bitcode only; cached where `config` says), and their names.
pub fn load_program_linked(path: &Path, config: &Config) -> Result<crate::frontend::LoadedModule, EngineError> {
    let kind = input_kind(path)?;
    if kind.is_its() {
        return Err(EngineError::NotAProgram { path: path.display().to_string() });
    }
    load_linked(path, kind, config)
}

fn load_linked(path: &Path, kind: InputKind, config: &Config) -> Result<crate::frontend::LoadedModule, EngineError> {
    let std = crate::frontend::std_bitcode::StdBitcodeOptions { cache_dir: config.std_bitcode_cache().map(Path::to_path_buf), disabled: false };
    crate::frontend::load_module_linked(path, kind, config.clang_args(), &std)
}

/// One verdict per defined function of the program in `path` (module order), each function
/// analysed as an entry of its own by [`analyze_module`]. `config.timeout()` limits the
/// analysis after loading (a caller that wants to count the loading time too, like the CLI,
/// calls [`load_program`] and [`analyze_module`] itself with the remaining time).
pub fn prove_all_functions(path: &Path, config: &Config) -> Result<ModuleReport, EngineError> {
    let loaded = load_program_linked(path, config)?;
    Ok(analyze_module(&loaded.module, config, &own_functions(&loaded)))
}

/// Every defined function of a loaded program but the linked std ones (analysed only as
/// callees).
pub fn own_functions(loaded: &crate::frontend::LoadedModule) -> FunctionSelection {
    if loaded.std_functions.is_empty() {
        return FunctionSelection::AllDefined;
    }
    let std: std::collections::HashSet<&str> = loaded.std_functions.iter().map(String::as_str).collect();
    FunctionSelection::Named(loaded.module.functions.iter().filter(|f| !f.is_declaration() && !std.contains(f.name.as_str())).map(|f| f.name.clone()).collect())
}

/// [`prove_file`] with the entry function's report looked up in and stored to `store`
/// (`analysis::analyze_module_with_store`, one selected function on the caller's thread).
/// The report's stats end with the number of functions analysed and reused from the store.
/// ITS inputs are not cached (both counts 0).
pub fn prove_file_with_store(path: &Path, entry: &str, config: &Config, store: &dyn crate::cache::ReportStore) -> Result<Report, EngineError> {
    let (Some(kind @ (InputKind::C | InputKind::LlvmText | InputKind::LlvmBitcode)), true) = (InputKind::of(path), path.is_file()) else {
        return prove_file(path, entry, config);
    };
    let shown = path.display().to_string();
    let module = load_linked(path, kind, config)?.module;
    if module.function_by_name(entry).filter(|f| !module.function(*f).is_declaration()).is_none() {
        return Err(EngineError::MissingEntry { path: shown, name: entry.to_string() });
    }
    let selection = crate::analysis::FunctionSelection::Named(vec![entry.to_string()]);
    let run = crate::analysis::analyze_module_with_store(&module, config, &selection, store);
    let Some(function) = run.functions.into_iter().next() else {
        return Err(EngineError::MissingEntry { path: shown, name: entry.to_string() });
    };
    let mut stats = function.stats;
    stats.push(("functions analysed".into(), run.analysed.to_string()));
    stats.push(("functions reused from cache".into(), run.reused.to_string()));
    Ok(Report { termination: function.termination, memory_safety: Some(function.memory_safety), stats })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::verdict::IntSemantics;
    use std::time::Duration;

    fn message(e: EngineError) -> String {
        e.to_string()
    }

    #[test]
    fn an_its_file_that_is_not_utf8_is_a_parse_error_at_the_bad_byte() {
        let e = its_text("x.koat", b"(GOAL TERMINATION)\n(VAR a\xff)\n".to_vec()).expect_err("not UTF-8");
        assert!(matches!(&e, EngineError::ItsParse { line: 2, col: 7, .. }), "{e:?}");
        assert_eq!(message(e), "x.koat:2:7: not UTF-8 text (byte 0xff)");
        assert_eq!(its_text("y.smt2", b"\x80".to_vec()).map_err(message), Err("y.smt2:1:1: not UTF-8 text (byte 0x80)".to_string()));
        assert_eq!(its_text("z.koat", b"ok\n".to_vec()).ok().as_deref(), Some("ok\n"));
    }

    #[test]
    fn missing_files_directories_and_symlink_loops_get_their_own_messages() {
        let dir = tempfile::tempdir().expect("temp dir");
        let missing = dir.path().join("missing.c");
        assert!(matches!(check_regular_file(&missing), Err(EngineError::Io { message, .. }) if message == "no such file"));
        let sub = dir.path().join("sub.c");
        std::fs::create_dir(&sub).expect("mkdir");
        let e = check_regular_file(&sub).expect_err("a directory");
        assert!(matches!(&e, EngineError::NotARegularFile { what, .. } if what == "a directory"), "{e:?}");
        assert!(message(e).ends_with("it is a directory, not a regular file"));
        #[cfg(unix)]
        {
            let (a, b) = (dir.path().join("a.c"), dir.path().join("b.c"));
            std::os::unix::fs::symlink(&b, &a).expect("symlink");
            std::os::unix::fs::symlink(&a, &b).expect("symlink");
            let e = check_regular_file(&a).expect_err("a loop");
            assert!(matches!(&e, EngineError::Io { message, .. } if message == "too many levels of symbolic links"), "{e:?}");
            // A link to a regular file is followed.
            let file = dir.path().join("f.c");
            std::fs::write(&file, "int main(void) { return 0; }").expect("write");
            let link = dir.path().join("link.c");
            std::os::unix::fs::symlink(&file, &link).expect("symlink");
            assert!(check_regular_file(&link).is_ok());
        }
    }

    #[cfg(unix)]
    #[test]
    fn a_fifo_is_rejected_without_opening_it() {
        let dir = tempfile::tempdir().expect("temp dir");
        let fifo = dir.path().join("pipe.koat");
        let status = std::process::Command::new("mkfifo").arg(&fifo).status().expect("mkfifo runs");
        assert!(status.success());
        // Opening the FIFO for reading would block this test forever (no writer).
        let config = Config::new(IntSemantics::C, Duration::from_secs(5));
        let e = prove_file(&fifo, "main", &config).expect_err("a FIFO");
        assert!(matches!(&e, EngineError::NotARegularFile { what, .. } if what == "a named pipe (FIFO)"), "{e:?}");
    }

    #[test]
    fn all_functions_needs_a_program() {
        let dir = tempfile::tempdir().expect("temp dir");
        for name in ["t.smt2", "t.koat"] {
            let path = dir.path().join(name);
            std::fs::write(&path, "anything").expect("write");
            let config = Config::new(IntSemantics::C, Duration::from_secs(5));
            assert!(matches!(prove_all_functions(&path, &config), Err(EngineError::NotAProgram { .. })), "{name}");
        }
    }

    #[test]
    fn all_functions_reports_every_defined_function_in_module_order() {
        let dir = tempfile::tempdir().expect("temp dir");
        let path = dir.path().join("two.c");
        std::fs::write(&path, "int ext(int);\nunsigned down(unsigned n) { while (n > 0) n--; return n; }\nint main(void) { return 0; }\n")
            .expect("write");
        let config = Config::new(IntSemantics::C, Duration::from_secs(30));
        let report = prove_all_functions(&path, &config).expect("a program");
        let names: Vec<&str> = report.functions.iter().map(|f| f.name.as_str()).collect();
        assert_eq!(names, ["down", "main"]);
        assert_eq!(report.analysed, 2);
    }
}
