//! The static evaluation: the kazan margin plus what the board promises. Always from the side
//! to move's point of view, in units of 1/100 stone.

use super::ordering::Predictor;
use super::parameters::eval as weights;
use crate::position::{Position, Side};

/// One term of the evaluation, for the `eval` command.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Term {
    /// What it measures.
    pub name: &'static str,
    /// South's raw quantity.
    pub south: i32,
    /// North's raw quantity.
    pub north: i32,
    /// Its contribution to the score from South's point of view.
    pub score: i32,
}

fn mobility(pos: &Position, side: Side) -> i32 {
    pos.row(side).iter().filter(|&&c| c != 0).count() as i32
}

/// The evaluation from the side to move's point of view.
#[inline]
pub fn evaluate(pos: &Position) -> i32 {
    let predictor = Predictor::new(pos);
    evaluate_with_threat(pos, predictor.best_capture(pos.side_to_move()))
}

/// The same, given the biggest capture the side to move has (the quiescence search has it
/// already).
#[inline]
pub fn evaluate_with_threat(pos: &Position, threat: i32) -> i32 {
    let us = pos.side_to_move();
    let them = us.opponent();
    let kazans = pos.kazan(us) as i32 - pos.kazan(them) as i32;
    let tuzdiks = i32::from(pos.tuzdik(us).is_some()) - i32::from(pos.tuzdik(them).is_some());
    let rows = pos.stones_on_side(us) as i32 - pos.stones_on_side(them) as i32;
    let moves = mobility(pos, us) - mobility(pos, them);
    weights::KAZAN * kazans
        + weights::TUZDIK * tuzdiks
        + weights::ROW_STONE * rows
        + weights::MOBILITY * moves
        + weights::THREAT_TO_MOVE_PERCENT * threat
        + weights::TEMPO
}

/// Every term, from South's point of view, and the total from the side to move's.
pub fn terms(pos: &Position) -> (Vec<Term>, i32) {
    let pair = |f: &dyn Fn(Side) -> i32| (f(Side::South), f(Side::North));
    let mut terms = Vec::new();
    let mut add = |name, (south, north): (i32, i32), weight: i32, divisor: i32| {
        terms.push(Term {
            name,
            south,
            north,
            score: (south - north) * weight / divisor,
        });
    };
    add("kazan", pair(&|s| pos.kazan(s) as i32), weights::KAZAN, 1);
    add(
        "tuzdik",
        pair(&|s| i32::from(pos.tuzdik(s).is_some())),
        weights::TUZDIK,
        1,
    );
    add(
        "row stones",
        pair(&|s| pos.stones_on_side(s) as i32),
        weights::ROW_STONE,
        1,
    );
    add(
        "mobility",
        pair(&|s| mobility(pos, s)),
        weights::MOBILITY,
        1,
    );
    let us = pos.side_to_move();
    let predictor = Predictor::new(pos);
    let threat = |s: Side| {
        if s == us {
            predictor.best_capture(s) * weights::THREAT_TO_MOVE_PERCENT
        } else {
            0
        }
    };
    add("capture threat", pair(&threat), 1, 1);
    let tempo = |s: Side| if s == us { weights::TEMPO } else { 0 };
    add("tempo", pair(&tempo), 1, 1);
    (terms, evaluate(pos))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Variant;
    use proptest::prelude::*;

    #[test]
    fn terms_add_up_to_the_evaluation() {
        let pos: Position = "9,9,X,9,9,9,9,9,9/9,9,9,9,9,1,9,9,8 9 9 b".parse().unwrap();
        let (terms, total) = terms(&pos);
        let south: i32 = terms.iter().map(|t| t.score).sum();
        assert_eq!(total, -south);
    }

    #[test]
    fn more_kazan_is_better() {
        let a: Position = "9,9,9,9,9,9,9,9,9/9,9,9,9,9,9,9,9,9 0 0 w".parse().unwrap();
        let b: Position = "9,9,9,9,9,9,9,9,1/9,9,9,9,9,9,9,9,9 8 0 w".parse().unwrap();
        assert!(evaluate(&b) > evaluate(&a));
    }

    proptest! {
        #[test]
        fn evaluation_is_antisymmetric_under_a_board_swap(moves in prop::collection::vec(0usize..9, 0..60)) {
            // Swapping the rows and the side to move turns the position around: the score,
            // always from the mover's view, must stay the same.
            let mut pos = Position::start(Variant::TOGYZ);
            for choice in moves {
                let legal = pos.legal_moves();
                if legal.is_empty() { break; }
                pos.play(legal[choice % legal.len()]);
            }
            let swapped = Position::from_parts(
                pos.variant(),
                &[pos.row(Side::North).to_vec(), pos.row(Side::South).to_vec()],
                [pos.kazan(Side::North), pos.kazan(Side::South)],
                [pos.tuzdik(Side::North), pos.tuzdik(Side::South)],
                pos.side_to_move().opponent(),
            ).unwrap();
            prop_assert_eq!(evaluate(&pos), evaluate(&swapped));
        }
    }
}
