//! Every stable diagnostic code of termcheck with a paragraph each: the text of
//! `cargo termcheck explain CODE`. Codes never change meaning; new ones are only added.

use super::check::Check;

/// One stable code and its explanation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CodeExplanation {
    pub code: &'static str,
    pub title: &'static str,
    pub explanation: &'static str,
}

/// The table of codes: input errors of the engine, policy file errors, and the policy's checks
/// (whose codes are `Check::code`).
pub const CODES: &[CodeExplanation] = &[
    CodeExplanation {
        code: "termcheck::io",
        title: "the input file does not exist or cannot be read",
        explanation: "The file given to `prove` could not be read. The message says which problem it was: no such file, permission denied, a symbolic-link loop, or the operating system's own message. Nothing was analysed; the exit code is 2.",
    },
    CodeExplanation {
        code: "termcheck::input::extension",
        title: "unsupported input file extension",
        explanation: "termcheck decides how to read a file by its extension: `.c` and `.i` are C, `.ll` and `.bc` LLVM, `.smt2` and `.koat` integer transition systems. Rename the file or convert it to one of these formats.",
    },
    CodeExplanation {
        code: "termcheck::input::not_a_file",
        title: "the input is not a regular file",
        explanation: "The path names a directory, a FIFO, a socket or a device. termcheck reads regular files only and checks the file type before opening it, so a FIFO never blocks the run.",
    },
    CodeExplanation {
        code: "termcheck::input::entry",
        title: "the entry function is not defined",
        explanation: "The function named by `--entry` (default `main`) is not defined in the input. Pass `--entry` with a function that has a body in the file, or use `--all-functions` to analyse every defined function.",
    },
    CodeExplanation {
        code: "termcheck::input::not_a_program",
        title: "a mode for programs was used on an integer transition system",
        explanation: "`--all-functions` analyses the functions of a C or LLVM program; an integer transition system (`.smt2`, `.koat`) has no functions. Run `prove` on it without `--all-functions`.",
    },
    CodeExplanation {
        code: "termcheck::frontend::clang",
        title: "clang-22 rejected the C file",
        explanation: "The C file did not compile. clang-22's own diagnostics are shown in the help text; fix the file (or its include paths) and run again.",
    },
    CodeExplanation {
        code: "termcheck::frontend::llvm",
        title: "the LLVM IR could not be parsed or verified",
        explanation: "The `.ll` or `.bc` file is malformed, fails LLVM's verifier, or was produced by an LLVM other than 22 (bitcode of another major version cannot be read). Regenerate it with clang-22 or the pinned rustc.",
    },
    CodeExplanation {
        code: "termcheck::frontend::toolchain",
        title: "clang-22 or LLVM 22 is missing",
        explanation: "termcheck needs clang-22 to compile C and links LLVM 22. Run `scripts/setup.sh` to install them (it is idempotent).",
    },
    CodeExplanation {
        code: "termcheck::its::parse",
        title: "malformed integer transition system",
        explanation: "The `.smt2` (T2 format) or `.koat` file could not be parsed; the message gives line and column. Also reported: integer literals beyond 128 bits, a KoAT start symbol that occurs in no rule, a KoAT symbol used with two arities.",
    },
    CodeExplanation {
        code: "termcheck::config::read",
        title: "the policy file cannot be read",
        explanation: "The termcheck.toml named by `--config` (or found next to the workspace) could not be read. With `--config PATH` the file must exist; without it, a missing file simply means the default policy. Exit code 2.",
    },
    CodeExplanation {
        code: "termcheck::config::ambiguous",
        title: "more than one policy file in one directory",
        explanation: "A directory holds more than one of `termcheck.toml`, `.termcheck.toml` and `.cargo/termcheck.toml`. termcheck does not guess which one is meant: delete all but one, or name one with `--config PATH`.",
    },
    CodeExplanation {
        code: "termcheck::config::syntax",
        title: "termcheck.toml is not valid TOML",
        explanation: "The policy file could not be parsed as TOML; the diagnostic points at the offending place. See https://toml.io for the syntax and docs/policy.md for the keys.",
    },
    CodeExplanation {
        code: "termcheck::config::unknown_key",
        title: "a key termcheck.toml does not have",
        explanation: "Every table of termcheck.toml accepts a fixed set of keys (docs/policy.md); anything else, often a typo such as `non-terminaton`, is an error rather than being ignored, so that a policy never silently means less than it says. The message lists the keys expected at that place.",
    },
    CodeExplanation {
        code: "termcheck::config::missing_key",
        title: "a required key is missing",
        explanation: "An `[[allow]]` entry needs `function` and `reason`: a suppression without a reason cannot be reviewed. A `[[scope]]` needs `crate`, `files` or both. A `[[timeout]]` needs `function` and `seconds`.",
    },
    CodeExplanation {
        code: "termcheck::config::invalid_value",
        title: "a value of the wrong kind",
        explanation: "A level other than `deny`, `warn` or `allow`; a check name that does not exist; an empty reason; an invalid glob; a time limit that is not a positive number of seconds; `unused-allow` set in a scope or listed in an allow entry; a `version` other than 1. The diagnostic points at the value.",
    },
    CodeExplanation {
        code: "termcheck::annotation::invalid",
        title: "a source annotation cannot be read",
        explanation: "A `termcheck:` annotation in the bitcode (from `termcheck.h`'s TERMCHECK_ALLOW/TERMCHECK_ASSUME_TERMINATES or a hand-written `annotate(\"termcheck:...\")`) names no known kind, lists a check that does not exist or `unused-allow`, or has an empty reason. The Rust attributes check this when the crate compiles; C strings are only checked here. The text must be `termcheck:assume_terminates:REASON` or `termcheck:allow:CHECK,CHECK:REASON` (docs/annotations.md). Exit code 2.",
    },
    CodeExplanation {
        code: "termcheck::check::non_termination",
        title: "non-termination proven",
        explanation: "The engine found a run of the function that never ends and replayed it on the concrete interpreter: a witness, not a guess. The report shows the inputs and the repeating part. Default level: deny. A function that is meant to run forever (an event loop, a server) can be allowed with an `[[allow]]` entry and a reason.",
    },
    CodeExplanation {
        code: "termcheck::check::termination_unproven",
        title: "termination neither proved nor disproved",
        explanation: "The engine could prove neither that every run ends nor that some run does not (MAYBE). The reason names the loop, call or construct that blocked the proof. This is not evidence of a bug. Default level: warn; set `termination-unproven = \"deny\"` to require proofs.",
    },
    CodeExplanation {
        code: "termcheck::check::memory_safety_violated",
        title: "memory-safety violation found",
        explanation: "A run of the function reads, writes or frees memory it must not (out of bounds, null, after free, twice) and the run was replayed concretely. The report gives the kind, the place and the inputs. Default level: deny.",
    },
    CodeExplanation {
        code: "termcheck::check::memory_safety_unproven",
        title: "memory safety neither proved nor disproved",
        explanation: "The engine could not show that every memory access of the function is valid, nor find a run where one is not. A reason that says \"possible undefined behaviour\" also lands here: such a run was not replayed. Default level: warn.",
    },
    CodeExplanation {
        code: "termcheck::check::undefined_behaviour",
        title: "undefined behaviour found",
        explanation: "A replayed run of the function has undefined behaviour (violation kind `undefined-behaviour`: signed overflow under `--int-semantics c`, division by zero, reaching `unreachable`, poison used as a branch condition or address, …; engine/src/interp/SEMANTICS.md). Default level: deny.",
    },
    CodeExplanation {
        code: "termcheck::check::timeout",
        title: "the analysis ran out of time",
        explanation: "The function's analysis hit its time limit (`--function-timeout`, `[analysis] function-timeout` or a `[[timeout]]` entry) or the run's limit before reaching a verdict. Give it more time with a `[[timeout]]` entry for that function. Default level: warn.",
    },
    CodeExplanation {
        code: "termcheck::check::not_analysed",
        title: "code that was not analysed",
        explanation: "Code termcheck could not analyse at all: C compiled outside the cc crate (no bitcode), or an external function with neither a body nor a trusted summary. Callers of such code get no proof that relies on it. Default level: warn.",
    },
    CodeExplanation {
        code: "termcheck::check::unused_allow",
        title: "an allow entry that suppressed nothing",
        explanation: "An `[[allow]]` entry matched no analysed function, or matched functions none of whose findings it covers (they are proved now, or their findings are of checks the entry does not list). Stale entries hide future problems: delete it, or fix its pattern. Set the level with `unused-allow` in [checks]; default: warn.",
    },
];

