//! z3 runs on a helper thread, one per calling thread, so that a query returns by its time
//! limit even when z3 does not stop, and at once when the analysis is cancelled (issue 12).
//!
//! Why a helper thread: z3's `timeout` parameter, `Z3_interrupt` and `rlimit` all act through
//! one resource limit that z3 polls only between steps of its procedures. The rational simplex
//! of the LP solver polls it between pivots, and a single pivot on large rationals ran for
//! seconds past the limit (tpdb-its `Test4.jar-obl-10`: one Farkas LP ignored its 10 s limit;
//! BENCHMARKS.md "Robustness, session 6"). No in-process z3 setting bounds such a step, so the
//! caller does not wait for it: it waits for the helper's answer until the query's limit plus
//! [`ABANDON_SLACK`], polling its cancellation token every [`CANCEL_POLL`]; past either it
//! interrupts the helper's context (`Z3_interrupt`, which ends every query that does poll),
//! abandons the helper (it ends after its current query, its result unread) and answers
//! `Unknown`, the sound side for every caller. The next query starts a fresh helper.
//!
//! Cost: one channel round trip per query (microseconds; a query costs milliseconds) and one
//! z3 context per helper, which also keeps the solver its linear integer queries reuse
//! (`reuse`).

use super::reuse::ReusedSolver;
use super::{BvModel, Model, SatResult};
use crate::logic::bv::BvFormula;
use crate::logic::{Formula, Var};
use std::cell::RefCell;
use std::collections::BTreeSet;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// How long past a query's own limit the caller still waits for z3's `unknown` before it
/// abandons the helper: z3's timer has fired by then, so only a step that does not poll its
/// limit is still running.
pub const ABANDON_SLACK: Duration = Duration::from_millis(50);

/// How often a caller waiting for z3 looks at its cancellation token.
pub const CANCEL_POLL: Duration = Duration::from_millis(10);

/// Helper threads inside a query right now (also abandoned ones still computing).
static BUSY: AtomicUsize = AtomicUsize::new(0);

/// Helper threads alive (from before their z3 context exists until after it is gone).
static LIVE: AtomicUsize = AtomicUsize::new(0);

/// Helper threads of this process inside a z3 query now: a process should not run z3's
/// static destructors (a normal `exit`) while one is.
pub fn busy() -> usize {
    BUSY.load(Ordering::SeqCst)
}

/// Helper threads of this process still alive (idle, computing, or ending after their
/// caller went away).
pub fn live() -> usize {
    LIVE.load(Ordering::SeqCst)
}

/// One query, owned so that it can cross to the helper thread.
pub(super) enum Job {
    /// Integer/real arithmetic (`translate::solve`).
    Arith { formula: Formula, real_vars: BTreeSet<Var>, timeout: Option<Duration>, model_vars: Vec<Var> },
    /// Bit-vectors (`bv::check_bv_here`).
    BitVector { formula: BvFormula, timeout: Option<Duration> },
}

/// The helper's answer to a [`Job`].
pub(super) enum Answer {
    Arith(SatResult, Option<Model>),
    BitVector(SatResult, Option<BvModel>),
}

impl Job {
    fn timeout(&self) -> Option<Duration> {
        match self {
            Job::Arith { timeout, .. } | Job::BitVector { timeout, .. } => *timeout,
        }
    }

    /// The answer when z3 gave none in time or the analysis was cancelled.
    fn unknown(&self) -> Answer {
        match self {
            Job::Arith { .. } => Answer::Arith(SatResult::Unknown, None),
            Job::BitVector { .. } => Answer::BitVector(SatResult::Unknown, None),
        }
    }

    /// Runs the query on this thread's z3 context (linear integer queries on `reused`).
    fn run_here(self, reused: &mut ReusedSolver) -> Answer {
        match self {
            Job::Arith { formula, real_vars, timeout, model_vars } => {
                let query = super::Query { formula: &formula, real_vars: &real_vars, timeout };
                let (result, model) = super::translate::solve(&query, &model_vars, reused);
                Answer::Arith(result, model)
            }
            Job::BitVector { formula, timeout } => {
                let (result, model) = super::bv::check_bv_here(&formula, timeout);
                Answer::BitVector(result, model)
            }
        }
    }
}

/// The helper thread's z3 context, while it exists, for `Z3_interrupt` from the caller.
struct ContextSlot(Mutex<Option<z3_sys::Z3_context>>);

// SAFETY: the pointer is only used for `Z3_interrupt`, which z3 documents as callable from
// another thread, and only under the mutex, which the helper holds while it clears the slot
// before its context can be destroyed.
unsafe impl Send for ContextSlot {}
unsafe impl Sync for ContextSlot {}

