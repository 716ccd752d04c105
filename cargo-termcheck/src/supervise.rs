//! Runs the analysis on a worker thread so that neither a hang nor a panic escapes the CLI's contract.
//!
//! The main thread waits for the worker with the user's timeout plus a grace period; the engine
//! gets the plain timeout as its own deadline, so normally it answers (MAYBE with its own reason)
//! before the grace runs out. A panic in the worker is caught and reported with its message and
//! source location. On expiry (or at the memory limit) the supervisor cancels the analysis
//! through its [`CancelToken`] (`run_cancelling`) and waits up to [`STOP_WAIT`] for the
//! worker to stop: the engine checks the token at its deadline checks and in every z3 call,
//! so a worker inside the analysis ends within milliseconds and no core keeps burning. The
//! caller prints its MAYBE and ends the process with [`exit_after_worker`]: a plain exit when
//! the worker stopped, `_exit` as the backstop when it did not (a worker still inside LLVM or
//! a z3 step that does not poll).
//!
//! While it waits, the main thread also watches the process's resident memory (every
//! [`MEMORY_POLL`]) against the limit of [`set_memory_limit`] (`--memory-limit`): past it the
//! computation ends as [`Supervised::MemoryLimit`], which the caller reports as a MAYBE
//! ("memory limit of N MB reached") exactly like a timeout. Resident memory rather than a
//! counting allocator: it also covers z3's and LLVM's C++ heaps, which a Rust global allocator
//! never sees, and costs nothing on the engine's allocation path.

use std::any::Any;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use termcheck_engine::cancel::CancelToken;
use std::sync::mpsc;
use std::sync::{Mutex, Once};
use std::time::{Duration, Instant};

/// Extra time the main thread waits beyond the analysis timeout before giving up on the worker
/// (issue 12: a run ends within `--timeout` + 1 s; the rest of the second is process start-up
/// and printing).
pub const GRACE: Duration = Duration::from_millis(800);

/// How long a supervisor waits for a cancelled worker to stop before it leaves it running
/// (the engine polls its token every few milliseconds; loading a program through clang and
/// LLVM does not poll it).
pub const STOP_WAIT: Duration = Duration::from_millis(150);

/// Workers that were cancelled but did not stop within [`STOP_WAIT`] and may still run.
static LIVE_ABANDONED: AtomicUsize = AtomicUsize::new(0);

/// How often the waiting thread samples resident memory. At the fastest growth measured
/// (~450 MB/s, the bit-vector encoder on 500 nested `if`s before it got a size limit) the
/// limit is overshot by a few MB at most.
pub const MEMORY_POLL: Duration = Duration::from_millis(10);

/// Default of `--memory-limit` (MB). The largest peak resident memory measured on the
/// benchmark folders is far below it (BENCHMARKS.md, "Robustness"); it leaves room for
/// larger real programs while stopping a runaway analysis well before a machine's memory is
/// gone.
pub const DEFAULT_MEMORY_LIMIT_MB: u64 = 4096;

/// The process's memory limit in MB (0: none), set once from the command line.
static MEMORY_LIMIT_MB: AtomicU64 = AtomicU64::new(0);

/// Sets the resident-memory limit (MB) that every later [`run_with_limit`] enforces.
pub fn set_memory_limit(megabytes: u64) {
    MEMORY_LIMIT_MB.store(megabytes, Ordering::Relaxed);
}

/// The limit (MB) of the first computation this process stopped at the memory limit (0:
/// none yet). Its worker thread cannot be stopped (the engine has no cancellation; see
/// ARCHITECTURE.md, "Memory limit") and keeps its memory: a caller with more work to do
/// (workspace mode, target after target) starts none after it, so the process ends, and the
/// thread with it, right after the report.
static MEMORY_LIMIT_REACHED_MB: AtomicU64 = AtomicU64::new(0);

/// The limit (MB) an earlier computation of this process was stopped at, if any.
pub fn memory_limit_reached() -> Option<u64> {
    Some(MEMORY_LIMIT_REACHED_MB.load(Ordering::Relaxed)).filter(|&mb| mb > 0)
}

