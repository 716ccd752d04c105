//! Runs the analysis on a worker thread so that neither a hang nor a panic escapes the CLI's contract.
//!
//! The main thread waits for the worker with the user's timeout plus a grace period; the engine
//! gets the plain timeout as its own deadline, so normally it answers (MAYBE with its own reason)
//! before the grace runs out. A panic in the worker is caught and reported with its message and
//! source location. On expiry the caller prints its MAYBE and ends the process with
//! `std::process::exit`, which also ends z3's threads still working for the abandoned worker.

use std::any::Any;
use std::sync::mpsc;
use std::sync::{Mutex, Once};
use std::time::Duration;

/// Extra time the main thread waits beyond the analysis timeout before giving up on the worker.
pub const GRACE: Duration = Duration::from_secs(2);

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

/// Runs `work` on a new thread and waits at most `wait` for its result.
pub fn run_with_limit<T, F>(wait: Duration, work: F) -> Supervised<T>
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
    match rx.recv_timeout(wait) {
        Ok(Ok(value)) => Supervised::Finished(value),
        Ok(Err(payload)) => {
            let message = payload_message(payload.as_ref());
            let location = LAST_PANIC_LOCATION.lock().ok().and_then(|mut slot| slot.take());
            Supervised::Panicked(match location {
                Some(loc) => format!("{message} (at {loc})"),
                None => message,
            })
        }
        Err(mpsc::RecvTimeoutError::Timeout) => Supervised::TimedOut,
        // The worker ended without sending: it cannot unwind past catch_unwind, so this means
        // the thread was torn down abnormally.
        Err(mpsc::RecvTimeoutError::Disconnected) => {
            Supervised::Panicked("the analysis thread ended without a result".to_string())
        }
    }
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
