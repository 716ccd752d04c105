//! Runs `cargo-termcheck prove FILE` for one benchmark program under an outer kill timeout and
//! extracts what the scoring needs from its output.

use std::io::Read;
use std::path::Path;
use std::os::unix::process::CommandExt;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// What one run of the binary produced.
#[derive(Clone, Debug, Default)]
pub struct RunResult {
    /// Exit code; `None` when killed by the outer timeout or ended by a signal.
    pub exit: Option<i32>,
    pub killed: bool,
    /// First line of stdout (`YES`, `NO`, `MAYBE`, or anything else on failure).
    pub first_line: String,
    /// The word after `memory-safety: ` (absent for ITS inputs or on failure).
    pub memory_safety: Option<String>,
    /// Text of the `reason: ` line, if any.
    pub reason: Option<String>,
    /// First non-empty line of stderr (for error reports).
    pub stderr_head: String,
    /// The whole stdout.
    pub stdout: String,
    pub seconds: f64,
    /// Peak resident memory of the run in KiB (the process and its children, `wait4`'s
    /// `ru_maxrss`); 0 when the process could not be waited for.
    pub peak_kib: u64,
}

/// Waits for `child` without blocking (`block` false) or until it ends; returns its exit
/// code (`None` for a signal) and peak resident memory in KiB once it has ended.
fn reap(child: &Child, block: bool) -> Result<Option<(Option<i32>, u64)>, ()> {
    let pid = i32::try_from(child.id()).map_err(|_| ())?;
    let mut status = 0;
    // SAFETY: an all-zero rusage is a valid value of the plain C struct.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: wait4 on our own child's pid with valid out-pointers.
    let r = unsafe { libc::wait4(pid, &mut status, if block { 0 } else { libc::WNOHANG }, &mut usage) };
    match r {
        0 => Ok(None),
        r if r == pid => {
            let code = libc::WIFEXITED(status).then(|| libc::WEXITSTATUS(status));
            Ok(Some((code, u64::try_from(usage.ru_maxrss).unwrap_or(0))))
        }
        _ => Err(()),
    }
}