impl ContextSlot {
    fn interrupt(&self) {
        if let Ok(slot) = self.0.lock() {
            if let Some(ctx) = *slot {
                // SAFETY: see `ContextSlot`: the context is alive while it is in the slot.
                unsafe { z3_sys::Z3_interrupt(ctx) };
            }
        }
    }
}

type Request = (Job, mpsc::SyncSender<Answer>);

/// A helper thread and the way to reach it.
struct Helper {
    jobs: mpsc::Sender<Request>,
    context: Arc<ContextSlot>,
}

impl Helper {
    fn start() -> Option<Helper> {
        let (jobs, inbox) = mpsc::channel::<Request>();
        let context = Arc::new(ContextSlot(Mutex::new(None)));
        let slot = Arc::clone(&context);
        LIVE.fetch_add(1, Ordering::SeqCst);
        let spawned = std::thread::Builder::new().name("termcheck-z3".into()).stack_size(crate::config::WORKER_STACK_BYTES).spawn(move || {
            serve(&inbox, &slot);
            LIVE.fetch_sub(1, Ordering::SeqCst);
        });
        if spawned.is_err() {
            LIVE.fetch_sub(1, Ordering::SeqCst);
            return None;
        }
        Some(Helper { jobs, context })
    }
}

/// The helper thread: answers jobs until its caller drops the sender.
fn serve(inbox: &mpsc::Receiver<Request>, slot: &ContextSlot) {
    let ctx = z3::Context::thread_local();
    if let Ok(mut s) = slot.0.lock() {
        *s = Some(ctx.get_z3_context());
    }
    let mut reused = ReusedSolver::default();
    for (job, reply) in inbox {
        struct Busy;
        impl Drop for Busy {
            fn drop(&mut self) {
                BUSY.fetch_sub(1, Ordering::SeqCst);
            }
        }
        BUSY.fetch_add(1, Ordering::SeqCst);
        let busy = Busy;
        let answer = job.run_here(&mut reused);
        drop(busy);
        // The caller is gone after a timeout or cancellation; the answer is then unread.
        let _ = reply.send(answer);
    }
    if let Ok(mut s) = slot.0.lock() {
        *s = None;
    }
    drop(reused);
    drop(ctx);
}

thread_local! {
    static HELPER: RefCell<Option<Helper>> = const { RefCell::new(None) };
}

/// Runs `job` on this thread's helper; `Unknown` if z3 has not answered by the job's limit
/// plus [`ABANDON_SLACK`] or the analysis is cancelled meanwhile (the helper is then
/// interrupted and abandoned).
pub(super) fn run(job: Job) -> Answer {
    if crate::cancel::requested() {
        return job.unknown();
    }
    let until = job.timeout().map(|t| Instant::now() + t + ABANDON_SLACK);
    let unknown = job.unknown();
    let (reply, answer) = mpsc::sync_channel(1);
    let mut pending = Some((job, reply));
    let sent = HELPER.with(|h| {
        let mut h = h.borrow_mut();
        if h.is_none() {
            *h = Helper::start();
        }
        let helper = h.as_ref()?;
        match helper.jobs.send(pending.take()?) {
            Ok(()) => Some(Arc::clone(&helper.context)),
            Err(refused) => {
                pending = Some(refused.0);
                None
            }
        }
    });
    let Some(context) = sent else {
        // No helper thread (the system refused one, or it died): run here, without the
        // guarantee.
        HELPER.with(|h| *h.borrow_mut() = None);
        return match pending {
            Some((job, _)) => job.run_here(&mut ReusedSolver::default()),
            None => unknown,
        };
    };
    loop {
        let slice = until.map_or(CANCEL_POLL, |u| u.saturating_duration_since(Instant::now()).min(CANCEL_POLL));
        match answer.recv_timeout(slice) {
            Ok(a) => return a,
            Err(mpsc::RecvTimeoutError::Timeout) => {
                let late = until.is_some_and(|u| Instant::now() >= u);
                if late || crate::cancel::requested() {
                    tracing::debug!(late, "z3 query abandoned: interrupting and replacing its helper thread");
                    context.interrupt();
                    HELPER.with(|h| *h.borrow_mut() = None);
                    return unknown;
                }
            }
            // The helper died (a panic inside z3's bindings): not proven, as any failed query.
            Err(mpsc::RecvTimeoutError::Disconnected) => {
                tracing::warn!("z3 helper thread ended without an answer");
                HELPER.with(|h| *h.borrow_mut() = None);
                return unknown;
            }
        }
    }
}
