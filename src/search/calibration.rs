//! What a score means to a person: the search's internal score mapped onto the protocol's
//! scale (the expected final stone margin of the side to move, 100 per stone) and onto the
//! chances of a win, a draw and a loss.
//!
//! The evaluation was fitted to game results, so its unit drifted away from a stone; the
//! search keeps that unit inside, and the mapping happens at the edge, where a score is shown.
//! Both models were fitted on the engine's own games by `tuzdik calibrate` (the method, the
//! data and the calibration tables are in `docs/calibration.md`); refit them with that
//! command whenever the evaluation changes.
//!
//! The margin model never promises more than the position allows: every stone on the board
//! still goes to one kazan or the other, so the final margin of the side to move lies within
//! the kazan margin plus or minus the stones on the board, and the model's `tanh` keeps it
//! strictly inside that range.

use crate::position::Position;
use crate::search::{Score, TABLE_WIN};

/// How many features the margin model reads.
pub const MARGIN_FEATURES: usize = 3;
/// How many parameters the win/draw/loss model has.
pub const WDL_PARAMETERS: usize = 4;

/// What the models need of a position, from the side to move's view.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Material {
    /// Own kazan minus the opponent's, stones.
    pub kazan_margin: f64,
    /// Stones still on the board.
    pub on_board: f64,
    /// All the game's stones.
    pub all_stones: f64,
}

impl Material {
    /// Reads a position.
    ///
    /// ```
    /// use tuzdik::{Position, Variant};
    /// use tuzdik::search::calibration::Material;
    /// let start = Material::of(&Position::start(Variant::TOGYZ));
    /// assert_eq!((start.kazan_margin, start.on_board, start.all_stones), (0.0, 162.0, 162.0));
    /// assert_eq!(start.board_share(), 1.0);
    /// ```
    pub fn of(pos: &Position) -> Material {
        let mover = pos.side_to_move();
        let on_board = pos.stones_on_board() as f64;
        Material {
            kazan_margin: pos.kazan(mover) as f64 - pos.kazan(mover.opponent()) as f64,
            on_board,
            all_stones: pos.variant().total_stones().max(1) as f64,
        }
    }

    /// The board's share of all the game's stones: 1 at the start, falling to 0.
    pub fn board_share(&self) -> f64 {
        self.on_board / self.all_stones
    }

    /// The least and the most the final margin of the side to move can still be, in stones.
    pub fn margin_range(&self) -> (f64, f64) {
        (
            self.kazan_margin - self.on_board,
            self.kazan_margin + self.on_board,
        )
    }
}

/// A calibration: how a search's internal score maps onto the expected final margin and the
/// win/draw/loss chances. Each evaluation has its own ([`Model::HAND_CRAFTED`], [`Model::NET`]):
/// the net's scores run about half as far as the hand-crafted evaluation's for the same
/// position value.
///
/// The margin model: `m = d + B · tanh(w · features)` for the kazan margin `d` and the stones
/// on the board `B` (see [`Model::features`]). The win/draw/loss model: a win has the
/// probability `σ((m - α) / β)` and a loss `σ((-m - α) / β)`, with `α = v0 + v1 φ` and
/// `β = exp(v2 + v3 φ)` for the board's share of all stones `φ`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Model {
    /// The margin model's weights `w`.
    pub margin: [f64; MARGIN_FEATURES],
    /// The win/draw/loss model's parameters `v`.
    pub wdl: [f64; WDL_PARAMETERS],
    /// The scale `S`, in stones, beyond which the search's scores promise more than games
    /// give: a score enters the model as `S · tanh(score / S)` (close to itself below about
    /// `S / 2`); a rising function of the score, so a better score never means a smaller
    /// margin.
    pub score_scale: f64,
}

impl Model {
    /// Fitted on 2,000 games of the search with the hand-crafted evaluation at 40,000 nodes a
    /// move (`docs/calibration.md`). `S` is about the best of a scan from 15 to 1,000 stones:
    /// without it the model put positions it judged beyond ±40 stones 8 stones above what
    /// their games gave.
    pub const HAND_CRAFTED: Model = Model {
        margin: [0.495825, -1.198989, 0.287319],
        wdl: [1.394184, -0.910817, 1.385903, 2.388559],
        score_scale: 80.0,
    };

    /// Fitted on 1,000 games of the search with the built-in net at 15,000 nodes a move
    /// (`docs/calibration.md`). The net's scores are steadier and run about half as far as
    /// the hand-crafted evaluation's: `S` is the best of a scan from 20 to 80 stones (at 55
    /// and above the outer buckets went 7 to 8 stones beyond their games).
    pub const NET: Model = Model {
        margin: [1.290060, -1.116243, 0.275401],
        wdl: [1.438957, -0.977758, 1.253967, 2.221884],
        score_scale: 30.0,
    };

