//! Rule sets: board geometry, stone counts and the historical switches.
//!
//! Every rule question the engine asks goes through a [`Variant`], a one-byte value that is
//! stored inside each [`Position`](crate::Position). Nothing else in the crate branches on the
//! variant's name: geometry and switches are read from here.

use std::fmt;
use std::str::FromStr;

use thiserror::Error;

/// The game families of RULES.md.
///
/// ```
/// use tuzdik::Family;
/// assert_eq!("kozdatu".parse::<Family>().unwrap(), Family::Kozdatu);
/// assert_eq!(Family::Togyz.holes_per_side(), 9);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Family {
    /// Toguz Kumalak: 2x9, 9 stones a hole, tuzdiks.
    Togyz,
    /// Kozdatu: 2x7, 7 stones a hole, no tuzdik by default.
    Kozdatu,
    /// Bestemshchi: 2x5, 5 stones a hole, no tuzdik by default.
    Bestemshchi,
    /// Mangala IV (Gaziantep): 2x7, 7 counters a hole, relay sowing, no stores.
    Mangala4,
}

impl Family {
    /// Every family, in the order the protocol lists them.
    pub const ALL: [Family; 4] = [
        Family::Togyz,
        Family::Kozdatu,
        Family::Bestemshchi,
        Family::Mangala4,
    ];

    /// The Toguz Kumalak family: the variants with kazans, tuzdiks and the historical switches.
    pub const TOGUZ_FAMILY: [Family; 3] = [Family::Togyz, Family::Kozdatu, Family::Bestemshchi];

    /// The name used in `UCI_Variant`, records and on the command line.
    pub const fn name(self) -> &'static str {
        match self {
            Family::Togyz => "togyz",
            Family::Kozdatu => "kozdatu",
            Family::Bestemshchi => "bestemshchi",
            Family::Mangala4 => "mangala4",
        }
    }

    /// Whether this is Mangala IV (relay sowing) rather than the Toguz family.
    pub const fn is_mangala(self) -> bool {
        matches!(self, Family::Mangala4)
    }

    /// Holes in each player's row (N).
    pub const fn holes_per_side(self) -> usize {
        match self {
            Family::Togyz => 9,
            Family::Kozdatu | Family::Mangala4 => 7,
            Family::Bestemshchi => 5,
        }
    }

    /// Stones in each hole at the start.
    pub const fn stones_per_hole(self) -> u32 {
        self.holes_per_side() as u32
    }

    /// Whether the family plays with tuzdiks unless the switch says otherwise.
    pub const fn tuzdik_by_default(self) -> bool {
        matches!(self, Family::Togyz)
    }

    const fn code(self) -> u8 {
        match self {
            Family::Togyz => 0,
            Family::Kozdatu => 1,
            Family::Bestemshchi => 2,
            Family::Mangala4 => 3,
        }
    }

    const fn from_code(code: u8) -> Family {
        match code {
            1 => Family::Kozdatu,
            2 => Family::Bestemshchi,
            3 => Family::Mangala4,
            _ => Family::Togyz,
        }
    }
}

impl fmt::Display for Family {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Family {
    type Err = VariantError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Family::ALL
            .into_iter()
            .find(|family| family.name().eq_ignore_ascii_case(s))
            .ok_or_else(|| VariantError::UnknownVariant(s.to_string()))
    }
}

/// How a hole's stones are sown (RULES.md, historical switches).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Sowing {
    /// The first stone goes back into the emptied hole; later laps do not skip it.
    Standard,
    /// Sowing starts at the next hole and skips the origin on every lap.
    SkipOrigin,
}

impl Sowing {
    /// The switch value as written in options and variant specs.
    pub const fn name(self) -> &'static str {
        match self {
            Sowing::Standard => "standard",
            Sowing::SkipOrigin => "skip-origin",
        }
    }
}

impl FromStr for Sowing {
    type Err = VariantError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        [Sowing::Standard, Sowing::SkipOrigin]
            .into_iter()
            .find(|v| v.name().eq_ignore_ascii_case(s))
            .ok_or_else(|| VariantError::BadSwitch {
                switch: "Sowing",
                value: s.to_string(),
                expected: "standard or skip-origin",
            })
    }
}

/// When a landing on an even count captures (RULES.md, historical switches).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Capture {
    /// Any even count on the opponent's side is captured.
    Standard,
    /// Only a hole that held exactly one stone before the last stone fell (now 2).
    Singleton,
}

impl Capture {
    /// The switch value as written in options and variant specs.
    pub const fn name(self) -> &'static str {
        match self {
            Capture::Standard => "standard",
            Capture::Singleton => "singleton",
        }
    }
}

