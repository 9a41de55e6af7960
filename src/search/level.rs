//! Strength levels: the engine playing weaker, the way a person does. A [`Level`] searches
//! fewer nodes (a shallower search misses what lies deeper, as a person's reading does), now
//! and then makes a hasty move on a much smaller budget, and chooses among its best candidate
//! moves (MultiPV) at random, a candidate's chance falling with the win expectation it gives
//! up against the best one: a close second choice is played often, a move that throws the
//! game away almost never, and a stronger level is pickier.
//!
//! Levels are named by an Elo (`UCI_Elo`, [`MIN_ELO`] to [`MAX_ELO`]) anchored to PlayOK's
//! ratings by the win expectation players of each rating lose per move (see
//! `docs/levels.md`), or by a skill level (`Skill Level` 0 to 19 on the same ladder, 100 Elo
//! a step; 20 is the full engine, that is no level).
//!
//! The choice is reproducible: its random draws come from the position's key and the level's
//! seed, so a level answers a position the same way under a node limit.

use crate::game::Game;
use crate::moves::Move;
use crate::position::Position;
use crate::rng::SplitMix;
use crate::search::{Info, Limits, Report, SearchResult, calibration};

/// The weakest level's Elo (`Skill Level` 0).
pub const MIN_ELO: u32 = 800;
/// The strongest level's Elo (`Skill Level` 19); stronger is the full engine.
pub const MAX_ELO: u32 = 2700;
/// Elo between two skill levels.
pub const ELO_PER_SKILL: u32 = 100;
/// The full engine's skill level (`Skill Level`'s maximum and default).
pub const FULL_SKILL: u32 = 20;
/// Principal variations a level searches to choose among (at least the MultiPV asked for).
pub const CANDIDATES: usize = 4;

/// One rung of the ladder the levels are interpolated on.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Rung {
    elo: u32,
    /// Nodes a move.
    nodes: u64,
    /// The noise on the choice: a candidate's weight is `exp(-gap / temperature)` for the
    /// win expectation (0..1) it gives up against the best candidate.
    temperature: f64,
    /// The chance of a hasty move, searched on [`HASTY_SHARE`] of the nodes.
    hasty: f64,
}

/// A hasty move's share of a level's nodes.
const HASTY_SHARE: u64 = 16;

/// The ladder (see `docs/levels.md`): placed so that Elo 1240 loses as much win expectation
/// per move as PlayOK's players rated 1200-1299 (measured by `tuzdik levels`), and spaced by
/// matches between levels so that 100 UCI_Elo is about 100 Elo.
const LADDER: [Rung; 9] = [
    Rung {
        elo: 800,
        nodes: 65,
        temperature: 0.14,
        hasty: 0.22,
    },
    Rung {
        elo: 1000,
        nodes: 210,
        temperature: 0.083,
        hasty: 0.14,
    },
    Rung {
        elo: 1250,
        nodes: 620,
        temperature: 0.039,
        hasty: 0.085,
    },
    Rung {
        elo: 1500,
        nodes: 1_200,
        temperature: 0.029,
        hasty: 0.07,
    },
    Rung {
        elo: 1750,
        nodes: 5_000,
        temperature: 0.0165,
        hasty: 0.04,
    },
    Rung {
        elo: 2000,
        nodes: 18_500,
        temperature: 0.011,
        hasty: 0.024,
    },
    Rung {
        elo: 2250,
        nodes: 45_000,
        temperature: 0.0077,
        hasty: 0.014,
    },
    Rung {
        elo: 2500,
        nodes: 96_000,
        temperature: 0.0058,
        hasty: 0.01,
    },
    Rung {
        elo: 2700,
        nodes: 600_000,
        temperature: 0.0026,
        hasty: 0.0,
    },
];

/// Why a level was refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum LevelError {
    /// An Elo off the ladder.
    #[error("Elo {0} is outside {MIN_ELO}..{MAX_ELO}")]
    EloOutOfRange(i64),
    /// A skill level above the full engine's.
    #[error("skill level {0} is outside 0..{FULL_SKILL}")]
    SkillOutOfRange(i64),
}

/// A strength level: how many nodes the engine searches, how often it hurries and how much
/// noise is on its choice among its best moves.
///
/// ```
/// use tuzdik::search::level::{Level, MAX_ELO, MIN_ELO};
/// let beginner = Level::from_skill(0).unwrap().unwrap();
/// assert_eq!(beginner.elo(), MIN_ELO);
/// // Skill level 20 is the full engine: no level at all.
/// assert_eq!(Level::from_skill(20), Ok(None));
/// let club = Level::from_elo(1500).unwrap();
/// assert_eq!(club.skill(), 7);
/// assert!(club.nodes() > beginner.nodes());
/// assert!(club.temperature() < beginner.temperature());
/// assert!(Level::from_elo(i64::from(MAX_ELO) + 1).is_err());
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Level {
    elo: u32,
    seed: u64,
}

