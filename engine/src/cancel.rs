//! Cancellation of an analysis its caller has given up on (issue 12): a shared flag the caller
//! sets when its own timeout or memory limit fires, checked by the analysis at its deadline
//! checks (symbolic-execution steps, interpreter runs, ITS and ranking loops) and by every z3
//! call (`smt`), which then returns `Unknown` at once and interrupts z3.
//!
//! The token reaches the code that checks it through a thread-local "current token" that the
//! analysis entry points install for their thread ([`scope`]) and hand on to their worker
//! threads ([`current`] then [`scope`] again): the deadline checks sit in dozens of functions
//! that take an `Instant`, not a `Config`, and a cancelled analysis only needs each of them to
//! see its deadline as past ([`past`]).

use std::cell::RefCell;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Instant;

/// A cancellation flag shared by a caller and the analysis it started. Clones share the flag.
/// Plain data for the analysis: it never changes a result, only how soon a MAYBE comes, so
/// all tokens compare equal and none is part of a configuration's fingerprint.
#[derive(Clone, Default, Debug)]
pub struct CancelToken {
    flag: Arc<AtomicBool>,
}

impl PartialEq for CancelToken {
    fn eq(&self, _: &CancelToken) -> bool {
        true
    }
}

impl CancelToken {
    /// A fresh token, not cancelled.
    pub fn new() -> CancelToken {
        CancelToken::default()
    }

    /// Asks every analysis holding this token to stop. A z3 call in flight sees it within
    /// `smt::CANCEL_POLL` and interrupts z3 (`smt` module).
    pub fn cancel(&self) {
        self.flag.store(true, Ordering::SeqCst);
    }

    pub fn is_cancelled(&self) -> bool {
        self.flag.load(Ordering::Relaxed)
    }

    /// Whether both are clones of one token.
    pub fn same(&self, other: &CancelToken) -> bool {
        Arc::ptr_eq(&self.flag, &other.flag)
    }
}

thread_local! {
    static CURRENT: RefCell<Option<CancelToken>> = const { RefCell::new(None) };
}

/// Runs `work` with `token` as this thread's current token (restoring the previous one after,
/// also when `work` unwinds).
pub fn scope<T>(token: &CancelToken, work: impl FnOnce() -> T) -> T {
    struct Restore(Option<CancelToken>);
    impl Drop for Restore {
        fn drop(&mut self) {
            let previous = self.0.take();
            CURRENT.with(|c| *c.borrow_mut() = previous);
        }
    }
    let previous = CURRENT.with(|c| c.borrow_mut().replace(token.clone()));
    let _restore = Restore(previous);
    work()
}

/// This thread's current token, to hand on to a worker thread (a fresh, never-cancelled one
/// outside any [`scope`]).
pub fn current() -> CancelToken {
    CURRENT.with(|c| c.borrow().clone()).unwrap_or_default()
}

/// Whether this thread's analysis has been cancelled.
pub fn requested() -> bool {
    CURRENT.with(|c| c.borrow().as_ref().is_some_and(CancelToken::is_cancelled))
}

/// Whether `deadline` has passed or this thread's analysis has been cancelled: what every
/// deadline check of the analysis asks.
pub fn past(deadline: Instant) -> bool {
    requested() || Instant::now() >= deadline
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn a_cancelled_scope_sees_every_deadline_as_past() {
        let token = CancelToken::new();
        let later = Instant::now() + Duration::from_secs(3600);
        scope(&token, || {
            assert!(!past(later));
            token.cancel();
            assert!(past(later));
            assert!(current().same(&token));
        });
        assert!(!requested(), "the token is this thread's only inside its scope");
        assert!(!past(later));
    }

    #[test]
    fn a_token_handed_to_another_thread_is_the_same_token() {
        let token = CancelToken::new();
        let seen = scope(&token, || {
            let handed = current();
            std::thread::spawn(move || scope(&handed, || {
                while !requested() {
                    std::thread::sleep(Duration::from_millis(1));
                }
                true
            }))
        });
        token.cancel();
        assert!(seen.join().expect("worker"));
    }

    #[test]
    fn scopes_nest_and_restore() {
        let outer = CancelToken::new();
        let inner = CancelToken::new();
        scope(&outer, || {
            scope(&inner, || inner.cancel());
            assert!(!requested());
            assert!(current().same(&outer));
        });
    }
}