/// The MAYBE reason of a run stopped at the memory limit.
pub fn memory_limit_reason(megabytes: u64) -> String {
    format!("memory limit of {megabytes} MB reached")
}

/// Resident memory of this process in bytes (`VmRSS` of /proc/self/status; `None` where
/// that file does not exist, so no limit is enforced there).
pub fn resident_bytes() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find_map(|l| l.strip_prefix("VmRSS:"))?;
    let kib: u64 = line.trim().trim_end_matches("kB").trim().parse().ok()?;
    Some(kib * 1024)
}

/// Stack of the analysis thread. Recursive algorithms on deep programs need more than the 2 MiB
/// default of spawned threads; the memory is reserved, not committed, until used. (A stack
/// overflow aborts the process and cannot be caught; tools see it as a signal, not a verdict.)
pub const ANALYSIS_STACK_BYTES: usize = 256 << 20;

/// How a supervised computation ended.
#[derive(Debug)]
pub enum Supervised<T> {
    /// The computation returned in time.
    Finished(T),
    /// The computation panicked; the text names the message and, when known, the location.
    Panicked(String),
    /// The computation did not return within the wait limit (it is left running).
    TimedOut,
    /// The process's resident memory passed the limit of [`set_memory_limit`] (MB) before
    /// the computation returned (it is left running; the caller ends the process).
    MemoryLimit(u64),
}

/// Location of the last panic, recorded by the panic hook (the payload does not carry it).
static LAST_PANIC_LOCATION: Mutex<Option<String>> = Mutex::new(None);
static HOOK: Once = Once::new();

/// Installs (once) a panic hook that records the panic's location and then runs the previous hook
/// (which prints the usual message, and a backtrace under RUST_BACKTRACE, to stderr).
fn install_location_hook() {
    HOOK.call_once(|| {
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            if let Some(loc) = info.location() {
                if let Ok(mut slot) = LAST_PANIC_LOCATION.lock() {
                    *slot = Some(format!("{}:{}:{}", loc.file(), loc.line(), loc.column()));
                }
            }
            previous(info);
        }));
    });
}

/// The panic message carried by a `catch_unwind` payload.
fn payload_message(payload: &(dyn Any + Send)) -> String {
    if let Some(s) = payload.downcast_ref::<&str>() {
        (*s).to_string()
    } else if let Some(s) = payload.downcast_ref::<String>() {
        s.clone()
    } else {
        "panic with a non-text payload".to_string()
    }
}

/// Runs `work` on a new thread and waits at most `wait` for its result, watching the memory
/// limit of [`set_memory_limit`]. A worker that does not finish is left running (counted for
/// [`exit_after_worker`]); work that can be cancelled goes through [`run_cancelling`].
pub fn run_with_limit<T, F>(wait: Duration, work: F) -> Supervised<T>
where
    T: Send + 'static,
    F: FnOnce() -> T + Send + 'static,
{
    run_with_limits(wait, MEMORY_LIMIT_MB.load(Ordering::Relaxed), None, work)
}

/// [`run_with_limit`] for an analysis holding `token` (its `Config`'s): on a timeout or the
/// memory limit the token is cancelled and the worker given [`STOP_WAIT`] to stop.
pub fn run_cancelling<T, F>(wait: Duration, token: &CancelToken, work: F) -> Supervised<T>
where
    T: Send + 'static,
    F: FnOnce() -> T + Send + 'static,
{
    run_with_limits(wait, MEMORY_LIMIT_MB.load(Ordering::Relaxed), Some(token), work)
}

/// Whether a worker this process gave up on may still be running.
pub fn worker_left_running() -> bool {
    LIVE_ABANDONED.load(Ordering::SeqCst) > 0 || termcheck_engine::smt::helpers_busy() > 0
}

