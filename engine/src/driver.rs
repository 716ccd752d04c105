//! Entry point of the engine for one input file: dispatch on the file kind, run the pipeline.

use crate::config::Config;
use crate::error::EngineError;
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
}

/// Proves termination (and, for programs, memory safety) of the file's runs: for programs the
/// runs of the function `entry` (its parameters arbitrary), for ITSs those from the start
/// location (`entry` is not used). The whole analysis ends by `config.timeout()`.
pub fn prove_file(path: &Path, entry: &str, config: &Config) -> Result<Report, EngineError> {
    let shown = path.display().to_string();
    let kind = InputKind::of(path).ok_or_else(|| EngineError::UnsupportedExtension { path: shown.clone() })?;
    if !path.is_file() {
        return Err(EngineError::Io { path: shown, message: "no such file".into() });
    }
    let deadline = std::time::Instant::now() + config.timeout();
    match kind {
        InputKind::ItsSmt2 | InputKind::ItsKoat => {
            let text = std::fs::read_to_string(path)
                .map_err(|e| EngineError::Io { path: shown.clone(), message: e.to_string() })?;
            let its = crate::its::parse_file(&shown, &text, kind == InputKind::ItsKoat)?;
            let budget = crate::smt::Budget::until(deadline, config.termination().query_limit);
            let termination = crate::termination::prove_its(&its, &config.termination().shares, &budget);
            Ok(Report { termination, memory_safety: None, stats: vec![] })
        }
        InputKind::C | InputKind::LlvmText | InputKind::LlvmBitcode => {
            let module = crate::frontend::load_module(path, kind)?;
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

/// [`prove_file`] with the entry function's report looked up in and stored to `store`
/// (`analysis::analyze_module_with_store`, one selected function on the caller's thread).
/// The report's stats end with the number of functions analysed and reused from the store.
/// ITS inputs are not cached (both counts 0).
pub fn prove_file_with_store(path: &Path, entry: &str, config: &Config, store: &dyn crate::cache::ReportStore) -> Result<Report, EngineError> {
    let (Some(kind @ (InputKind::C | InputKind::LlvmText | InputKind::LlvmBitcode)), true) = (InputKind::of(path), path.is_file()) else {
        return prove_file(path, entry, config);
    };
    let shown = path.display().to_string();
    let module = crate::frontend::load_module(path, kind)?;
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
