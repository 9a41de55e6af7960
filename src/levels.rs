//! `tuzdik levels`: anchors the strength levels ([`crate::search::level`]) to people. On
//! rated games (PlayOK's records carry `WhiteElo`/`BlackElo`) it measures the win expectation
//! the players of each rating band lose per move, with the full engine as the judge, and the
//! win expectation each level loses on the same positions, so that the ladder can be fitted
//! to make a level lose as much as the players of its rating (see `docs/levels.md`).
//!
//! The judge searches every position with a fixed node count on an emptied table, every move
//! as a principal variation of its own (MultiPV over all legal moves), so a run is
//! reproducible and every move of a position is judged by the same search. A move's loss is
//! the mover's win expectation after the judge's best move less the one after the move (0 for
//! the best move). Forced moves (a single legal move) are left out: nobody can lose anything
//! on them.

use std::collections::HashMap;
use std::fmt::Write as _;
use std::path::PathBuf;

use crate::game::Game;
use crate::moves::Move;
use crate::position::Side;
use crate::record::RecordReader;
use crate::search::calibration::win_expectation;
use crate::search::level::Level;
use crate::search::{Engine, Info, Limits};

/// The rating bands: the first rating of each (the last band is open upwards).
pub const BANDS: [u32; 5] = [0, 1100, 1200, 1300, 1400];

/// What `tuzdik levels` measures and on what.
#[derive(Clone, Debug)]
pub struct LevelsOptions {
    /// The rated games.
    pub pgn: PathBuf,
    /// Every this many-th game is measured (1: all).
    pub every: usize,
    /// The judge's nodes per position.
    pub judge_nodes: u64,
    /// The levels play every this many-th position with a choice.
    pub level_every: usize,
    /// The levels' Elos.
    pub elos: Vec<u32>,
}

/// Losses of win expectation added up.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Tally {
    /// Moves counted.
    pub moves: usize,
    /// Their losses added up (0..1 each).
    pub loss: f64,
    /// Moves that were the judge's best move.
    pub best: usize,
}

impl Tally {
    fn add(&mut self, loss: f64, best: bool) {
        self.moves += 1;
        self.loss += loss;
        self.best += usize::from(best);
    }

    /// The mean loss per move (0..1).
    pub fn mean(&self) -> f64 {
        self.loss / self.moves.max(1) as f64
    }

    /// The share of moves that were the judge's best.
    pub fn best_share(&self) -> f64 {
        self.best as f64 / self.moves.max(1) as f64
    }
}

/// The measurement: a tally per rating band and per level.
#[derive(Clone, Debug, Default)]
pub struct Measured {
    /// Games measured, and games skipped (unreadable or without ratings).
    pub games: usize,
    /// See [`Measured::games`].
    pub skipped: usize,
    /// Per band of [`BANDS`].
    pub bands: Vec<Tally>,
    /// Per band, the movers' ratings added up (one per move counted).
    pub band_ratings: Vec<f64>,
    /// The players on the positions the levels played, for a like-for-like comparison.
    pub players_on_level_positions: Tally,
    /// Per level, in the order of [`LevelsOptions::elos`].
    pub levels: Vec<Tally>,
}

/// The band a rating falls in.
pub fn band_of(rating: u32) -> usize {
    BANDS.iter().rposition(|&low| rating >= low).unwrap_or(0)
}

/// The judge: the full engine searching every move of a position (MultiPV over all of them)
/// on a fixed node count and an emptied table.
struct Judge {
    engine: Engine,
    limits: Limits,
}

/// The judge's verdict on a position: every move's win expectation for the mover.
struct Verdict {
    moves: HashMap<Move, f64>,
    best: Option<(Move, f64)>,
}

impl Verdict {
    /// The win expectation `mv` gives up against the best move (`None`: not judged).
    fn loss(&self, mv: Move) -> Option<f64> {
        let best = self.best?.1;
        self.moves.get(&mv).map(|e| (best - e).max(0.0))
    }

    fn is_best(&self, mv: Move) -> bool {
        self.best.is_some_and(|(best, _)| best == mv)
    }
}

impl Judge {
    fn judge(&mut self, game: &Game) -> Verdict {
        self.engine.clear();
        self.engine.set_multipv(game.legal_moves().len());
        let mut lines: HashMap<usize, (u32, Move, f64)> = HashMap::new();
        let pos = *game.position();
        self.engine.search(game, &self.limits, |info| {
            if let Info::Line(report) = info
                && report.bound.is_none()
                && let Some(&mv) = report.pv.first()
            {
                let expectation = win_expectation(report.shown(&pos).1);
                lines.insert(report.multipv, (report.depth, mv, expectation));
            }
        });
        let mut moves: HashMap<Move, (u32, f64)> = HashMap::new();
        for (depth, mv, expectation) in lines.into_values() {
            let slot = moves.entry(mv).or_insert((depth, expectation));
            if depth > slot.0 {
                *slot = (depth, expectation);
            }
        }
        let moves: HashMap<Move, f64> = moves.into_iter().map(|(mv, (_, e))| (mv, e)).collect();
        let best = moves
            .iter()
            .map(|(&mv, &e)| (mv, e))
            .max_by(|a, b| a.1.total_cmp(&b.1).then(b.0.cmp(&a.0)));
        Verdict { moves, best }
    }
}

