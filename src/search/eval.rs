//! The static evaluation: the kazan margin plus what the board promises. Always from the side
//! to move's point of view, in units of 1/100 stone.

use super::ordering::{Scan, Words, ring_words};
use super::parameters::eval as weights;
use crate::position::{Position, Side, with_row_len};

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
    let words = ring_words(pos);
    board_score(pos, &words) + threat_score(&Scan::with_words(pos, pos.legal_mask(), &words))
}

/// The evaluation less its capture-threat term, given [`ring_words`]`(pos)`. The threat
/// term is never negative, so this is a lower bound of the evaluation, and it needs no scan
/// of the moves: the search looks at it first and scans only when the bound is not enough.
#[inline(always)]
pub fn board_score(pos: &Position, words: &Words) -> i32 {
    let us = pos.side_to_move();
    let them = us.opponent();
    let kazans = pos.kazan(us) as i32 - pos.kazan(them) as i32;
    let tuzdiks = i32::from(pos.tuzdik(us).is_some()) - i32::from(pos.tuzdik(them).is_some());
    let rows = with_row_len!(pos.variant(), N => Rows::count::<N>(words));
    let (ours, theirs) = (us.index(), them.index());
    weights::KAZAN * kazans
        + weights::TUZDIK * tuzdiks
        + weights::ROW_STONE * (rows.stones[ours] - rows.stones[theirs])
        + weights::MOBILITY * (rows.occupied[ours] - rows.occupied[theirs])
        + weights::TEMPO
}

/// The capture-threat term: what the side to move's best predicted capture is worth.
#[inline(always)]
pub fn threat_score(scan: &Scan) -> i32 {
    weights::THREAT_TO_MOVE_PERCENT * scan.best_gain()
}

/// Stones and non-empty holes on each row, `[South, North]`.
struct Rows {
    stones: [i32; 2],
    occupied: [i32; 2],
}

/// 0x01 in every byte.
const ONES: u64 = u64::from_le_bytes([1; 8]);
/// 0x7f in every byte.
const LOW7: u64 = u64::from_le_bytes([0x7f; 8]);

/// `[word][side]`: 0xff in the bytes of a ring laid out in little-endian words (byte `i` of
/// the ring is byte `i % 8` of word `i / 8`) that belong to `side`'s row.
const fn row_masks(n: usize) -> [[u64; 2]; 3] {
    let mut masks = [[0u64; 2]; 3];
    let mut i = 0;
    while i < 2 * n {
        masks[i / 8][i / n] |= 0xff << (8 * (i % 8));
        i += 1;
    }
    masks
}

impl Rows {
    /// Counts both rows eight holes at a time. No byte lane can overflow: even summed over a
    /// whole row, lanes hold distinct holes, and all the stones on a board fit in a byte
    /// (162 at most), so the sums of lanes by multiplication carry nothing either.
    #[inline(always)]
    fn count<const N: usize>(words: &Words) -> Rows {
        let masks = const { row_masks(N) };
        let sum_of_bytes = |x: u64| (x.wrapping_mul(ONES) >> 56) as i32;
        let mut rows = Rows {
            stones: [0; 2],
            occupied: [0; 2],
        };
        for side in 0..2 {
            let mut stones = 0;
            let mut occupied = 0;
            for (word, mask) in words.iter().zip(masks) {
                let nonzero = ((((word & LOW7) + LOW7) | word) >> 7) & ONES;
                stones += word & mask[side];
                occupied += nonzero & mask[side];
            }
            rows.stones[side] = sum_of_bytes(stones);
            rows.occupied[side] = sum_of_bytes(occupied);
        }
        rows
    }
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
    let scan = Scan::new(pos);
    let threat = |s: Side| {
        if s == us {
            scan.best_gain() * weights::THREAT_TO_MOVE_PERCENT
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