    /// The model for a search's scores: with a net evaluating (`true`) or by hand.
    ///
    /// ```
    /// use tuzdik::search::calibration::Model;
    /// assert_eq!(Model::of_search(true), &Model::NET);
    /// assert_eq!(Model::of_search(false), &Model::HAND_CRAFTED);
    /// ```
    pub fn of_search(net: bool) -> &'static Model {
        if net {
            &Model::NET
        } else {
            &Model::HAND_CRAFTED
        }
    }

    /// The margin model's features for an internal score (1/100 stone) in a position: the
    /// score (softened by [`score_scale`](Self::score_scale)) and the kazan margin, each as a
    /// share of the stones still on the board, and the softened score as a share of all the
    /// game's stones. The tanh of their weighted sum is the share of the board's stones the
    /// side to move is expected to win beyond its kazan margin.
    pub fn features(&self, internal: i32, material: &Material) -> [f64; MARGIN_FEATURES] {
        let scale = self.score_scale;
        let stones = scale * (internal as f64 / 100.0 / scale).tanh();
        let on_board = material.on_board.max(1.0);
        [
            stones / on_board,
            material.kazan_margin / on_board,
            stones / material.all_stones,
        ]
    }

    /// The expected final margin in stones (not clamped to the possible range).
    pub fn margin(&self, internal: i32, material: &Material) -> f64 {
        let features = self.features(internal, material);
        let z: f64 = self.margin.iter().zip(features).map(|(w, x)| w * x).sum();
        material.kazan_margin + material.on_board * z.tanh()
    }

    /// The chances of a win, a draw and a loss for the side to move, for an expected margin
    /// of `margin` stones.
    pub fn chances(&self, margin: f64, material: &Material) -> [f64; 3] {
        let share = material.board_share();
        let offset = self.wdl[0] + self.wdl[1] * share;
        let width = (self.wdl[2] + self.wdl[3] * share).exp();
        let win = logistic((margin - offset) / width);
        let loss = logistic((-margin - offset) / width);
        // The two tails can overlap only for a negative offset; then there is no room for a
        // draw.
        let total = win + loss;
        if total > 1.0 {
            [win / total, 0.0, loss / total]
        } else {
            [win, 1.0 - total, loss]
        }
    }

    /// The protocol's `cp`: the expected final margin of the side to move, in 1/100 stone,
    /// for an internal score in `pos`. A score that is not an evaluation (a mate or table
    /// score) is not for this function.
    ///
    /// ```
    /// use tuzdik::{Position, Variant};
    /// use tuzdik::search::calibration::Model;
    /// let start = Position::start(Variant::TOGYZ);
    /// for model in [Model::NET, Model::HAND_CRAFTED] {
    ///     // Never beyond what is still possible: 162 stones on the board, empty kazans.
    ///     assert!(model.expected_margin_cp(100_000, &start) <= 16_200);
    ///     assert!(model.expected_margin_cp(-100_000, &start) >= -16_200);
    ///     // A better internal score never means a smaller margin.
    ///     assert!(model.expected_margin_cp(300, &start) >= model.expected_margin_cp(200, &start));
    /// }
    /// ```
    pub fn expected_margin_cp(&self, internal: i32, pos: &Position) -> i32 {
        let material = Material::of(pos);
        let (low, high) = material.margin_range();
        let margin = self.margin(internal, &material).clamp(low, high);
        (margin * 100.0).round() as i32
    }

    /// The win/draw/loss chances of the side to move in per mille, summing to 1000, for an
    /// internal score in `pos`.
    ///
    /// ```
    /// use tuzdik::{Position, Variant};
    /// use tuzdik::search::calibration::Model;
    /// let [w, d, l] = Model::NET.wdl_permille(250, &Position::start(Variant::TOGYZ));
    /// assert_eq!(w + d + l, 1000);
    /// assert!(w > l);
    /// ```
    pub fn wdl_permille(&self, internal: i32, pos: &Position) -> [u32; 3] {
        let material = Material::of(pos);
        let margin = self.margin(internal, &material);
        permille(self.chances(margin, &material))
    }

    /// A search score as a person or a GUI sees it, with the win/draw/loss chances (per
    /// mille) of the side to move in `root`: an evaluation becomes the expected final margin
    /// ([`expected_margin_cp`](Self::expected_margin_cp)); a proven result (a mate, or a
    /// table score `cp 20000 + margin`) keeps its value and is a certain win, draw or loss.
    ///
    /// ```
    /// use tuzdik::{Position, Variant};
    /// use tuzdik::search::Score;
    /// use tuzdik::search::calibration::Model;
    /// let start = Position::start(Variant::TOGYZ);
    /// let model = Model::NET;
    /// assert_eq!(model.shown(Score::MatePlies(3), &start), (Score::MatePlies(3), [1000, 0, 0]));
    /// assert_eq!(model.shown(Score::Cp(-20_012), &start), (Score::Cp(-20_012), [0, 0, 1000]));
    /// let (score, [w, d, l]) = model.shown(Score::Cp(150), &start);
    /// assert!(matches!(score, Score::Cp(cp) if cp > 0) && w > l && w + d + l == 1000);
    /// ```
    pub fn shown(&self, score: Score, root: &Position) -> (Score, [u32; 3]) {
        match score {
            Score::Cp(internal) if internal.abs() < TABLE_WIN => (
                Score::Cp(self.expected_margin_cp(internal, root)),
                self.wdl_permille(internal, root),
            ),
            Score::Cp(proven) => (score, proven_wdl(proven)),
            Score::MatePlies(plies) => (score, proven_wdl(plies)),
        }
    }
}

