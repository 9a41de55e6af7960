//! Time controls and the referee's clocks.
//!
//! The referee measures each move from the moment its `go` line is written to the moment the
//! `bestmove` line is read, and never trusts what an engine says about time.

use std::time::Duration;

/// How an engine is limited in a match: its clock, depth and nodes (what a `go` line of the
/// referee says; the search itself takes [`crate::search::Limits`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct MoveLimits {
    /// The clock, if any.
    pub time: TimeControl,
    /// `go depth`.
    pub depth: Option<u32>,
    /// `go nodes`.
    pub nodes: Option<u64>,
}

/// The kind of clock.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum TimeControl {
    /// No clock: only `depth`/`nodes`, with the match's move timeout as a safety net.
    #[default]
    None,
    /// Base time plus increment, optionally repeating every `moves` moves.
    Clock {
        /// Moves per period (`40/60+0.5`), `None` for the whole game.
        moves: Option<u32>,
        /// Time per period, ms.
        base_ms: u64,
        /// Increment after each move, ms.
        increment_ms: u64,
    },
    /// A fixed time per move, ms.
    MoveTime(u64),
}

/// Seconds as written in a time control (`10`, `0.1`, `1:30`) to milliseconds.
fn seconds_to_ms(text: &str, what: &str) -> Result<u64, String> {
    let bad = || format!("--tc: {what} '{text}' is not a number of seconds");
    let seconds = match text.split_once(':') {
        Some((minutes, seconds)) => {
            let minutes: u64 = minutes.parse().map_err(|_| bad())?;
            let seconds: f64 = seconds.parse().map_err(|_| bad())?;
            minutes as f64 * 60.0 + seconds
        }
        None => text.parse::<f64>().map_err(|_| bad())?,
    };
    if !seconds.is_finite() || !(0.0..=1e9).contains(&seconds) {
        return Err(bad());
    }
    Ok((seconds * 1000.0).round() as u64)
}

/// Parses `--tc`: `[moves/]base[+increment]`, in seconds (`10+0.1`, `40/60`, `1:30+1`).
pub fn parse_tc(text: &str) -> Result<TimeControl, String> {
    let text = text.trim();
    let (moves, rest) = match text.split_once('/') {
        Some((moves, rest)) => {
            let moves: u32 =
                moves.parse().ok().filter(|&m| m > 0).ok_or_else(|| {
                    format!("--tc: '{moves}' is not a number of moves (in '{text}')")
                })?;
            (Some(moves), rest)
        }
        None => (None, text),
    };
    let (base, increment) = match rest.split_once('+') {
        Some((base, increment)) => (base, Some(increment)),
        None => (rest, None),
    };
    let base_ms = seconds_to_ms(base, "base time")?;
    let increment_ms = match increment {
        Some(inc) => seconds_to_ms(inc, "increment")?,
        None => 0,
    };
    if base_ms == 0 && increment_ms == 0 {
        return Err(format!("--tc '{text}' gives no time at all"));
    }
    Ok(TimeControl::Clock {
        moves,
        base_ms,
        increment_ms,
    })
}

/// Milliseconds as seconds with no trailing zeros (`100` -> `0.1`, `2000` -> `2`).
fn seconds_text(ms: u64) -> String {
    let text = format!("{}.{:03}", ms / 1000, ms % 1000);
    text.trim_end_matches('0').trim_end_matches('.').to_string()
}

impl TimeControl {
    /// The PGN `TimeControl` tag: `[moves/]base+inc` in seconds, `<s>/move` for a fixed
    /// move time, `-` for none.
    pub fn pgn_tag(&self) -> String {
        match *self {
            TimeControl::None => "-".to_string(),
            TimeControl::MoveTime(ms) => format!("{}/move", seconds_text(ms)),
            TimeControl::Clock {
                moves,
                base_ms,
                increment_ms,
            } => {
                let mut text = String::new();
                if let Some(moves) = moves {
                    text.push_str(&format!("{moves}/"));
                }
                text.push_str(&seconds_text(base_ms));
                if increment_ms > 0 {
                    text.push_str(&format!("+{}", seconds_text(increment_ms)));
                }
                text
            }
        }
    }
}

/// One player's clock during a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PlayerClock {
    /// Time left, microseconds (negative once flagged).
    remaining_us: i64,
    moves_in_period: u32,
    control: TimeControl,
}

