//! Time management and every decision to stop: how long one move may take, from the clock
//! the GUI sends ([`plan`]), and when a search ends (`TimeManager`: its limits, the plan, and
//! the front end's `stop` and `ponderhit` through a `Control`).
//!
//! Two limits come out: a *soft* one (do not start another iteration past a share of it) and
//! a *hard* one (abort the search), the hard one always leaving `Move Overhead` plus a safety
//! margin on the clock so that the engine never loses on time.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use super::parameters::time as p;
use super::score::{MATE, MATE_BOUND};
use super::{Limits, MAX_PLY};

/// What the clock allows for one move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Budget {
    /// Stop deepening once an iteration ends after this much.
    pub soft: Option<Duration>,
    /// Stop the search at once after this much.
    pub hard: Option<Duration>,
}

/// The clock as the GUI gave it, for the side to move. Negative times count as zero.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Clock {
    /// Time left (ms).
    pub time: Option<i64>,
    /// Increment per move (ms).
    pub increment: Option<i64>,
    /// Moves to the next time control.
    pub moves_to_go: Option<u64>,
    /// A fixed time for this move (ms).
    pub move_time: Option<i64>,
}

/// Clock figures beyond this (about 35 years) are treated as this: GUIs send odd numbers for
/// "no limit", and arithmetic on them must not overflow.
const MAX_MS: i64 = 1 << 40;

fn millis(ms: i64) -> Duration {
    Duration::from_millis(ms.clamp(0, MAX_MS) as u64)
}

fn sane(ms: i64) -> i64 {
    ms.clamp(-MAX_MS, MAX_MS)
}

/// Plans a move's time. `overhead` is the GUI/transport latency to keep in hand.
///
/// ```
/// use std::time::Duration;
/// use tuzdik::search::time::{plan, Clock};
/// let budget = plan(&Clock { time: Some(10_000), increment: Some(100), ..Clock::default() }, 10);
/// assert!(budget.hard.unwrap() < Duration::from_millis(10_000 - 10));
/// assert!(budget.soft.unwrap() <= budget.hard.unwrap());
/// ```
pub fn plan(clock: &Clock, overhead: i64) -> Budget {
    let overhead = sane(overhead).max(0);
    let mut budget = Budget::default();
    // A fixed move time is the GUI's own measure of the move: Move Overhead guards a clock
    // (the engine's time running out), so only a small margin for the answer comes off it.
    if let Some(move_time) = clock.move_time.map(sane) {
        let limit = millis((move_time - p::MOVE_TIME_MARGIN_MS).max(1));
        budget = Budget {
            soft: Some(limit),
            hard: Some(limit),
        };
    }
    if let Some(time) = clock.time {
        let time = sane(time).max(0);
        let increment = sane(clock.increment.unwrap_or(0)).max(0);
        let moves_to_go = clock
            .moves_to_go
            .map_or(p::DEFAULT_MOVES_TO_GO, |m| m.clamp(1, 1000) as i64);
        // What may be spent at all: the clock less the overhead and safety margin.
        let usable = (time - overhead - p::SAFETY_MS).max(1);
        let share = usable * p::MAX_SHARE_PERCENT / 100;
        let base = (usable / moves_to_go + increment * 3 / 4).min(share).max(1);
        let hard = (base * p::HARD_FACTOR).min(share.max(base)).min(usable);
        let soft = millis(base);
        let hard = millis(hard);
        budget.soft = Some(budget.soft.map_or(soft, |s| s.min(soft)));
        budget.hard = Some(budget.hard.map_or(hard, |h| h.min(hard)));
    }
    budget
}

/// Signals between a front end and a running search (shared through a
/// [`StopHandle`](super::StopHandle)).
#[derive(Debug, Default)]
pub(crate) struct Control {
    stop: AtomicBool,
    pondering: AtomicBool,
    /// When a ponder search turned into a normal one.
    ponderhit_at: Mutex<Option<Instant>>,
}

impl Control {
    /// A fresh control for one search.
    pub(crate) fn new(pondering: bool) -> Control {
        Control {
            stop: AtomicBool::new(false),
            pondering: AtomicBool::new(pondering),
            ponderhit_at: Mutex::new(None),
        }
    }