impl Level {
    /// The level of this Elo ([`MIN_ELO`] to [`MAX_ELO`]).
    pub fn from_elo(elo: i64) -> Result<Level, LevelError> {
        if !(i64::from(MIN_ELO)..=i64::from(MAX_ELO)).contains(&elo) {
            return Err(LevelError::EloOutOfRange(elo));
        }
        Ok(Level {
            elo: elo as u32,
            seed: 0,
        })
    }

    /// The level of a skill level (0 to [`FULL_SKILL`]): `None` for the full engine.
    pub fn from_skill(skill: i64) -> Result<Option<Level>, LevelError> {
        if !(0..=i64::from(FULL_SKILL)).contains(&skill) {
            return Err(LevelError::SkillOutOfRange(skill));
        }
        if skill == i64::from(FULL_SKILL) {
            return Ok(None);
        }
        Level::from_elo(i64::from(MIN_ELO) + skill * i64::from(ELO_PER_SKILL)).map(Some)
    }

    /// A level given as one number (`play --level`, Python's `level=`): up to [`FULL_SKILL`]
    /// a skill level, from [`MIN_ELO`] an Elo; `None` (no number) is the full engine.
    ///
    /// ```
    /// use tuzdik::search::level::Level;
    /// assert_eq!(Level::from_skill_or_elo(Some(3)).unwrap().unwrap().elo(), 1100);
    /// assert_eq!(Level::from_skill_or_elo(Some(1100)).unwrap().unwrap().skill(), 3);
    /// assert_eq!(Level::from_skill_or_elo(Some(20)), Ok(None));
    /// assert!(Level::from_skill_or_elo(Some(300)).unwrap_err().contains("300"));
    /// ```
    pub fn from_skill_or_elo(number: Option<i64>) -> Result<Option<Level>, String> {
        match number {
            None => Ok(None),
            Some(skill) if skill <= i64::from(FULL_SKILL) => {
                Level::from_skill(skill).map_err(|e| e.to_string())
            }
            Some(elo) => Level::from_elo(elo).map(Some).map_err(|_| {
                format!(
                    "{elo} is neither a skill level 0..{FULL_SKILL} nor an Elo {MIN_ELO}..{MAX_ELO}"
                )
            }),
        }
    }

    /// The same level with other random draws (0 is the default).
    ///
    /// ```
    /// use tuzdik::search::level::Level;
    /// let level = Level::from_elo(1200).unwrap();
    /// assert_ne!(level.with_seed(7), level);
    /// assert_eq!(level.with_seed(7).elo(), 1200);
    /// ```
    pub fn with_seed(self, seed: u64) -> Level {
        Level { seed, ..self }
    }

    /// The level's Elo.
    pub fn elo(&self) -> u32 {
        self.elo
    }

    /// The nearest skill level (0 to 19).
    pub fn skill(&self) -> u32 {
        (self.elo - MIN_ELO + ELO_PER_SKILL / 2) / ELO_PER_SKILL
    }

    /// The seed of the level's random draws.
    pub fn seed(&self) -> u64 {
        self.seed
    }

    /// Where the level sits between the two rungs around it.
    fn between(&self) -> (Rung, Rung, f64) {
        let upper = LADDER
            .iter()
            .position(|rung| rung.elo >= self.elo)
            .unwrap_or(LADDER.len() - 1)
            .max(1);
        let (low, high) = (LADDER[upper - 1], LADDER[upper]);
        let share = f64::from(self.elo.saturating_sub(low.elo)) / f64::from(high.elo - low.elo);
        (low, high, share.clamp(0.0, 1.0))
    }

    /// Nodes a move (interpolated geometrically between the rungs).
    pub fn nodes(&self) -> u64 {
        let (low, high, share) = self.between();
        let log = (low.nodes as f64).ln() * (1.0 - share) + (high.nodes as f64).ln() * share;
        log.exp().round() as u64
    }

    /// The noise on the choice among the candidates, in win expectation (0..1).
    pub fn temperature(&self) -> f64 {
        let (low, high, share) = self.between();
        low.temperature * (1.0 - share) + high.temperature * share
    }

    /// The chance that a move is hasty: searched on a sixteenth of the nodes.
    pub fn hasty(&self) -> f64 {
        let (low, high, share) = self.between();
        low.hasty * (1.0 - share) + high.hasty * share
    }