impl PlayerClock {
    /// A fresh clock for a game.
    pub fn new(control: TimeControl) -> PlayerClock {
        let remaining_us = match control {
            TimeControl::Clock { base_ms, .. } => base_ms as i64 * 1000,
            _ => 0,
        };
        PlayerClock {
            remaining_us,
            moves_in_period: 0,
            control,
        }
    }

    /// Its time control.
    pub fn control(&self) -> TimeControl {
        self.control
    }

    /// The increment in ms (0 without a clock).
    pub fn increment_ms(&self) -> u64 {
        match self.control {
            TimeControl::Clock { increment_ms, .. } => increment_ms,
            _ => 0,
        }
    }

    /// Time left in ms for `go wtime`/`btime` (never negative).
    pub fn remaining_ms(&self) -> u64 {
        (self.remaining_us.max(0) / 1000) as u64
    }

    /// Moves until the next period for `movestogo` (repeating controls only).
    pub fn moves_to_go(&self) -> Option<u32> {
        match self.control {
            TimeControl::Clock { moves: Some(m), .. } => Some(m - self.moves_in_period % m),
            _ => None,
        }
    }

    /// The longest this move may take before it loses on time, grace included (`None`
    /// without a clock).
    pub fn allowance(&self, grace: Duration) -> Option<Duration> {
        match self.control {
            TimeControl::None => None,
            TimeControl::MoveTime(ms) => Some(Duration::from_millis(ms) + grace),
            TimeControl::Clock { .. } => {
                Some(Duration::from_micros(self.remaining_us.max(0) as u64) + grace)
            }
        }
    }

    /// Charges a move's time; returns `false` when the move came later than allowed.
    pub fn charge(&mut self, used: Duration, grace: Duration) -> bool {
        let allowed = self.allowance(grace);
        if let TimeControl::Clock {
            moves,
            base_ms,
            increment_ms,
        } = self.control
        {
            self.remaining_us -= used.as_micros().min(i64::MAX as u128) as i64;
            if self.remaining_us + grace.as_micros() as i64 >= 0 {
                self.remaining_us += increment_ms as i64 * 1000;
                self.moves_in_period += 1;
                if let Some(m) = moves
                    && self.moves_in_period.is_multiple_of(m)
                {
                    self.remaining_us += base_ms as i64 * 1000;
                }
            }
        }
        allowed.is_none_or(|allowed| used <= allowed)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn time_controls_parse() {
        assert_eq!(
            parse_tc("10+0.1"),
            Ok(TimeControl::Clock {
                moves: None,
                base_ms: 10_000,
                increment_ms: 100
            })
        );
        assert_eq!(
            parse_tc("40/1:30+0.5"),
            Ok(TimeControl::Clock {
                moves: Some(40),
                base_ms: 90_000,
                increment_ms: 500
            })
        );
        assert_eq!(parse_tc("2+0.05").unwrap().pgn_tag(), "2+0.05");
        assert_eq!(parse_tc("40/60").unwrap().pgn_tag(), "40/60");
        assert_eq!(TimeControl::MoveTime(250).pgn_tag(), "0.25/move");
        for bad in [
            "", "x", "10+", "+1", "0/10", "-1+0", "0+0", "1e400", "10+abc",
        ] {
            assert!(parse_tc(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn the_clock_charges_and_flags() {
        let grace = Duration::from_millis(50);
        let mut clock = PlayerClock::new(parse_tc("1+0.1").unwrap());
        assert!(clock.charge(Duration::from_millis(400), grace));
        assert_eq!(clock.remaining_ms(), 700);
        // 740 ms used with 700 left: within the grace, the clock shows 0 and gets the increment.
        assert!(clock.charge(Duration::from_millis(740), grace));
        assert_eq!(clock.remaining_ms(), 60);
        assert!(!clock.charge(Duration::from_millis(200), grace));
        let mut periods = PlayerClock::new(parse_tc("2/1").unwrap());
        assert_eq!(periods.moves_to_go(), Some(2));
        assert!(periods.charge(Duration::from_millis(300), grace));
        assert_eq!(periods.moves_to_go(), Some(1));
        assert!(periods.charge(Duration::from_millis(300), grace));
        assert_eq!(periods.remaining_ms(), 1400);
        let mut fixed = PlayerClock::new(TimeControl::MoveTime(100));
        assert!(fixed.charge(Duration::from_millis(140), grace));
        assert!(!fixed.charge(Duration::from_millis(160), grace));
    }
}