    /// Asks the search to stop as soon as it can.
    pub(crate) fn stop(&self) {
        self.stop.store(true, Ordering::Relaxed);
    }

    /// Whether a stop was asked for.
    pub(crate) fn stopped(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }

    /// The ponder search becomes a normal timed search from now.
    pub(crate) fn ponderhit(&self) {
        if let Ok(mut at) = self.ponderhit_at.lock() {
            *at = Some(Instant::now());
        }
        self.pondering.store(false, Ordering::Relaxed);
    }

    /// Starts a search on this control: pondering or not. A stop asked for before stays.
    pub(crate) fn begin(&self, pondering: bool) {
        if let Ok(mut at) = self.ponderhit_at.lock() {
            *at = None;
        }
        self.pondering.store(pondering, Ordering::Relaxed);
    }

    pub(crate) fn is_pondering(&self) -> bool {
        self.pondering.load(Ordering::Relaxed)
    }

    /// When the clock started: at `ponderhit` for a pondered search, else at `search_start`.
    fn clock_start(&self, search_start: Instant) -> Instant {
        self.ponderhit_at
            .lock()
            .ok()
            .and_then(|at| *at)
            .unwrap_or(search_start)
    }
}

/// Every decision to end a search, in one place: its limits, the clock's plan, and the front
/// end's signals.
pub(crate) struct TimeManager {
    limits: Limits,
    control: Arc<Control>,
    budget: Budget,
    start: Instant,
    /// Whether the root has one move to search.
    forced: bool,
}

impl TimeManager {
    /// Plans a search of a root with `root_moves` moves to search, started now.
    pub(crate) fn new(
        limits: &Limits,
        control: &Arc<Control>,
        overhead: i64,
        root_moves: usize,
    ) -> TimeManager {
        TimeManager {
            limits: limits.clone(),
            control: Arc::clone(control),
            budget: plan(&limits.clock, overhead),
            start: Instant::now(),
            forced: root_moves == 1,
        }
    }

    /// The search's limits.
    pub(crate) fn limits(&self) -> &Limits {
        &self.limits
    }

    /// The time since the search started.
    pub(crate) fn elapsed(&self) -> Duration {
        self.start.elapsed()
    }

    /// Whether the front end asked for a stop.
    pub(crate) fn stop_requested(&self) -> bool {
        self.control.stopped()
    }

    fn elapsed_on_clock(&self) -> Duration {
        self.control.clock_start(self.start).elapsed()
    }

    /// The deepest iteration to search. A forced move is answered at once (one iteration,
    /// for its report) on a clock or with no limit at all, but not when the GUI asked for a
    /// depth, a node count, a move time, a mate or an unbounded search.
    pub(crate) fn max_depth(&self) -> u32 {
        let limits = &self.limits;
        let answers_forced_move_at_once = !limits.infinite
            && !limits.ponder
            && limits.depth.is_none()
            && limits.nodes.is_none()
            && limits.mate.is_none()
            && limits.clock.move_time.is_none();
        if self.forced && answers_forced_move_at_once {
            1
        } else {
            limits
                .depth
                .map_or(MAX_PLY as u32 - 8, |d| d.clamp(1, MAX_PLY as u32 - 8))
        }
    }

    /// Whether the search has a hard time limit (a clock or a move time).
    pub(crate) fn has_deadline(&self) -> bool {
        self.budget.hard.is_some()
    }

    /// Whether the hard time limit has passed (never while pondering).
    pub(crate) fn out_of_time(&self) -> bool {
        !self.control.is_pondering()
            && self
                .budget
                .hard
                .is_some_and(|hard| self.elapsed_on_clock() >= hard)
    }

    /// A forced move searched on a clock and not pondered or unbounded: a forced move after
    /// `ponderhit`, since one on a clock from the start is searched one iteration deep.
    pub(crate) fn forced_move_on_clock(&self) -> bool {
        self.forced
            && self.limits.clock.time.is_some()
            && !self.limits.infinite
            && !self.control.is_pondering()
    }