    /// The random draws for a position: whether the move is hasty, and a number in `0..1` for
    /// the choice.
    fn draws(&self, pos: &Position) -> (bool, f64) {
        let mut rng = SplitMix::new(pos.key() ^ self.seed.rotate_left(17) ^ u64::from(self.elo));
        let unit = |bits: u64| (bits >> 11) as f64 / (1u64 << 53) as f64;
        let hasty = unit(rng.next_u64()) < self.hasty();
        (hasty, unit(rng.next_u64()))
    }

    /// The limits a level searches under: the caller's, with the level's node budget.
    pub fn limits(&self, limits: &Limits, hasty: bool) -> Limits {
        let budget = if hasty {
            (self.nodes() / HASTY_SHARE).max(1)
        } else {
            self.nodes()
        };
        Limits {
            nodes: Some(limits.nodes.map_or(budget, |nodes| nodes.min(budget))),
            ..limits.clone()
        }
    }

    /// Chooses among candidates, given as their win expectations (0..1, from the side to
    /// move's view) in any order, with `draw` in `0..1`: the index of the chosen one. A
    /// candidate's weight is `exp(-gap / temperature)` for its gap to the best.
    ///
    /// ```
    /// use tuzdik::search::level::Level;
    /// let level = Level::from_elo(1200).unwrap();
    /// // A close second is played now and then, a losing move practically never.
    /// let close = [0.60, 0.58, 0.05];
    /// assert_eq!(level.choose(&close, 0.0), 0);
    /// assert_eq!(level.choose(&close, 0.99), 1);
    /// ```
    pub fn choose(&self, expectations: &[f64], draw: f64) -> usize {
        let best = expectations.iter().copied().fold(f64::MIN, f64::max);
        let temperature = self.temperature().max(1e-9);
        let weights: Vec<f64> = expectations
            .iter()
            .map(|&e| (-(best - e) / temperature).exp())
            .collect();
        let total: f64 = weights.iter().sum();
        let mut left = draw.clamp(0.0, 1.0) * total;
        for (index, weight) in weights.iter().enumerate() {
            if left < *weight {
                return index;
            }
            left -= weight;
        }
        expectations
            .iter()
            .position(|&e| e == best)
            .unwrap_or_default()
    }
}

