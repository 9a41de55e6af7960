//! Time management: how long one move may take, from the clock the GUI sends.
//!
//! Two limits come out: a *soft* one (do not start another iteration past a share of it) and
//! a *hard* one (abort the search), the hard one always leaving `Move Overhead` plus a safety
//! margin on the clock so that the engine never loses on time.

use std::time::Duration;

use super::parameters::time as p;

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
    if let Some(move_time) = clock.move_time.map(sane) {
        let limit = millis((move_time - overhead).max(1));
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

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn movetime_is_kept_less_the_overhead() {
        let budget = plan(
            &Clock {
                move_time: Some(100),
                ..Clock::default()
            },
            10,
        );
        assert_eq!(budget.hard, Some(Duration::from_millis(90)));
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