/// After giving up on `rx`'s worker: cancels `token` (if any) and waits up to [`STOP_WAIT`]
/// for the worker to end; counts it in [`LIVE_ABANDONED`] when it does not.
fn stop_worker<T>(rx: &mpsc::Receiver<T>, token: Option<&CancelToken>) {
    let stopped = token.is_some_and(|t| {
        t.cancel();
        !matches!(rx.recv_timeout(STOP_WAIT), Err(mpsc::RecvTimeoutError::Timeout))
    });
    if !stopped {
        LIVE_ABANDONED.fetch_add(1, Ordering::SeqCst);
    }
}

/// [`run_with_limit`] with an explicit memory limit in MB (0: none) and optional token.
fn run_with_limits<T, F>(wait: Duration, limit_mb: u64, token: Option<&CancelToken>, work: F) -> Supervised<T>
where
    T: Send + 'static,
    F: FnOnce() -> T + Send + 'static,
{
    install_location_hook();
    let (tx, rx) = mpsc::channel();
    let spawned = std::thread::Builder::new()
        .name("termcheck-analysis".into())
        .stack_size(ANALYSIS_STACK_BYTES)
        .spawn(move || {
        let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(work));
        // The receiver is gone only after a timeout; then nobody needs the result.
        let _ = tx.send(result);
    });
    if let Err(e) = spawned {
        return Supervised::Panicked(format!("could not start the analysis thread: {e}"));
    }
    let end = Instant::now() + wait;
    let received = loop {
        let left = end.saturating_duration_since(Instant::now());
        let slice = if limit_mb == 0 { left } else { left.min(MEMORY_POLL) };
        match rx.recv_timeout(slice) {
            Err(mpsc::RecvTimeoutError::Timeout) if !left.is_zero() => {
                if limit_mb > 0 && resident_bytes().is_some_and(|b| b > limit_mb << 20) {
                    let _ = MEMORY_LIMIT_REACHED_MB.compare_exchange(0, limit_mb, Ordering::Relaxed, Ordering::Relaxed);
                    stop_worker(&rx, token);
                    return Supervised::MemoryLimit(limit_mb);
                }
            }
            other => break other,
        }
    };
    match received {
        Ok(Ok(value)) => Supervised::Finished(value),
        Ok(Err(payload)) => {
            let message = payload_message(payload.as_ref());
            let location = LAST_PANIC_LOCATION.lock().ok().and_then(|mut slot| slot.take());
            Supervised::Panicked(match location {
                Some(loc) => format!("{message} (at {loc})"),
                None => message,
            })
        }
        Err(mpsc::RecvTimeoutError::Timeout) => {
            stop_worker(&rx, token);
            Supervised::TimedOut
        }
        // The worker ended without sending: it cannot unwind past catch_unwind, so this means
        // the thread was torn down abnormally.
        Err(mpsc::RecvTimeoutError::Disconnected) => {
            Supervised::Panicked("the analysis thread ended without a result".to_string())
        }
    }
}

/// Ends the process after a run that gave up on a worker: a plain `exit` when every such
/// worker stopped after its cancellation (and no z3 helper is still busy), else the
/// [`exit_abandoning_worker`] backstop.
pub fn exit_after_worker(code: i32) -> ! {
    // The z3 helpers of ended workers end by themselves (their callers are gone); give them
    // the time to drop their contexts before z3's static destructors run.
    let until = Instant::now() + STOP_WAIT;
    while termcheck_engine::smt::helpers_live() > 0 && !worker_left_running() && Instant::now() < until {
        std::thread::sleep(Duration::from_millis(1));
    }
    if worker_left_running() || termcheck_engine::smt::helpers_live() > 0 {
        exit_abandoning_worker(code)
    }
    use std::io::Write;
    let _ = std::io::stdout().lock().flush();
    std::process::exit(code)
}

