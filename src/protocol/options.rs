//! Engine options: what `uci`/`ugi` advertise and what `setoption` may change. A bad name or
//! value is an error naming it, and the old value stays.

use crate::search::level::{self, Level};
use crate::variant::{Capture, Family, MangalaMove, Sowing, Variant, parse_on_off};

/// The most worker threads `Threads` accepts.
pub const MAX_THREADS: usize = 256;
/// The largest `Hash` in MiB (the machine's memory is the real limit: allocation failure is
/// reported, not fatal).
pub const MAX_HASH_MIB: usize = 65_536;
/// The largest `MultiPV`.
pub const MAX_MULTIPV: usize = 9;
/// `EvalFile`'s value for the net built into the binary (its default); `<empty>` is the
/// hand-crafted evaluation.
pub const EMBEDDED_NET: &str = "<embedded>";
/// The largest `Move Overhead` in ms.
pub const MAX_MOVE_OVERHEAD: i64 = 10_000;

/// The option values the engine runs with.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Options {
    /// The rules (UCI_Variant plus the switches).
    pub variant: Variant,
    /// Worker threads for perft (and search).
    pub threads: usize,
    /// Print moves in PlayOK long notation.
    pub long_moves: bool,
    /// Transposition table size in MiB.
    pub hash_mib: usize,
    /// Principal variations to report.
    pub multipv: usize,
    /// Whether the GUI may send `go ponder` (informative; pondering works either way).
    pub ponder: bool,
    /// Milliseconds kept in hand for GUI and transport latency.
    pub move_overhead: i64,
    /// Add `wdl W D L` (per mille) to `info` lines.
    pub show_wdl: bool,
    /// Play at the level of `elo` (UCI_LimitStrength), over `skill`.
    pub limit_strength: bool,
    /// UCI_Elo: the level's Elo when `limit_strength` is on.
    pub elo: u32,
    /// Skill Level: 0 to 19 on the same ladder as `elo`, 20 the full engine.
    pub skill: u32,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            variant: Variant::TOGYZ,
            threads: 1,
            long_moves: false,
            hash_mib: 16,
            multipv: 1,
            ponder: false,
            move_overhead: 30,
            show_wdl: false,
            limit_strength: false,
            elo: DEFAULT_ELO,
            skill: level::FULL_SKILL,
        }
    }
}

/// `UCI_Elo`'s default (used once `UCI_LimitStrength` is on).
pub const DEFAULT_ELO: u32 = 1500;

/// What a successful `setoption` changed, so the session can react.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Changed {
    /// The rules changed: the position goes back to the start.
    Rules,
    /// The table size changed.
    Hash,
    /// `Clear Hash` was pressed.
    ClearHash,
    /// Anything else.
    Other,
}

fn spin<T: std::str::FromStr + PartialOrd + std::fmt::Display + Copy>(
    name: &str,
    text: &str,
    min: T,
    max: T,
) -> Result<T, String> {
    match text.parse::<T>() {
        Ok(n) if n >= min && n <= max => Ok(n),
        _ => Err(format!(
            "bad value '{text}' for {name} (expected {min}..{max})"
        )),
    }
}

impl Options {
    /// The `option ...` lines of the handshake.
    pub fn advertise(&self) -> Vec<String> {
        let families: String = Family::ALL.iter().map(|f| format!(" var {f}")).collect();
        vec![
            format!(
                "option name UCI_Variant type combo default {}{families}",
                self.variant.family()
            ),
            format!(
                "option name Tuzdik type check default {}",
                self.variant.tuzdik()
            ),
            format!(
                "option name Sowing type combo default {} var standard var skip-origin",
                self.variant.sowing().name()
            ),
            format!(
                "option name Capture type combo default {} var standard var singleton",
                self.variant.capture().name()
            ),
            format!(
                "option name Mangala type combo default {} var leftmost var free-choice",
                self.variant.mangala_move().name()
            ),
            format!(
                "option name Threads type spin default {} min 1 max {MAX_THREADS}",
                self.threads
            ),
            format!(
                "option name LongMoves type check default {}",
                self.long_moves
            ),
            format!(
                "option name Hash type spin default {} min 1 max {MAX_HASH_MIB}",
                self.hash_mib
            ),
            "option name Clear Hash type button".to_string(),
            format!(
                "option name MultiPV type spin default {} min 1 max {MAX_MULTIPV}",
                self.multipv
            ),
            format!("option name Ponder type check default {}", self.ponder),
            format!(
                "option name UCI_ShowWDL type check default {}",
                self.show_wdl
            ),
            format!(
                "option name Move Overhead type spin default {} min 0 max {MAX_MOVE_OVERHEAD}",
                self.move_overhead
            ),
            format!(
                "option name UCI_LimitStrength type check default {}",
                self.limit_strength
            ),
            format!(
                "option name UCI_Elo type spin default {} min {} max {}",
                self.elo,
                level::MIN_ELO,
                level::MAX_ELO
            ),
            format!(
                "option name Skill Level type spin default {} min 0 max {}",
                self.skill,
                level::FULL_SKILL
            ),
            // Directories separated by ';'. The session loads them (see
            // `Session::set_table_path`): they are not an option value kept here.
            "option name TablePath type string default <empty>".to_string(),
            // A net file for Toguz Kumalak's evaluation; the session loads it (the engine
            // holds the net), so it is not an option value kept here either.
            format!("option name EvalFile type string default {EMBEDDED_NET}"),
        ]
    }

