//! Why a single operation could not produce a value: a real violation of the program's
//! semantics, or a limit of the interpreter (which never becomes a verdict).

/// Violation kinds reported by the interpreter (stable strings, used in verdicts).
pub mod kind {
    pub const INVALID_READ: &str = "invalid-read";
    pub const INVALID_WRITE: &str = "invalid-write";
    pub const NULL_DEREFERENCE: &str = "null-dereference";
    pub const USE_AFTER_FREE: &str = "use-after-free";
    pub const INVALID_FREE: &str = "invalid-free";
    pub const DOUBLE_FREE: &str = "double-free";
    pub const UNDEFINED_BEHAVIOUR: &str = "undefined-behaviour";
}

/// The failure of one operation.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum Fault {
    /// The program really does something invalid here (the run is a witness).
    Violation { kind: &'static str, message: String },
    /// The interpreter cannot be exact here; the run proves nothing.
    Unsupported(String),
    /// `__VERIFIER_assume(0)`: the run is not a run of the program.
    Blocked,
    /// `abort`, `exit`, `__VERIFIER_error`, ...: the program stops.
    Exited(String),
    /// The input source refused to give another value.
    InputsExhausted,
}

impl Fault {
    pub fn ub(message: impl Into<String>) -> Fault {
        Fault::Violation { kind: kind::UNDEFINED_BEHAVIOUR, message: message.into() }
    }
    pub fn unsupported(message: impl Into<String>) -> Fault {
        Fault::Unsupported(message.into())
    }
}