fn logistic(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// Rounds three chances to per mille so that they sum to exactly 1000.
pub fn permille(chances: [f64; 3]) -> [u32; 3] {
    let win = (chances[0] * 1000.0).round().clamp(0.0, 1000.0) as u32;
    let loss = ((chances[2] * 1000.0).round().clamp(0.0, 1000.0) as u32).min(1000 - win);
    [win, 1000 - win - loss, loss]
}

/// The side to move's win expectation (a win plus half a draw, 0 to 1) from its win, draw
/// and loss chances in per mille (such as a report's [`Report::shown`](super::Report::shown)).
///
/// ```
/// use tuzdik::search::calibration::win_expectation;
/// assert_eq!(win_expectation([1000, 0, 0]), 1.0);
/// assert_eq!(win_expectation([250, 500, 250]), 0.5);
/// ```
pub fn win_expectation(wdl: [u32; 3]) -> f64 {
    f64::from(2 * wdl[0] + wdl[1]) / 2000.0
}

/// The win/draw/loss chances (per mille) of a proven result from the side to move's view:
/// `result` positive for a win, negative for a loss, 0 for a draw.
pub fn proven_wdl(result: i32) -> [u32; 3] {
    match result.signum() {
        1 => [1000, 0, 0],
        -1 => [0, 0, 1000],
        _ => [0, 1000, 0],
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Game;
    use crate::variant::{Family, Variant};
    use proptest::prelude::*;

    const MODELS: [Model; 2] = [Model::HAND_CRAFTED, Model::NET];

    fn some_position(variant: Variant, plies: &[usize]) -> Position {
        let mut game = Game::new(variant);
        for &choice in plies {
            let legal = game.legal_moves();
            if legal.is_empty() || game.termination().is_some() {
                break;
            }
            let mv = legal[choice % legal.len()];
            if game.try_play(mv).is_err() {
                break;
            }
        }
        *game.position()
    }

    proptest! {
        #[test]
        fn the_margin_stays_within_what_is_possible(
            internal in -40_000i32..40_000,
            plies in prop::collection::vec(0usize..9, 0..120),
        ) {
            let pos = some_position(Variant::TOGYZ, &plies);
            let (low, high) = Material::of(&pos).margin_range();
            for model in MODELS {
                let cp = model.expected_margin_cp(internal, &pos);
                prop_assert!(cp >= (low * 100.0) as i32 && cp <= (high * 100.0) as i32,
                    "{cp} outside [{low}, {high}] stones");
            }
        }

        #[test]
        fn a_better_score_never_means_a_worse_margin_or_fewer_wins(
            a in -20_000i32..20_000,
            b in -20_000i32..20_000,
            plies in prop::collection::vec(0usize..9, 0..80),
        ) {
            let pos = some_position(Variant::TOGYZ, &plies);
            let (low, high) = (a.min(b), a.max(b));
            for model in MODELS {
                prop_assert!(
                    model.expected_margin_cp(low, &pos) <= model.expected_margin_cp(high, &pos)
                );
                let [win_low, _, loss_low] = model.wdl_permille(low, &pos);
                let [win_high, _, loss_high] = model.wdl_permille(high, &pos);
                prop_assert!(win_low <= win_high + 1, "{win_low} > {win_high}");
                prop_assert!(loss_low + 1 >= loss_high, "{loss_low} < {loss_high}");
            }
        }

        #[test]
        fn wdl_always_sums_to_a_thousand(
            internal in -40_000i32..40_000,
            plies in prop::collection::vec(0usize..7, 0..100),
        ) {
            for family in Family::TOGUZ_FAMILY {
                let variant = Variant::new(family);
                let pos = some_position(variant, &plies);
                for model in MODELS {
                    let [w, d, l] = model.wdl_permille(internal, &pos);
                    prop_assert_eq!(w + d + l, 1000);
                }
            }
        }
    }

    #[test]
    fn per_mille_rounding_sums_to_a_thousand() {
        assert_eq!(permille([0.3334, 0.3333, 0.3333]), [333, 334, 333]);
        assert_eq!(permille([0.9996, 0.0, 0.0004]), [1000, 0, 0]);
        assert_eq!(permille([0.0, 0.0, 1.0]), [0, 0, 1000]);
        assert_eq!(proven_wdl(5), [1000, 0, 0]);
        assert_eq!(proven_wdl(0), [0, 1000, 0]);
    }

    #[test]
    fn a_finished_board_reports_its_exact_margin() {
        // No stones left on the board: the margin is the kazans' whatever the score says.
        let game = Game::from_fen(
            "0,0,0,0,0,0,0,0,0/0,0,0,0,0,0,0,0,0 100 62 w 50",
            Variant::TOGYZ,
        )
        .expect("a valid position");
        let pos = *game.position();
        for model in MODELS {
            assert_eq!(model.expected_margin_cp(-5_000, &pos), 3_800);
        }
    }
}