/// Runs the measurement; `progress` hears of every game measured.
pub fn measure(
    options: &LevelsOptions,
    mut progress: impl FnMut(usize, &Measured),
) -> Result<Measured, String> {
    if options.every == 0 || options.level_every == 0 || options.judge_nodes == 0 {
        return Err("--every, --level-every and --judge-nodes must be at least 1".to_string());
    }
    let levels: Vec<Level> = options
        .elos
        .iter()
        .map(|&elo| Level::from_elo(i64::from(elo)).map_err(|e| format!("--elos: {e}")))
        .collect::<Result<_, _>>()?;
    let file =
        std::fs::File::open(&options.pgn).map_err(|e| format!("{}: {e}", options.pgn.display()))?;
    let mut judge = Judge {
        engine: {
            // The ladder was anchored by this judge with the hand-crafted evaluation
            // (docs/levels.md); the figures stay comparable so.
            let mut engine = Engine::new();
            engine.set_network(None);
            engine
        },
        limits: Limits {
            nodes: Some(options.judge_nodes),
            ..Limits::default()
        },
    };
    let mut players: Vec<Engine> = levels
        .iter()
        .map(|&level| {
            let mut engine = Engine::new();
            engine.set_level(Some(level));
            engine
        })
        .collect();
    let mut measured = Measured {
        bands: vec![Tally::default(); BANDS.len()],
        band_ratings: vec![0.0; BANDS.len()],
        levels: vec![Tally::default(); levels.len()],
        ..Measured::default()
    };
    let mut with_choice = 0usize;
    let reader = RecordReader::new(std::io::BufReader::new(file));
    for (index, record) in reader.enumerate() {
        if index % options.every != 0 {
            continue;
        }
        let Ok(record) = record else {
            measured.skipped += 1;
            continue;
        };
        let ratings = [record.tag("WhiteElo"), record.tag("BlackElo")]
            .map(|tag| tag.and_then(|text| text.trim().parse::<u32>().ok()));
        let (Ok(mut game), Ok(moves)) = (record.start(), record.played_moves()) else {
            measured.skipped += 1;
            continue;
        };
        if ratings.iter().all(Option::is_none) {
            measured.skipped += 1;
            continue;
        }
        measured.games += 1;
        for &mv in &moves {
            let mover = game.position().side_to_move();
            if game.legal_moves().len() > 1 {
                let verdict = judge.judge(&game);
                let rating = ratings[usize::from(mover == Side::North)];
                if let (Some(rating), Some(loss)) = (rating, verdict.loss(mv)) {
                    measured.bands[band_of(rating)].add(loss, verdict.is_best(mv));
                    measured.band_ratings[band_of(rating)] += f64::from(rating);
                }
                if with_choice.is_multiple_of(options.level_every)
                    && let Some(loss) = verdict.loss(mv)
                {
                    measured
                        .players_on_level_positions
                        .add(loss, verdict.is_best(mv));
                    for (player, tally) in players.iter_mut().zip(&mut measured.levels) {
                        player.clear();
                        let chosen = player.search(&game, &Limits::default(), |_| {}).best;
                        if let Some(loss) = chosen.and_then(|chosen| verdict.loss(chosen)) {
                            tally.add(loss, chosen.is_some_and(|c| verdict.is_best(c)));
                        }
                    }
                }
                with_choice += 1;
            }
            game.try_play(mv).map_err(|e| e.to_string())?;
        }
        progress(index, &measured);
    }
    Ok(measured)
}

/// The Elo at which the levels' loss (falling with the Elo) equals `loss`, by linear
/// interpolation between the measured levels; `None` outside their range.
pub fn matching_elo(elos: &[u32], losses: &[f64], loss: f64) -> Option<f64> {
    let points: Vec<(f64, f64)> = elos
        .iter()
        .zip(losses)
        .map(|(&elo, &l)| (f64::from(elo), l))
        .collect();
    points.windows(2).find_map(|pair| {
        let ((e0, l0), (e1, l1)) = (pair[0], pair[1]);
        let (high, low) = (l0.max(l1), l0.min(l1));
        if loss > high || loss < low || l0 == l1 {
            return None;
        }
        Some(e0 + (e1 - e0) * (loss - l0) / (l1 - l0))
    })
}