impl FromStr for Capture {
    type Err = VariantError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        [Capture::Standard, Capture::Singleton]
            .into_iter()
            .find(|v| v.name().eq_ignore_ascii_case(s))
            .ok_or_else(|| VariantError::BadSwitch {
                switch: "Capture",
                value: s.to_string(),
                expected: "standard or singleton",
            })
    }
}

/// How the mover chooses a hole in Mangala IV (RULES.md, Mangala IV rule 2).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MangalaMove {
    /// The leftmost occupied hole must be played: every game is forced.
    Leftmost,
    /// Any occupied hole of the mover's row.
    FreeChoice,
}

impl MangalaMove {
    /// The switch value as written in options and variant specs.
    pub const fn name(self) -> &'static str {
        match self {
            MangalaMove::Leftmost => "leftmost",
            MangalaMove::FreeChoice => "free-choice",
        }
    }
}

impl FromStr for MangalaMove {
    type Err = VariantError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        [MangalaMove::Leftmost, MangalaMove::FreeChoice]
            .into_iter()
            .find(|v| v.name().eq_ignore_ascii_case(s))
            .ok_or_else(|| VariantError::BadSwitch {
                switch: "Mangala",
                value: s.to_string(),
                expected: "leftmost or free-choice",
            })
    }
}

/// Errors from naming a variant or setting a switch.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum VariantError {
    /// The variant name is not one the engine knows.
    #[error("unknown variant '{0}' (expected togyz, kozdatu, bestemshchi or mangala4)")]
    UnknownVariant(String),
    /// A switch got a value it does not take.
    #[error("bad value '{value}' for {switch} (expected {expected})")]
    BadSwitch {
        /// The switch's name.
        switch: &'static str,
        /// The value given.
        value: String,
        /// What the switch takes.
        expected: &'static str,
    },
    /// A token of a variant spec is not `key=value` with a known key.
    #[error("unknown rule switch '{0}' (expected tuzdik=, sowing=, capture= or mangala=)")]
    UnknownSwitch(String),
    /// A switch that the variant does not have.
    #[error("{switch} does not apply to {family} ({})", if family.is_mangala() { "its only switch is Mangala" } else { "Mangala applies to mangala4 only" })]
    NotApplicable {
        /// The switch's name.
        switch: &'static str,
        /// The variant.
        family: Family,
    },
    /// The spec was empty.
    #[error("empty variant spec")]
    Empty,
}

/// A complete rule set: a [`Family`] plus the three switches, packed into one byte.
///
/// ```
/// use tuzdik::{Capture, Family, Sowing, Variant};
/// let v = Variant::new(Family::Kozdatu).with_tuzdik(true);
/// assert_eq!(v.total_stones(), 98);
/// assert_eq!(v.win_threshold(), 50);
/// assert_eq!(v.to_string(), "kozdatu tuzdik=on");
/// let w: Variant = "togyz sowing=skip-origin capture=singleton".parse().unwrap();
/// assert_eq!(w.sowing(), Sowing::SkipOrigin);
/// assert_eq!(w.capture(), Capture::Singleton);
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Variant(u8);

const TUZDIK_BIT: u8 = 1 << 2;
const SKIP_ORIGIN_BIT: u8 = 1 << 3;
const SINGLETON_BIT: u8 = 1 << 4;
const FREE_CHOICE_BIT: u8 = 1 << 5;
const FAMILY_MASK: u8 = 0b11;

impl Variant {
    /// Toguz Kumalak with standard switches.
    pub const TOGYZ: Variant = Variant::new(Family::Togyz);

    /// A family with its default switches.
    pub const fn new(family: Family) -> Variant {
        let tuzdik = if family.tuzdik_by_default() {
            TUZDIK_BIT
        } else {
            0
        };
        Variant(family.code() | tuzdik)
    }

    /// The same rules with the tuzdik switched on or off.
    #[must_use]
    pub const fn with_tuzdik(self, on: bool) -> Variant {
        if self.is_mangala() {
            return self;
        }
        Variant(if on {
            self.0 | TUZDIK_BIT
        } else {
            self.0 & !TUZDIK_BIT
        })
    }

    /// The same rules with another sowing switch.
    #[must_use]
    pub const fn with_sowing(self, sowing: Sowing) -> Variant {
        if self.is_mangala() {
            return self;
        }
        Variant(match sowing {
            Sowing::Standard => self.0 & !SKIP_ORIGIN_BIT,
            Sowing::SkipOrigin => self.0 | SKIP_ORIGIN_BIT,
        })
    }

    /// The same rules with another capture switch.
    #[must_use]
    pub const fn with_capture(self, capture: Capture) -> Variant {
        if self.is_mangala() {
            return self;
        }
        Variant(match capture {
            Capture::Standard => self.0 & !SINGLETON_BIT,
            Capture::Singleton => self.0 | SINGLETON_BIT,
        })
    }