/// A search at a level: the engine's search (`search`, given the limits and the number of
/// principal variations) under the level's node budget, over at least [`CANDIDATES`] lines,
/// then a choice among the lines of the last report. `on_info` sees the lines the caller asked
/// for (`multipv`); the outcome's move and ponder move are the chosen line's, its report
/// the first line's.
pub(crate) fn search_at(
    level: &Level,
    game: &Game,
    limits: &Limits,
    multipv: usize,
    search: impl FnOnce(&Limits, usize, &mut dyn FnMut(Info)) -> SearchResult,
    on_info: &mut dyn FnMut(Info),
) -> SearchResult {
    let (hasty, draw) = level.draws(game.position());
    let mut lines: Vec<Report> = Vec::new();
    let mut outcome = search(
        &level.limits(limits, hasty),
        multipv.max(CANDIDATES),
        &mut |info| {
            if let Info::Line(report) = &info
                && report.bound.is_none()
                && !report.pv.is_empty()
            {
                let slot = report.multipv - 1;
                if lines.len() <= slot {
                    lines.resize(slot + 1, report.clone());
                }
                lines[slot] = report.clone();
            }
            match &info {
                Info::Line(report) if report.multipv > multipv => {}
                _ => on_info(info),
            }
        },
    );
    // Each line's last complete report (an unfinished last iteration leaves some lines one
    // iteration behind), each move once.
    let mut candidates: Vec<(Move, &Report)> = Vec::new();
    for line in &lines {
        if !candidates.iter().any(|(mv, _)| *mv == line.pv[0]) {
            candidates.push((line.pv[0], line));
        }
    }
    if candidates.len() > 1 {
        let expectations: Vec<f64> = candidates
            .iter()
            .map(|(_, line)| calibration::win_expectation(line.shown(game.position()).1))
            .collect();
        let (mv, line) = candidates[level.choose(&expectations, draw)];
        outcome.best = Some(mv);
        outcome.ponder = line.pv.get(1).copied();
    }
    outcome
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::Engine;
    use crate::variant::Variant;
    use proptest::prelude::*;

    #[test]
    fn skill_levels_and_elos_name_the_same_ladder() {
        for skill in 0..FULL_SKILL {
            let level = Level::from_skill(i64::from(skill)).unwrap().unwrap();
            assert_eq!(level.skill(), skill);
            assert_eq!(level.elo(), MIN_ELO + skill * ELO_PER_SKILL);
        }
        assert_eq!(Level::from_skill(19).unwrap().unwrap().elo(), MAX_ELO);
        assert_eq!(Level::from_skill(20), Ok(None));
        assert_eq!(Level::from_skill(21), Err(LevelError::SkillOutOfRange(21)));
        assert_eq!(Level::from_skill(-1), Err(LevelError::SkillOutOfRange(-1)));
        assert_eq!(Level::from_elo(799), Err(LevelError::EloOutOfRange(799)));
        assert_eq!(Level::from_elo(1249).unwrap().skill(), 4);
        assert_eq!(Level::from_elo(1250).unwrap().skill(), 5);
    }

    #[test]
    fn the_ladder_rises() {
        assert_eq!(LADDER[0].elo, MIN_ELO);
        assert_eq!(LADDER[LADDER.len() - 1].elo, MAX_ELO);
        for pair in LADDER.windows(2) {
            assert!(pair[0].elo < pair[1].elo);
        }
    }

    proptest! {
        #[test]
        fn a_stronger_level_searches_more_and_errs_less(a in MIN_ELO..=MAX_ELO, b in MIN_ELO..=MAX_ELO) {
            let (weak, strong) = (a.min(b), a.max(b));
            let weak = Level::from_elo(i64::from(weak)).unwrap();
            let strong = Level::from_elo(i64::from(strong)).unwrap();
            prop_assert!(weak.nodes() <= strong.nodes());
            prop_assert!(weak.temperature() >= strong.temperature());
            prop_assert!(weak.hasty() >= strong.hasty());
            prop_assert!(strong.nodes() >= 1 && strong.temperature() > 0.0);
        }

        #[test]
        fn the_choice_is_a_candidate_and_the_best_is_likeliest(
            expectations in proptest::collection::vec(0.0f64..=1.0, 1..9),
            draw in 0.0f64..1.0,
            elo in MIN_ELO..=MAX_ELO,
        ) {
            let level = Level::from_elo(i64::from(elo)).unwrap();
            let chosen = level.choose(&expectations, draw);
            prop_assert!(chosen < expectations.len());
            // The best candidate has the largest weight, so a draw of 0 lands on it when it
            // comes first.
            let best = expectations.iter().copied().fold(f64::MIN, f64::max);
            let mut sorted = expectations.clone();
            sorted.sort_by(|a, b| b.total_cmp(a));
            prop_assert_eq!(sorted[level.choose(&sorted, 0.0)], best);
        }

        #[test]
        fn a_stronger_level_gives_up_less_on_average(a in MIN_ELO..=MAX_ELO, b in MIN_ELO..=MAX_ELO) {
            let expectations = [0.7, 0.66, 0.55, 0.3];
            let loss = |elo: u32| {
                let level = Level::from_elo(i64::from(elo)).unwrap();
                (0..200)
                    .map(|i| 0.7 - expectations[level.choose(&expectations, (i as f64 + 0.5) / 200.0)])
                    .sum::<f64>()
            };
            prop_assert!(loss(a.max(b)) <= loss(a.min(b)) + 1e-9);
        }
    }

    #[test]
    fn a_weak_level_plays_legal_moves_and_not_always_the_best() {
        let mut full = Engine::new();
        let mut weak = Engine::new();
        weak.set_level(Some(Level::from_elo(1000).unwrap()));
        let limits = Limits {
            nodes: Some(2_000),
            ..Limits::default()
        };
        let mut game = Game::new(Variant::TOGYZ);
        let mut differed = 0;
        for _ in 0..40 {
            if game.termination().is_some() {
                break;
            }
            let chosen = weak.search(&game, &limits, |_| {}).best.unwrap();
            assert!(game.legal_moves().contains(&chosen));
            if full.search(&game, &limits, |_| {}).best != Some(chosen) {
                differed += 1;
            }
            game.try_play(chosen).unwrap();
        }
        assert!(differed > 0);
    }

    #[test]
    fn a_level_answers_a_position_the_same_way_and_shows_the_lines_asked_for() {
        let game = Game::new(Variant::TOGYZ);
        let limits = Limits::default();
        let level = Level::from_elo(1400).unwrap();
        let answer = |seed: u64| {
            let mut engine = Engine::new();
            engine.set_level(Some(level.with_seed(seed)));
            let mut shown = Vec::new();
            let outcome = engine.search(&game, &limits, |info| {
                if let Info::Line(report) = info {
                    shown.push(report.multipv);
                }
            });
            assert!(shown.iter().all(|&pv| pv == 1), "{shown:?}");
            assert!(outcome.nodes <= level.nodes() + 1_000);
            outcome.best.unwrap()
        };
        assert_eq!(answer(3), answer(3));
        let moves: std::collections::HashSet<Move> = (0..12).map(answer).collect();
        assert!(moves.len() > 1, "{moves:?}");
    }
}