/// Ends the process while an abandoned worker may still be inside LLVM or z3: flushes stdout
/// and stderr, then `_exit`s. `std::process::exit` would run the C++ static destructors of LLVM
/// and z3 (atexit handlers) under the running worker, which can kill the process by a signal
/// after the verdict was printed (seen under load with `--memory-limit 1`, reached while the
/// worker parsed the module).
pub fn exit_abandoning_worker(code: i32) -> ! {
    use std::io::Write;
    let _ = std::io::stdout().lock().flush();
    let _ = std::io::stderr().lock().flush();
    // SAFETY: `_exit` takes no pointers and never returns; skipping atexit handlers is the point.
    unsafe { libc::_exit(code) }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Instant;

    #[test]
    fn a_quick_result_is_returned() {
        match run_with_limit(Duration::from_secs(5), || 41 + 1) {
            Supervised::Finished(v) => assert_eq!(v, 42),
            other => panic!("unexpected {other:?}"),
        }
    }

    #[test]
    fn a_panic_becomes_a_message_with_its_location() {
        // A generous limit: with RUST_BACKTRACE set (as in CI) the hook symbolizes a
        // backtrace first, which takes seconds on a loaded machine (seen timing out at 5 s).
        let outcome: Supervised<()> = run_with_limit(Duration::from_secs(120), || panic!("boom {}", 7));
        match outcome {
            Supervised::Panicked(msg) => {
                assert!(msg.starts_with("boom 7"), "{msg}");
                assert!(msg.contains("supervise.rs"), "{msg}");
            }
            other => panic!("unexpected {other:?}"),
        }
    }

    #[test]
    fn deep_recursion_fits_the_analysis_stack() {
        fn depth(n: u64) -> u64 {
            let pad = std::hint::black_box([n; 16]);
            if n == 0 { 0 } else { 1 + depth(n - 1) + pad[0] - n }
        }
        // About 200 bytes per frame: far beyond the 2 MiB default, well within the limit.
        match run_with_limit(Duration::from_secs(20), || depth(200_000)) {
            Supervised::Finished(v) => assert_eq!(v, 200_000),
            other => panic!("unexpected {other:?}"),
        }
    }

    #[test]
    fn resident_memory_is_read() {
        assert!(resident_bytes().is_some_and(|b| b > 1 << 20));
    }

    #[test]
    fn growing_memory_is_stopped_at_the_limit() {
        // An explicit limit: the process-wide one stays unset, so tests running at the same
        // time are not stopped by this test's memory.
        let limit = resident_bytes().unwrap() / (1 << 20) + 64;
        let start = Instant::now();
        let outcome = run_with_limits(Duration::from_secs(60), limit, None, || {
            let mut blocks: Vec<Vec<u8>> = Vec::new();
            loop {
                blocks.push(vec![1u8; 8 << 20]);
                std::thread::sleep(Duration::from_millis(5));
                if blocks.len() > 40 {
                    return blocks.len();
                }
            }
        });
        assert!(matches!(outcome, Supervised::MemoryLimit(l) if l == limit), "{outcome:?}");
        assert!(start.elapsed() < Duration::from_secs(30));
        assert_eq!(memory_limit_reason(limit), format!("memory limit of {limit} MB reached"));
    }

    #[test]
    fn a_timed_out_worker_is_cancelled_and_stops() {
        let token = CancelToken::new();
        let seen = token.clone();
        let (done, stopped) = mpsc::channel();
        let outcome = run_cancelling(Duration::from_millis(100), &token, move || {
            while !seen.is_cancelled() {
                std::thread::sleep(Duration::from_millis(1));
            }
            let _ = done.send(());
            1
        });
        assert!(matches!(outcome, Supervised::TimedOut), "{outcome:?}");
        assert!(token.is_cancelled());
        stopped.recv_timeout(Duration::from_secs(60)).expect("the cancelled worker ends");
    }

    #[test]
    fn a_hang_is_cut_off_at_the_limit() {
        let start = Instant::now();
        let outcome = run_with_limit(Duration::from_millis(200), || {
            std::thread::sleep(Duration::from_secs(30));
            1
        });
        assert!(matches!(outcome, Supervised::TimedOut), "{outcome:?}");
        assert!(start.elapsed() < Duration::from_secs(5));
    }
}