    /// Whether to end the search after an iteration of `depth` whose best score is `best`;
    /// `nodes` counts the nodes so far.
    pub(crate) fn stop_after_iteration(
        &self,
        depth: u32,
        best: i32,
        nodes: impl FnOnce() -> u64,
    ) -> bool {
        let limits = &self.limits;
        if let Some(mate) = limits.mate
            && best >= MATE_BOUND
            && (MATE - best) <= 2 * mate as i32
        {
            return true;
        }
        if limits.infinite || self.control.is_pondering() {
            return false;
        }
        // A proven result deep enough that more depth cannot change it.
        if best.abs() >= MATE_BOUND && (MATE - best.abs()) < depth as i32 {
            return true;
        }
        if self.forced_move_on_clock() {
            return true;
        }
        // The node limit does not cut the first iteration short (see `check_limits`).
        if let Some(limit) = limits.nodes
            && nodes() >= limit
        {
            return true;
        }
        // A fixed move time is used to its end (the hard limit stops the last iteration); only
        // a clock's budget is worth saving by not starting an iteration that cannot finish.
        let fixed_move_time = limits.clock.move_time.is_some() && limits.clock.time.is_none();
        if let Some(soft) = self.budget.soft.filter(|_| !fixed_move_time) {
            let used = self.elapsed_on_clock();
            if used.as_micros() * 100 >= soft.as_micros() * p::NEW_ITERATION_PERCENT as u128 {
                return true;
            }
        }
        false
    }

    /// Under `infinite` or while pondering, the answer waits for `stop` (or `ponderhit`).
    pub(crate) fn wait_while_unbounded(&self) {
        while !self.control.stopped() && (self.limits.infinite || self.control.is_pondering()) {
            std::thread::sleep(Duration::from_millis(1));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn movetime_is_used_less_a_small_margin_whatever_the_overhead() {
        for overhead in [0, 30, 1000] {
            let budget = plan(
                &Clock {
                    move_time: Some(100),
                    ..Clock::default()
                },
                overhead,
            );
            let expected = Duration::from_millis(100 - p::MOVE_TIME_MARGIN_MS as u64);
            assert_eq!(budget.hard, Some(expected), "overhead {overhead}");
            assert!(expected >= Duration::from_millis(90));
        }
        // With a clock as well, the clock's plan (less the overhead) can be the shorter.
        let both = plan(
            &Clock {
                time: Some(100),
                move_time: Some(100),
                ..Clock::default()
            },
            30,
        );
        assert!(both.hard.unwrap() <= Duration::from_millis(100 - 30 - p::SAFETY_MS as u64));
    }

    #[test]
    fn no_clock_means_no_limit() {
        assert_eq!(plan(&Clock::default(), 10), Budget::default());
    }

    #[test]
    fn an_overdrawn_clock_still_gets_a_tiny_budget() {
        let budget = plan(
            &Clock {
                time: Some(-50),
                ..Clock::default()
            },
            30,
        );
        assert_eq!(budget.hard, Some(Duration::from_millis(1)));
    }

    #[test]
    fn absurd_clocks_do_not_overflow() {
        for (time, increment, move_time) in [
            (Some(i64::MAX), Some(i64::MAX), None),
            (Some(i64::MIN), Some(i64::MIN), Some(i64::MIN)),
            (Some(1000), Some(i64::MAX), Some(i64::MAX)),
        ] {
            let budget = plan(
                &Clock {
                    time,
                    increment,
                    moves_to_go: Some(u64::MAX),
                    move_time,
                },
                i64::MAX,
            );
            assert!(budget.soft <= budget.hard);
        }
        // A huge clock is a long think, not a wrapped-around tiny one.
        let budget = plan(
            &Clock {
                time: Some(i64::MAX),
                ..Clock::default()
            },
            0,
        );
        assert!(budget.soft.unwrap() > Duration::from_secs(3600));
    }

    proptest! {
        #[test]
        fn the_hard_limit_never_overdraws_the_clock(time in 0i64..10_000_000, inc in 0i64..100_000, mtg in prop::option::of(1u64..100), overhead in 0i64..1000) {
            let budget = plan(&Clock { time: Some(time), increment: Some(inc), moves_to_go: mtg, move_time: None }, overhead);
            let hard = budget.hard.unwrap().as_millis() as i64;
            prop_assert!(hard <= (time - overhead - p::SAFETY_MS).max(1));
            prop_assert!(budget.soft.unwrap() <= budget.hard.unwrap());
        }
    }
}
