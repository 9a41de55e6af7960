//! Engine options: what `uci`/`ugi` advertise and what `setoption` may change. A bad name or
//! value is an error naming it, and the old value stays.

use crate::variant::{Capture, Family, Sowing, Variant, parse_on_off};

/// The most worker threads `Threads` accepts.
pub const MAX_THREADS: usize = 256;

/// The option values the engine runs with.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Options {
    /// The rules (UCI_Variant plus the switches).
    pub variant: Variant,
    /// Worker threads for perft (and search).
    pub threads: usize,
    /// Print moves in PlayOK long notation.
    pub long_moves: bool,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            variant: Variant::TOGYZ,
            threads: 1,
            long_moves: false,
        }
    }
}

/// What a successful `setoption` changed, so the session can react.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Changed {
    /// The rules changed: the position goes back to the start.
    Rules,
    /// Anything else.
    Other,
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
                "option name Threads type spin default {} min 1 max {MAX_THREADS}",
                self.threads
            ),
            format!(
                "option name LongMoves type check default {}",
                self.long_moves
            ),
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
                let on = parse_on_off("Tuzdik", need(name, value)?).map_err(|e| e.to_string())?;
                self.variant = self.variant.with_tuzdik(on);
                Ok(Changed::Rules)
            }
            "sowing" => {
                let sowing: Sowing = need(name, value)?.parse().map_err(|e| format!("{e}"))?;
                self.variant = self.variant.with_sowing(sowing);
                Ok(Changed::Rules)
            }
            "capture" => {
                let capture: Capture = need(name, value)?.parse().map_err(|e| format!("{e}"))?;
                self.variant = self.variant.with_capture(capture);
                Ok(Changed::Rules)
            }
            "threads" => {
                let text = need(name, value)?;
                match text.parse::<usize>() {
                    Ok(n) if (1..=MAX_THREADS).contains(&n) => {
                        self.threads = n;
                        Ok(Changed::Other)
                    }
                    _ => Err(format!(
                        "bad value '{text}' for Threads (expected 1..{MAX_THREADS})"
                    )),
                }
            }
            "longmoves" => {
                self.long_moves = parse_on_off("LongMoves", need(name, value)?)
                    .map_err(|e| e.to_string())?;
                Ok(Changed::Other)
            }
            _ => Err(format!("unknown option '{name}'")),
        }
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
    }

    #[test]
    fn a_variant_resets_the_switches() {
        let mut options = Options::default();
        options.set("Capture", Some("singleton")).unwrap();
        options.set("UCI_Variant", Some("kozdatu")).unwrap();
        assert_eq!(options.variant, Variant::new(Family::Kozdatu));
        options.set("Tuzdik", Some("true")).unwrap();
        assert!(options.variant.tuzdik());
    }
}