    /// The family.
    pub const fn family(self) -> Family {
        Family::from_code(self.0 & FAMILY_MASK)
    }

    /// Holes in each row (N).
    #[inline(always)]
    pub const fn holes_per_side(self) -> usize {
        self.family().holes_per_side()
    }

    /// Holes in the sowing ring (2N).
    #[inline(always)]
    pub const fn ring_len(self) -> usize {
        2 * self.holes_per_side()
    }

    /// Stones in each hole at the start.
    pub const fn stones_per_hole(self) -> u32 {
        self.family().stones_per_hole()
    }

    /// All stones in the game.
    pub const fn total_stones(self) -> u32 {
        self.stones_per_hole() * self.ring_len() as u32
    }

    /// A kazan holding this many stones (more than half) wins at once. Mangala IV has no such
    /// rule (its game ends with an empty board): there the threshold is out of reach.
    pub const fn win_threshold(self) -> u32 {
        if self.is_mangala() {
            self.total_stones() + 1
        } else {
            self.total_stones() / 2 + 1
        }
    }

    /// Whether tuzdiks can be made.
    #[inline(always)]
    pub const fn tuzdik(self) -> bool {
        self.0 & TUZDIK_BIT != 0
    }

    /// The sowing switch.
    #[inline(always)]
    pub const fn sowing(self) -> Sowing {
        if self.0 & SKIP_ORIGIN_BIT != 0 {
            Sowing::SkipOrigin
        } else {
            Sowing::Standard
        }
    }

    /// Whether this is Mangala IV.
    #[inline(always)]
    pub const fn is_mangala(self) -> bool {
        self.0 & FAMILY_MASK == 3
    }

    /// The Mangala IV move switch (always `Leftmost` outside Mangala IV).
    #[inline(always)]
    pub const fn mangala_move(self) -> MangalaMove {
        if self.0 & FREE_CHOICE_BIT != 0 {
            MangalaMove::FreeChoice
        } else {
            MangalaMove::Leftmost
        }
    }

    /// The same rules with another Mangala IV move switch (no effect on other families).
    #[must_use]
    pub const fn with_mangala_move(self, choice: MangalaMove) -> Variant {
        if !self.is_mangala() {
            return self;
        }
        Variant(match choice {
            MangalaMove::Leftmost => self.0 & !FREE_CHOICE_BIT,
            MangalaMove::FreeChoice => self.0 | FREE_CHOICE_BIT,
        })
    }

    /// Checks that a switch exists in this variant's family: `Tuzdik`, `Sowing` and `Capture`
    /// belong to the Toguz family, `Mangala` to Mangala IV.
    pub fn check_switch(self, switch: &'static str) -> Result<(), VariantError> {
        let mangala_switch = switch.eq_ignore_ascii_case("mangala");
        if mangala_switch != self.is_mangala() {
            return Err(VariantError::NotApplicable {
                switch,
                family: self.family(),
            });
        }
        Ok(())
    }

    /// The capture switch.
    #[inline(always)]
    pub const fn capture(self) -> Capture {
        if self.0 & SINGLETON_BIT != 0 {
            Capture::Singleton
        } else {
            Capture::Standard
        }
    }

    /// The packed byte (six bits used): a stable code for hashing.
    #[inline(always)]
    pub(crate) const fn code(self) -> u8 {
        self.0
    }

    /// Whether every switch is at the family's default.
    pub const fn is_default(self) -> bool {
        self.0 == Variant::new(self.family()).0
    }
}

impl Default for Variant {
    fn default() -> Self {
        Variant::TOGYZ
    }
}

impl fmt::Debug for Variant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Variant({self})")
    }
}

/// The spec form: the family name followed by every switch that differs from its default,
/// e.g. `togyz`, `kozdatu tuzdik=on`, `bestemshchi sowing=skip-origin capture=singleton`.
impl fmt::Display for Variant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let family = self.family();
        f.write_str(family.name())?;
        if self.tuzdik() != family.tuzdik_by_default() {
            write!(f, " tuzdik={}", if self.tuzdik() { "on" } else { "off" })?;
        }
        if self.sowing() != Sowing::Standard {
            write!(f, " sowing={}", self.sowing().name())?;
        }
        if self.capture() != Capture::Standard {
            write!(f, " capture={}", self.capture().name())?;
        }
        if self.mangala_move() != MangalaMove::Leftmost {
            write!(f, " mangala={}", self.mangala_move().name())?;
        }
        Ok(())
    }
}

