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
    /// CPU time (user + system, all threads) of the process itself, not of the processes it
    /// started and waited for (cargo, rustc, clang): read from `/proc/PID/stat` once the
    /// process has ended and before it is reaped ([`own_cpu_time`]). `None` when it was
    /// killed or the file could not be read.
    pub cpu: Option<Duration>,
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
    #[allow(clippy::zombie_processes, reason = "reaped by `try_wait` once `has_exited` saw the end, or by `wait` after the kill")]
    let mut child = cmd.spawn().unwrap_or_else(|e| panic!("cannot start {}: {e}", binary.display()));
    let out = drain(child.stdout.take().expect("piped stdout"));
    let err = drain(child.stderr.take().expect("piped stderr"));
    let mut killed = false;
    let mut cpu = None;
    let status = loop {
        // The CPU time is read between the end and the reaping (`has_exited` does not reap).
        if has_exited(&child) {
            cpu = own_cpu_time(child.id());
            if let Some(status) = child.try_wait().expect("wait for the binary") {
                break status;
            }
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
        cpu,
    }
}

/// Whether `child` has ended, without reaping it (`waitid` with `WNOWAIT`): its
/// `/proc/PID/stat` stays readable until [`Child::wait`].
fn has_exited(child: &Child) -> bool {
    let pid: libc::id_t = child.id();
    // SAFETY: `info` is a zeroed siginfo_t the kernel writes into; the child is ours.
    let mut info: libc::siginfo_t = unsafe { std::mem::zeroed() };
    let ok = unsafe { libc::waitid(libc::P_PID, pid, &mut info, libc::WEXITED | libc::WNOHANG | libc::WNOWAIT) };
    // SAFETY: `si_pid` is set by waitid when a child changed state (else it stays 0).
    ok == 0 && unsafe { info.si_pid() } != 0
}

/// User + system CPU time of process `pid` and all its threads (fields 14 and 15 of
/// `/proc/PID/stat`, in clock ticks), excluding the processes it waited for (fields 16, 17).
pub fn own_cpu_time(pid: u32) -> Option<Duration> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // The command name (field 2) is in parentheses and may hold spaces: count after its end.
    let fields: Vec<&str> = stat.get(stat.rfind(')')? + 2..)?.split_whitespace().collect();
    let ticks: u64 = fields.get(11)?.parse::<u64>().ok()? + fields.get(12)?.parse::<u64>().ok()?;
    // SAFETY: sysconf only reads a configuration value.
    let per_second = u64::try_from(unsafe { libc::sysconf(libc::_SC_CLK_TCK) }).ok().filter(|&t| t > 0)?;
    Some(Duration::from_secs_f64(ticks as f64 / per_second as f64))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shell(script: &str) -> Run {
        let args = vec!["-c".to_string(), script.to_string()];
        run_binary(Path::new("/bin/sh"), Path::new("/"), &args, Duration::from_secs(120))
    }

    /// The CPU time is the process's own: a busy loop in the shell counts, the same loop in a
    /// child shell the process waits for does not.
    #[test]
    fn the_cpu_time_is_the_processs_own() {
        let busy = "i=0; while [ $i -lt 300000 ]; do i=$((i+1)); done";
        let own = shell(busy);
        assert_eq!(own.code, Some(0), "{own:?}");
        let own_cpu = own.cpu.expect("read before the process was reaped");
        assert!(own_cpu >= Duration::from_millis(50), "{own_cpu:?}");
        let waited = shell(&format!("/bin/sh -c '{busy}'; true"));
        assert_eq!(waited.code, Some(0), "{waited:?}");
        let waited_cpu = waited.cpu.expect("read before the process was reaped");
        assert!(waited_cpu * 4 < own_cpu, "the child's loop is not the parent's CPU time: {waited_cpu:?} vs {own_cpu:?}");
    }
}