/// The measurement as Markdown tables.
pub fn report(options: &LevelsOptions, measured: &Measured) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{} games measured (every {}th of {}), {} skipped; judge: the full engine, {} nodes a \
         position; forced moves left out.\n",
        measured.games,
        options.every,
        options.pgn.display(),
        measured.skipped,
        options.judge_nodes
    );
    let level_losses: Vec<f64> = measured.levels.iter().map(Tally::mean).collect();
    let _ = writeln!(
        out,
        "| rating band | mean rating | moves | loss per move | judge's best move | level losing as much |"
    );
    let _ = writeln!(out, "|---|---:|---:|---:|---:|---:|");
    for (band, tally) in measured.bands.iter().enumerate() {
        let name = match (BANDS[band], BANDS.get(band + 1)) {
            (0, Some(next)) => format!("below {next}"),
            (low, Some(next)) => format!("{low}–{}", next - 1),
            (low, None) => format!("{low} and above"),
        };
        let matching = matching_elo(&options.elos, &level_losses, tally.mean())
            .map_or("—".to_string(), |elo| format!("{elo:.0}"));
        let mean_rating = measured.band_ratings[band] / tally.moves.max(1) as f64;
        let _ = writeln!(
            out,
            "| {name} | {mean_rating:.0} | {} | {:.2}% | {:.0}% | {matching} |",
            tally.moves,
            tally.mean() * 100.0,
            tally.best_share() * 100.0
        );
    }
    let players = &measured.players_on_level_positions;
    let _ = writeln!(
        out,
        "\n{} positions played by every level (every {}th with a choice); the players' own \
         moves there lose {:.2}% a move ({:.0}% the judge's best).\n",
        players.moves,
        options.level_every,
        players.mean() * 100.0,
        players.best_share() * 100.0
    );
    let _ = writeln!(
        out,
        "| UCI_Elo | nodes | loss per move | judge's best move |"
    );
    let _ = writeln!(out, "|---:|---:|---:|---:|");
    for (&elo, tally) in options.elos.iter().zip(&measured.levels) {
        let nodes = Level::from_elo(i64::from(elo)).map_or(0, |level| level.nodes());
        let _ = writeln!(
            out,
            "| {elo} | {nodes} | {:.2}% | {:.0}% |",
            tally.mean() * 100.0,
            tally.best_share() * 100.0
        );
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ratings_fall_in_their_bands() {
        assert_eq!(band_of(950), 0);
        assert_eq!(band_of(1100), 1);
        assert_eq!(band_of(1299), 2);
        assert_eq!(band_of(2000), BANDS.len() - 1);
    }

    #[test]
    fn a_loss_is_what_the_move_gives_up_against_the_best() {
        let (a, b) = (Move::hole(1), Move::hole(2));
        let verdict = Verdict {
            moves: HashMap::from([(a, 0.60), (b, 0.45)]),
            best: Some((a, 0.60)),
        };
        assert_eq!(verdict.loss(a), Some(0.0));
        assert!((verdict.loss(b).unwrap() - 0.15).abs() < 1e-12);
        assert_eq!(verdict.loss(Move::hole(3)), None);
        assert!(verdict.is_best(a) && !verdict.is_best(b));
    }

    #[test]
    fn the_matching_elo_is_interpolated_on_the_falling_losses() {
        let elos = [800, 1200, 1600];
        let losses = [0.10, 0.06, 0.02];
        assert_eq!(matching_elo(&elos, &losses, 0.08), Some(1000.0));
        assert_eq!(matching_elo(&elos, &losses, 0.03), Some(1500.0));
        assert_eq!(matching_elo(&elos, &losses, 0.2), None);
        assert_eq!(matching_elo(&elos, &losses, 0.01), None);
    }

    #[test]
    fn a_small_measurement_counts_the_moves_of_rated_players() {
        let dir = std::env::temp_dir().join(format!("tuzdik-levels-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let pgn = dir.join("rated.pgn");
        std::fs::write(
            &pgn,
            "[WhiteElo \"1250\"]\n[BlackElo \"1420\"]\n\n1. 87(10) 87(10) 2. 22 99(22) *\n\n\
             [Event \"unrated\"]\n\n1. 87(10) *\n",
        )
        .unwrap();
        let options = LevelsOptions {
            pgn,
            every: 1,
            judge_nodes: 300,
            level_every: 1,
            elos: vec![800, 2000],
        };
        let measured = measure(&options, |_, _| {}).unwrap();
        std::fs::remove_dir_all(&dir).unwrap();
        assert_eq!((measured.games, measured.skipped), (1, 1));
        assert_eq!(measured.bands[band_of(1250)].moves, 2);
        assert_eq!(measured.bands[band_of(1420)].moves, 2);
        assert_eq!(measured.levels[0].moves, 4);
        assert!(report(&options, &measured).contains("| 1200–1299 | 1250 | 2 |"));
        let bad = LevelsOptions {
            elos: vec![100],
            ..options
        };
        assert!(measure(&bad, |_, _| {}).unwrap_err().contains("100"));
    }
}