/// Extracts the fields the scoring uses from stdout and stderr.
pub fn parse_output(stdout: &str, stderr: &str) -> (String, Option<String>, Option<String>, String) {
    let first = stdout.lines().next().unwrap_or("").trim().to_string();
    let memory = stdout.lines().find_map(|l| l.strip_prefix("memory-safety: ")).map(|w| w.trim().to_string());
    let reason = stdout.lines().find_map(|l| l.strip_prefix("reason: ")).map(|r| r.trim().to_string());
    (first, memory, reason, stderr_head(stderr))
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

/// One line saying why the binary failed: for a miette report the diagnostic code and the
/// message (`termcheck::io: cannot read …`), otherwise the first non-empty stderr line.
pub fn stderr_head(stderr: &str) -> String {
    let mut lines = stderr.lines().map(str::trim).filter(|l| !l.is_empty());
    let first = lines.clone().next().unwrap_or("").to_string();
    let message = lines.find_map(|l| l.strip_prefix('×')).map(str::trim);
    match (first.starts_with("termcheck::"), message) {
        (true, Some(message)) => format!("{first}: {message}"),
        _ => first,
    }
}

fn drain(mut pipe: impl Read + Send + 'static) -> std::thread::JoinHandle<String> {
    std::thread::spawn(move || {
        let mut bytes = Vec::new();
        let _ = pipe.read_to_end(&mut bytes);
        String::from_utf8_lossy(&bytes).into_owned()
    })
}

/// Runs `binary prove file --timeout T --int-semantics S --no-cache`, killing it after
/// `kill_after` (benchmarks measure the analysis, never answers from an earlier run's cache).
pub fn run_one(binary: &Path, file: &Path, timeout_secs: u64, int_semantics: &str, kill_after: Duration) -> RunResult {
    let mut args = vec!["prove".as_ref(), file.as_os_str()];
    let timeout = timeout_secs.to_string();
    args.extend(["--timeout", &timeout, "--int-semantics", int_semantics, "--no-cache"].map(std::ffi::OsStr::new));
    run_process(binary, &args, kill_after)
}

/// `binary prove file --timeout T --int-semantics c --format json --no-cache` (the
/// differential check's run; the JSON answer is in `stdout`).
pub fn run_json(binary: &Path, file: &Path, timeout_secs: f64, kill_after: Duration) -> RunResult {
    let mut args = vec!["prove".as_ref(), file.as_os_str()];
    let timeout = timeout_secs.to_string();
    args.extend(["--timeout", &timeout, "--int-semantics", "c", "--format", "json", "--no-cache"].map(std::ffi::OsStr::new));
    run_process(binary, &args, kill_after)
}

/// `binary prove file --timeout T --int-semantics S --format json --no-cache`.
pub fn run_json_with(binary: &Path, file: &Path, timeout_secs: u64, int_semantics: &str, kill_after: Duration) -> RunResult {
    let mut args = vec!["prove".as_ref(), file.as_os_str()];
    let timeout = timeout_secs.to_string();
    args.extend(["--timeout", &timeout, "--int-semantics", int_semantics, "--format", "json", "--no-cache"].map(std::ffi::OsStr::new));
    run_process(binary, &args, kill_after)
}

/// Runs `binary args…` in its own process group, killed after `kill_after`.
pub fn run_process(binary: &Path, args: &[&std::ffi::OsStr], kill_after: Duration) -> RunResult {
    let start = Instant::now();
    let mut cmd = Command::new(binary);
    cmd.args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .env("NO_COLOR", "1")
        .env_remove("TERMCHECK_LOG")
        .process_group(0);
    let mut child = match cmd.spawn() {
        Ok(child) => child,
        Err(e) => {
            return RunResult { stderr_head: format!("cannot start {}: {e}", binary.display()), ..RunResult::default() }
        }
    };
    let out = drain(child.stdout.take().expect("piped stdout"));
    let err = drain(child.stderr.take().expect("piped stderr"));
    let mut killed = false;
    // wait4 rather than `Child::try_wait`: it also gives the run's peak memory.
    let ended = loop {
        match reap(&child, false) {
            Ok(Some(ended)) => break Some(ended),
            Ok(None) if start.elapsed() > kill_after => {
                kill_group(&mut child);
                killed = true;
                break reap(&child, true).ok().flatten();
            }
            Ok(None) => std::thread::sleep(Duration::from_millis(20)),
            Err(()) => break None,
        }
    };
    let stdout = out.join().unwrap_or_default();
    let stderr = err.join().unwrap_or_default();
    let (first_line, memory_safety, reason, stderr_head) = parse_output(&stdout, &stderr);
    RunResult {
        exit: if killed { None } else { ended.and_then(|(code, _)| code) },
        killed,
        first_line,
        memory_safety,
        reason,
        stderr_head,
        stdout,
        seconds: start.elapsed().as_secs_f64(),
        peak_kib: ended.map_or(0, |(_, kib)| kib),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fields_are_extracted() {
        let (first, memory, reason, head) =
            parse_output("MAYBE\nmemory-safety: unknown\nreason: timeout after 30 s\n", "\n  warn\n");
        assert_eq!(first, "MAYBE");
        assert_eq!(memory.as_deref(), Some("unknown"));
        assert_eq!(reason.as_deref(), Some("timeout after 30 s"));
        assert_eq!(head, "warn");
        let (first, memory, reason, _) = parse_output("", "");
        assert_eq!((first.as_str(), memory, reason), ("", None, None));
        let (_, _, _, head) = parse_output("", "termcheck::io\n\n  × cannot read a.c: no such file\n  help: h\n");
        assert_eq!(head, "termcheck::io: cannot read a.c: no such file");
    }

    #[test]
    fn a_missing_binary_is_reported_not_panicked() {
        let r = run_one(Path::new("/nonexistent/cargo-termcheck"), Path::new("a.c"), 1, "c", Duration::from_secs(1));
        assert_eq!(r.exit, None);
        assert!(r.stderr_head.contains("cannot start"), "{}", r.stderr_head);
    }

    #[test]
    fn a_hanging_process_is_killed() {
        // `sleep prove a.c …` fails on its arguments, so use a shell that ignores them.
        let dir = tempdir();
        let script = dir.join("hang.sh");
        std::fs::write(&script, "#!/bin/sh\nsleep 30\n").unwrap();
        make_executable(&script);
        let r = run_one(&script, Path::new("a.c"), 1, "c", Duration::from_millis(300));
        assert!(r.killed);
        assert!(r.seconds < 5.0);
        let _ = std::fs::remove_dir_all(dir);
    }

    fn tempdir() -> std::path::PathBuf {
        let dir = std::env::temp_dir().join(format!("xtask-runner-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    fn make_executable(path: &Path) {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
}
