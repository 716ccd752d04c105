//! Debug logging to stderr, off unless `TERMCHECK_LOG` holds a tracing filter (e.g. `debug`,
//! `termcheck_engine::symexec=trace`).

use std::io::IsTerminal;
use tracing_subscriber::EnvFilter;

/// Name of the environment variable with the log filter.
pub const LOG_ENV: &str = "TERMCHECK_LOG";

/// Installs the stderr subscriber when `TERMCHECK_LOG` is set; a malformed filter is reported
/// once on stderr and logging stays off (never a reason to fail the run).
pub fn init() {
    let Ok(spec) = std::env::var(LOG_ENV) else { return };
    if spec.trim().is_empty() {
        return;
    }
    match EnvFilter::try_new(&spec) {
        Ok(filter) => {
            let _ = tracing_subscriber::fmt()
                .with_env_filter(filter)
                .with_writer(std::io::stderr)
                .with_ansi(std::io::stderr().is_terminal())
                .try_init();
        }
        #[allow(clippy::print_stderr, reason = "the CLI reports a bad log filter on stderr")]
        Err(e) => eprintln!("warning: ignoring {LOG_ENV}={spec:?}: {e}"),
    }
}