/// Parses a boolean switch value: `on`/`off`, `true`/`false`, `1`/`0`, `yes`/`no`.
pub fn parse_on_off(switch: &'static str, value: &str) -> Result<bool, VariantError> {
    match value.to_ascii_lowercase().as_str() {
        "on" | "true" | "1" | "yes" => Ok(true),
        "off" | "false" | "0" | "no" => Ok(false),
        _ => Err(VariantError::BadSwitch {
            switch,
            value: value.to_string(),
            expected: "on or off",
        }),
    }
}

/// Parses the spec form written by `Display` (switches in any order, case-insensitive).
impl FromStr for Variant {
    type Err = VariantError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let mut tokens = s.split_whitespace();
        let family: Family = tokens.next().ok_or(VariantError::Empty)?.parse()?;
        let mut variant = Variant::new(family);
        for token in tokens {
            let (key, value) = token
                .split_once('=')
                .ok_or_else(|| VariantError::UnknownSwitch(token.to_string()))?;
            variant = match key.to_ascii_lowercase().as_str() {
                "tuzdik" => {
                    variant.check_switch("Tuzdik")?;
                    variant.with_tuzdik(parse_on_off("Tuzdik", value)?)
                }
                "sowing" => {
                    variant.check_switch("Sowing")?;
                    variant.with_sowing(value.parse()?)
                }
                "capture" => {
                    variant.check_switch("Capture")?;
                    variant.with_capture(value.parse()?)
                }
                "mangala" => {
                    variant.check_switch("Mangala")?;
                    variant.with_mangala_move(value.parse()?)
                }
                _ => return Err(VariantError::UnknownSwitch(token.to_string())),
            };
        }
        Ok(variant)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn geometry_per_family() {
        let expected = [(9, 162, 82), (7, 98, 50), (5, 50, 26), (7, 98, 99)];
        for (family, (n, total, win)) in Family::ALL.into_iter().zip(expected) {
            let v = Variant::new(family);
            assert_eq!(v.holes_per_side(), n);
            assert_eq!(v.total_stones(), total);
            assert_eq!(v.win_threshold(), win);
        }
    }

    #[test]
    fn defaults_follow_the_family() {
        assert!(Variant::new(Family::Togyz).tuzdik());
        assert!(!Variant::new(Family::Kozdatu).tuzdik());
        assert!(!Variant::new(Family::Bestemshchi).tuzdik());
        assert!(Variant::new(Family::Kozdatu).is_default());
        assert!(!Variant::new(Family::Kozdatu).with_tuzdik(true).is_default());
    }

    #[test]
    fn every_combination_round_trips_through_its_spec() {
        for family in Family::TOGUZ_FAMILY {
            for tuzdik in [false, true] {
                for sowing in [Sowing::Standard, Sowing::SkipOrigin] {
                    for capture in [Capture::Standard, Capture::Singleton] {
                        let v = Variant::new(family)
                            .with_tuzdik(tuzdik)
                            .with_sowing(sowing)
                            .with_capture(capture);
                        assert_eq!(v.family(), family);
                        assert_eq!(v.tuzdik(), tuzdik);
                        assert_eq!(v.sowing(), sowing);
                        assert_eq!(v.capture(), capture);
                        assert_eq!(v.to_string().parse::<Variant>().unwrap(), v);
                    }
                }
            }
        }
    }

    #[test]
    fn bad_specs_name_the_problem() {
        assert_eq!(
            "chess".parse::<Variant>(),
            Err(VariantError::UnknownVariant("chess".into()))
        );
        assert!(matches!(
            "togyz sowing=sideways".parse::<Variant>(),
            Err(VariantError::BadSwitch {
                switch: "Sowing",
                ..
            })
        ));
        assert_eq!(
            "togyz colour=red".parse::<Variant>(),
            Err(VariantError::UnknownSwitch("colour=red".into()))
        );
        assert_eq!("  ".parse::<Variant>(), Err(VariantError::Empty));
        assert!(matches!(
            "mangala4 tuzdik=on".parse::<Variant>(),
            Err(VariantError::NotApplicable {
                switch: "Tuzdik",
                ..
            })
        ));
        assert!(matches!(
            "togyz mangala=free-choice".parse::<Variant>(),
            Err(VariantError::NotApplicable {
                switch: "Mangala",
                ..
            })
        ));
    }

    #[test]
    fn mangala_switch_round_trips() {
        let free: Variant = "mangala4 mangala=free-choice".parse().unwrap();
        assert!(free.is_mangala());
        assert_eq!(free.mangala_move(), MangalaMove::FreeChoice);
        assert_eq!(free.to_string(), "mangala4 mangala=free-choice");
        let leftmost = Variant::new(Family::Mangala4);
        assert_eq!(leftmost.to_string(), "mangala4");
        assert!(!leftmost.tuzdik());
        assert_eq!(leftmost.with_tuzdik(true), leftmost);
        assert_ne!(free.code(), leftmost.code());
    }
}