    /// Applies `setoption name <name> value <value>`.
    pub fn set(&mut self, name: &str, value: Option<&str>) -> Result<Changed, String> {
        fn need<'a>(name: &str, value: Option<&'a str>) -> Result<&'a str, String> {
            value
                .filter(|v| !v.is_empty())
                .ok_or_else(|| format!("option '{name}' needs a value"))
        }
        match name.to_ascii_lowercase().as_str() {
            "uci_variant" => {
                let family: Family = need(name, value)?.parse().map_err(|e| format!("{e}"))?;
                self.variant = Variant::new(family);
                Ok(Changed::Rules)
            }
            "tuzdik" => {
                self.variant
                    .check_switch("Tuzdik")
                    .map_err(|e| e.to_string())?;
                let on = parse_on_off("Tuzdik", need(name, value)?).map_err(|e| e.to_string())?;
                self.variant = self.variant.with_tuzdik(on);
                Ok(Changed::Rules)
            }
            "sowing" => {
                self.variant
                    .check_switch("Sowing")
                    .map_err(|e| e.to_string())?;
                let sowing: Sowing = need(name, value)?.parse().map_err(|e| format!("{e}"))?;
                self.variant = self.variant.with_sowing(sowing);
                Ok(Changed::Rules)
            }
            "capture" => {
                self.variant
                    .check_switch("Capture")
                    .map_err(|e| e.to_string())?;
                let capture: Capture = need(name, value)?.parse().map_err(|e| format!("{e}"))?;
                self.variant = self.variant.with_capture(capture);
                Ok(Changed::Rules)
            }
            "mangala" => {
                self.variant
                    .check_switch("Mangala")
                    .map_err(|e| e.to_string())?;
                let choice: MangalaMove = need(name, value)?.parse().map_err(|e| format!("{e}"))?;
                self.variant = self.variant.with_mangala_move(choice);
                Ok(Changed::Rules)
            }
            "threads" => {
                self.threads = spin("Threads", need(name, value)?, 1, MAX_THREADS)?;
                Ok(Changed::Other)
            }
            "hash" => {
                self.hash_mib = spin("Hash", need(name, value)?, 1, MAX_HASH_MIB)?;
                Ok(Changed::Hash)
            }
            "multipv" => {
                self.multipv = spin("MultiPV", need(name, value)?, 1, MAX_MULTIPV)?;
                Ok(Changed::Other)
            }
            "move overhead" => {
                self.move_overhead =
                    spin("Move Overhead", need(name, value)?, 0, MAX_MOVE_OVERHEAD)?;
                Ok(Changed::Other)
            }
            "ponder" => {
                self.ponder =
                    parse_on_off("Ponder", need(name, value)?).map_err(|e| e.to_string())?;
                Ok(Changed::Other)
            }
            "uci_showwdl" => {
                self.show_wdl =
                    parse_on_off("UCI_ShowWDL", need(name, value)?).map_err(|e| e.to_string())?;
                Ok(Changed::Other)
            }
            "uci_limitstrength" => {
                self.limit_strength = parse_on_off("UCI_LimitStrength", need(name, value)?)
                    .map_err(|e| e.to_string())?;
                Ok(Changed::Other)
            }
            "uci_elo" => {
                self.elo = spin(
                    "UCI_Elo",
                    need(name, value)?,
                    level::MIN_ELO,
                    level::MAX_ELO,
                )?;
                Ok(Changed::Other)
            }
            "skill level" => {
                self.skill = spin("Skill Level", need(name, value)?, 0, level::FULL_SKILL)?;
                Ok(Changed::Other)
            }
            "clear hash" => match value {
                None | Some("") => Ok(Changed::ClearHash),
                Some(v) => Err(format!(
                    "Clear Hash is a button and takes no value (got '{v}')"
                )),
            },
            "longmoves" => {
                self.long_moves =
                    parse_on_off("LongMoves", need(name, value)?).map_err(|e| e.to_string())?;
                Ok(Changed::Other)
            }
            _ => Err(format!("unknown option '{name}'")),
        }
    }

    /// The strength level the options ask for: `UCI_Elo` under `UCI_LimitStrength`, else
    /// `Skill Level` (`None`: the full engine).
    ///
    /// ```
    /// use tuzdik::protocol::options::Options;
    /// let mut options = Options::default();
    /// assert_eq!(options.level(), None);
    /// options.set("Skill Level", Some("5")).unwrap();
    /// assert_eq!(options.level().unwrap().elo(), 1300);
    /// options.set("UCI_LimitStrength", Some("true")).unwrap();
    /// options.set("UCI_Elo", Some("2000")).unwrap();
    /// assert_eq!(options.level().unwrap().elo(), 2000);
    /// ```
    pub fn level(&self) -> Option<Level> {
        let level = if self.limit_strength {
            Level::from_elo(i64::from(self.elo)).map(Some)
        } else {
            Level::from_skill(i64::from(self.skill))
        };
        // Both values were checked against the ladder when they were set.
        level.ok().flatten()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bad_values_keep_the_old_one() {
        let mut options = Options::default();
        assert!(options.set("Threads", Some("0")).is_err());
        assert!(options.set("Threads", Some("many")).is_err());
        assert!(options.set("threads", None).is_err());
        assert_eq!(options.threads, 1);
        assert_eq!(options.set("THREADS", Some("2")), Ok(Changed::Other));
        assert_eq!(options.threads, 2);
        assert!(options.set("UCI_Variant", Some("chess")).is_err());
        assert!(options.set("Sowing", Some("up")).is_err());
        assert_eq!(options.variant, Variant::TOGYZ);
        assert!(options.set("Colour", Some("red")).is_err());
        assert!(options.set("UCI_ShowWDL", Some("maybe")).is_err());
        assert!(options.set("UCI_ShowWDL", None).is_err());
        assert!(!options.show_wdl);
        assert_eq!(options.set("uci_showwdl", Some("true")), Ok(Changed::Other));
        assert!(options.show_wdl);
    }

    #[test]
    fn level_options_refuse_values_off_the_ladder_and_keep_the_old_one() {
        let mut options = Options::default();
        for (name, bad) in [
            ("UCI_Elo", "799"),
            ("UCI_Elo", "2701"),
            ("UCI_Elo", "strong"),
            ("Skill Level", "21"),
            ("Skill Level", "-1"),
            ("UCI_LimitStrength", "perhaps"),
        ] {
            let error = options.set(name, Some(bad)).unwrap_err();
            assert!(error.contains(name) && error.contains(bad), "{error}");
        }
        assert_eq!(options, Options::default());
        assert!(options.set("UCI_Elo", None).is_err());
        assert_eq!(options.set("uci_elo", Some("900")), Ok(Changed::Other));
        // The Elo counts only under UCI_LimitStrength.
        assert_eq!(options.level(), None);
        options.set("UCI_LimitStrength", Some("true")).unwrap();
        assert_eq!(options.level().map(|l| l.elo()), Some(900));
        options.set("UCI_LimitStrength", Some("false")).unwrap();
        options.set("skill level", Some("0")).unwrap();
        assert_eq!(options.level().map(|l| l.elo()), Some(level::MIN_ELO));
        options.set("Skill Level", Some("20")).unwrap();
        assert_eq!(options.level(), None);
    }

    #[test]
    fn a_variant_resets_the_switches() {
        let mut options = Options::default();
        options.set("Capture", Some("singleton")).unwrap();
        options.set("UCI_Variant", Some("kozdatu")).unwrap();
        assert_eq!(options.variant, Variant::new(Family::Kozdatu));
        options.set("Tuzdik", Some("true")).unwrap();
        assert!(options.variant.tuzdik());
        assert!(options.set("Mangala", Some("free-choice")).is_err());
        options.set("UCI_Variant", Some("mangala4")).unwrap();
        assert!(options.set("Tuzdik", Some("true")).is_err());
        assert!(options.set("Sowing", Some("skip-origin")).is_err());
        options.set("Mangala", Some("free-choice")).unwrap();
        assert_eq!(options.variant.mangala_move(), MangalaMove::FreeChoice);
    }
}
