//! Front end: C → clang-22 → LLVM → the engine's IR. The only module that touches inkwell or runs clang.
//! (Placeholder until the front end lands.)

use crate::driver::InputKind;
use crate::error::EngineError;
use std::path::Path;

/// Loads a `.c`, `.ll` or `.bc` file as an engine IR module.
pub fn load_module(path: &Path, _kind: InputKind) -> Result<crate::ir::Module, EngineError> {
    Err(EngineError::Toolchain { message: format!("front end not built yet ({})", path.display()) })
}
