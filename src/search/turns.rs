//! Turns on the processor for helper threads when a search has more threads than the machine
//! has cores.
//!
//! Left to the operating system, 256 busy threads on 2 cores each get a time slice only every
//! few hundred milliseconds, the main thread among them: the clock's deadline passes and
//! nobody is running to notice, and the answer then waits for every helper to be scheduled
//! once more to see the stop. Instead, helpers take turns: at most `cores - 1` of them search
//! at once (the main thread always runs), the others sleep until one hands its turn on after
//! a slice of nodes, first come first served. Searches with no more threads than cores never
//! wait here.

use std::collections::VecDeque;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::thread::Thread;
use std::time::Duration;

/// Helper threads waiting for a turn, and the turns to give.
pub(super) struct Turns {
    state: Mutex<State>,
    /// Set once the search ends: nobody waits any more.
    closed: AtomicBool,
}

struct State {
    /// Turns nobody holds.
    free: usize,
    waiting: VecDeque<Waiter>,
}

struct Waiter {
    thread: Thread,
    granted: Arc<AtomicBool>,
}

/// How long a waiting thread sleeps before it looks again whether the search ended (a
/// safety net: [`Turns::close`] wakes every waiter at once).
const RECHECK: Duration = Duration::from_millis(5);

impl Turns {
    /// Turns for `helpers` helper threads on a machine of `cores` cores; `None` when every
    /// helper can run at once anyway.
    pub(super) fn for_helpers(helpers: usize, cores: usize) -> Option<Turns> {
        let slots = cores.saturating_sub(1).max(1);
        (helpers > slots).then(|| Turns {
            state: Mutex::new(State {
                free: slots,
                waiting: VecDeque::new(),
            }),
            closed: AtomicBool::new(false),
        })
    }

    /// Waits for a turn. Returns `false` when the search ended meanwhile (no turn is held).
    pub(super) fn take(&self) -> bool {
        let granted = {
            let mut state = self.state.lock().unwrap_or_else(PoisonError::into_inner);
            if self.closed.load(Ordering::Acquire) {
                return false;
            }
            if state.free > 0 && state.waiting.is_empty() {
                state.free -= 1;
                return true;
            }
            Self::queue(&mut state)
        };
        self.wait(&granted)
    }

    /// Gives a held turn to the longest waiting thread, or back to the free ones.
    pub(super) fn give_back(&self) {
        let mut state = self.state.lock().unwrap_or_else(PoisonError::into_inner);
        match state.waiting.pop_front() {
            Some(next) => Self::grant(next),
            None => state.free += 1,
        }
    }

    /// Hands a held turn on if anyone waits for one, then waits for a turn again. Returns
    /// `false` when the search ended meanwhile (no turn is held then).
    pub(super) fn pass(&self) -> bool {
        let granted = {
            let mut state = self.state.lock().unwrap_or_else(PoisonError::into_inner);
            let Some(next) = state.waiting.pop_front() else {
                return !self.closed.load(Ordering::Acquire);
            };
            Self::grant(next);
            Self::queue(&mut state)
        };
        self.wait(&granted)
    }

    /// Puts the calling thread at the end of the queue; its flag is set when its turn comes.
    fn queue(state: &mut State) -> Arc<AtomicBool> {
        let granted = Arc::new(AtomicBool::new(false));
        state.waiting.push_back(Waiter {
            thread: std::thread::current(),
            granted: Arc::clone(&granted),
        });
        granted
    }

    fn grant(waiter: Waiter) {
        waiter.granted.store(true, Ordering::Release);
        waiter.thread.unpark();
    }

    /// Sleeps until the turn is granted (`true`) or the turns are closed (`false`).
    fn wait(&self, granted: &AtomicBool) -> bool {
        loop {
            if granted.load(Ordering::Acquire) {
                return !self.closed.load(Ordering::Acquire);
            }
            if self.closed.load(Ordering::Acquire) {
                return false;
            }
            std::thread::park_timeout(RECHECK);
        }
    }

    /// Ends the turns: every waiting thread wakes and leaves at once.
    pub(super) fn close(&self) {
        self.closed.store(true, Ordering::Release);
        let mut state = self.state.lock().unwrap_or_else(PoisonError::into_inner);
        for waiter in state.waiting.drain(..) {
            waiter.thread.unpark();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Turns;
    use std::sync::Arc;
    use std::sync::atomic::{AtomicUsize, Ordering};

    #[test]
    fn no_turns_are_needed_when_every_helper_has_a_core() {
        assert!(Turns::for_helpers(1, 2).is_none());
        assert!(Turns::for_helpers(3, 4).is_none());
        assert!(Turns::for_helpers(1, 1).is_none());
        assert!(Turns::for_helpers(2, 2).is_some());
        assert!(Turns::for_helpers(2, 1).is_some());
    }

    #[test]
    fn at_most_the_slots_run_at_once_and_every_thread_gets_turns() {
        let turns = Arc::new(Turns::for_helpers(8, 3).unwrap());
        let running = Arc::new(AtomicUsize::new(0));
        let most = Arc::new(AtomicUsize::new(0));
        let slices = Arc::new(AtomicUsize::new(0));
        let threads: Vec<_> = (0..8)
            .map(|_| {
                let (turns, running, most, slices) = (
                    Arc::clone(&turns),
                    Arc::clone(&running),
                    Arc::clone(&most),
                    Arc::clone(&slices),
                );
                std::thread::spawn(move || {
                    assert!(turns.take());
                    for _ in 0..20 {
                        let now = running.fetch_add(1, Ordering::SeqCst) + 1;
                        most.fetch_max(now, Ordering::SeqCst);
                        std::thread::yield_now();
                        slices.fetch_add(1, Ordering::SeqCst);
                        running.fetch_sub(1, Ordering::SeqCst);
                        assert!(turns.pass());
                    }
                    turns.give_back();
                })
            })
            .collect();
        for thread in threads {
            thread.join().unwrap();
        }
        assert_eq!(slices.load(Ordering::SeqCst), 160);
        assert!(most.load(Ordering::SeqCst) <= 2, "{most:?} ran at once");
    }

    #[test]
    fn closing_wakes_every_waiting_thread_without_a_turn() {
        let turns = Arc::new(Turns::for_helpers(5, 2).unwrap());
        assert!(turns.take());
        let waiting: Vec<_> = (0..4)
            .map(|_| {
                let turns = Arc::clone(&turns);
                std::thread::spawn(move || turns.take())
            })
            .collect();
        std::thread::sleep(std::time::Duration::from_millis(20));
        turns.close();
        for thread in waiting {
            assert!(!thread.join().unwrap());
        }
        assert!(!turns.take());
        assert!(!turns.pass());
    }
}