/// The explanation of `code` for `explain`: title, code, paragraph. Accepts the full code,
/// its last segment (`unknown_key`) and a check's termcheck.toml key (`non-termination`).
pub fn explain(code: &str) -> Option<String> {
    let wanted = code.trim();
    let from_key = Check::from_key(wanted).map(Check::code);
    let entry = CODES.iter().find(|c| {
        c.code == wanted
            || Some(c.code) == from_key
            || c.code.rsplit("::").next().is_some_and(|last| last == wanted || last.replace('_', "-") == wanted)
    })?;
    Some(format!("{}: {}\n\n{}\n", entry.code, entry.title, entry.explanation))
}

/// The table of all codes, one line each (`explain` without a code).
pub fn code_table() -> String {
    let width = CODES.iter().map(|c| c.code.len()).max().unwrap_or(0);
    CODES.iter().map(|c| format!("{:width$}  {}\n", c.code, c.title)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::policy::error::PolicyError;
    use std::path::Path;

    #[test]
    fn codes_are_unique() {
        let unique: std::collections::BTreeSet<_> = CODES.iter().map(|c| c.code).collect();
        assert_eq!(unique.len(), CODES.len());
        let last_segments: std::collections::BTreeSet<_> = CODES.iter().map(|c| c.code.rsplit("::").next()).collect();
        assert_eq!(last_segments.len(), CODES.len(), "short forms must be unambiguous too");
    }

    #[test]
    fn every_check_is_explained() {
        for check in Check::ALL {
            assert!(explain(check.code()).is_some(), "{check}");
            assert_eq!(explain(check.key()), explain(check.code()));
        }
    }

    #[test]
    fn every_policy_error_code_is_explained() {
        let bad_files = ["x = ", "bogus = 1", "[[allow]]\nfunction = \"f\"", "[checks]\ntimeout = \"loud\""];
        for text in bad_files {
            let err = crate::policy::parse::parse_policy(text, Path::new("t.toml"), Path::new("/")).expect_err(text);
            assert!(explain(&err.code_str()).is_some(), "{}", err.code_str());
        }
        let io = PolicyError::Io { path: "x".into(), source: std::io::Error::other("x") };
        let ambiguous = PolicyError::Ambiguous { dir: "d".into(), found: vec![] };
        for err in [io, ambiguous] {
            assert!(explain(&err.code_str()).is_some(), "{}", err.code_str());
        }
    }

    #[test]
    fn engine_codes_are_explained() {
        for code in ["termcheck::io", "termcheck::input::extension", "termcheck::frontend::toolchain", "termcheck::its::parse"] {
            assert!(explain(code).is_some(), "{code}");
        }
    }

    #[test]
    fn short_forms_and_unknown_codes() {
        assert_eq!(explain("unknown_key"), explain("termcheck::config::unknown_key"));
        assert_eq!(explain("unknown-key"), explain("termcheck::config::unknown_key"));
        assert!(explain("termcheck::nope").is_none());
        let text = explain("non-termination").expect("explained");
        assert!(text.starts_with("termcheck::check::non_termination: non-termination proven\n\n"), "{text}");
        assert_eq!(code_table().lines().count(), CODES.len());
    }
}
