//! Running the binary for one case with an outer kill timeout, capturing exit code and output.

use std::io::Read;
use std::path::Path;
use std::os::unix::process::CommandExt;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// The observable result of one run.
#[derive(Clone, Debug)]
pub struct Run {
    /// Exit code; `None` when the process was killed (outer timeout) or died from a signal.
    pub code: Option<i32>,
    pub stdout: String,
    pub stderr: String,
    /// True when the outer timeout killed the process.
    pub killed: bool,
    pub elapsed: Duration,
}

/// Environment for deterministic output: no colours, no logging, miette's default width.
fn quiet_environment(cmd: &mut Command) {
    cmd.env("NO_COLOR", "1")
        .env_remove("FORCE_COLOR")
        .env_remove("CLICOLOR_FORCE")
        .env_remove("TERMCHECK_LOG")
        .env_remove("NO_GRAPHICS")
        .env_remove("COLUMNS")
        .env_remove("RUST_BACKTRACE")
        // `prove`'s default report cache goes here, never into the user's home.
        .env("XDG_CACHE_HOME", std::env::temp_dir().join("termcheck-tests-cache"));
}

/// Kills the child and every process it started (it leads its own process group), so that
/// a grandchild (e.g. clang) cannot keep the output pipes open after the kill.
fn kill_group(child: &mut Child) {
    if let Ok(pid) = i32::try_from(child.id()) {
        // SAFETY: plain syscall on the process group this runner created for the child.
        unsafe {
            libc::kill(-pid, libc::SIGKILL);
        }
    }
    let _ = child.kill();
}

fn drain(mut pipe: impl Read + Send + 'static) -> std::thread::JoinHandle<String> {
    std::thread::spawn(move || {
        let mut bytes = Vec::new();
        let _ = pipe.read_to_end(&mut bytes);
        String::from_utf8_lossy(&bytes).into_owned()
    })
}

/// Runs `binary args…` in `dir`, killing it after `limit`.
pub fn run_binary(binary: &Path, dir: &Path, args: &[String], limit: Duration) -> Run {
    let mut cmd = Command::new(binary);
    cmd.args(args).current_dir(dir).stdin(Stdio::null()).stdout(Stdio::piped()).stderr(Stdio::piped());
    quiet_environment(&mut cmd);
    cmd.process_group(0);
    let start = Instant::now();
    let mut child = cmd.spawn().unwrap_or_else(|e| panic!("cannot start {}: {e}", binary.display()));
    let out = drain(child.stdout.take().expect("piped stdout"));
    let err = drain(child.stderr.take().expect("piped stderr"));
    let mut killed = false;
    let status = loop {
        if let Some(status) = child.try_wait().expect("wait for the binary") {
            break status;
        }
        if start.elapsed() > limit {
            kill_group(&mut child);
            killed = true;
            break child.wait().expect("wait for the killed binary");
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    Run {
        code: if killed { None } else { status.code() },
        stdout: out.join().expect("stdout reader"),
        stderr: err.join().expect("stderr reader"),
        killed,
        elapsed: start.elapsed(),
    }
}
