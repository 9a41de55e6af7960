//! Predicting what a move gains without making it, for move ordering, quiescence and the
//! evaluation's threat terms.
//!
//! A sowing shorter than the ring touches each hole at most once, so where its last stone
//! lands, what that hole then holds and whether it passes the mover's tuzdik follow from the
//! counts alone. Longer sowings are rare; they are reported as [`Gain::Unknown`] and made.

use crate::position::{Position, Side};
use crate::variant::{Capture, Sowing};

/// What a move is predicted to put into the mover's kazan.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Gain {
    /// Exactly this many stones (0 for a quiet move).
    Exact(i32),
    /// A sowing long enough to lap the ring: make it to know.
    Unknown,
}

/// Everything about a position the predictions need, read once per node.
pub struct Predictor<'a> {
    ring: &'a [u8],
    n: usize,
    skip_origin: bool,
    singleton: bool,
    /// `tuzdik_square[p]`: the ring index of player p's tuzdik.
    tuzdik_square: [Option<usize>; 2],
    tuzdik_allowed: bool,
    /// Mangala IV's relay sowing is not predicted: every move is `Unknown`.
    relay: bool,
}

impl<'a> Predictor<'a> {
    /// Reads a position.
    #[inline]
    pub fn new(pos: &'a Position) -> Predictor<'a> {
        let variant = pos.variant();
        let n = variant.holes_per_side();
        let square = |owner: Side| {
            pos.tuzdik(owner)
                .map(|hole| owner.opponent().index() * n + hole as usize - 1)
        };
        Predictor {
            ring: pos.ring(),
            n,
            skip_origin: variant.sowing() == Sowing::SkipOrigin,
            singleton: variant.capture() == Capture::Singleton,
            tuzdik_square: [square(Side::South), square(Side::North)],
            tuzdik_allowed: variant.tuzdik(),
            relay: variant.is_mangala(),
        }
    }

    /// The stones on ring index `index`.
    #[inline(always)]
    pub fn stones(&self, index: usize) -> u8 {
        self.ring[index]
    }

    /// What `side` playing its hole `offset + 1` would gain.
    #[inline]
    pub fn gain(&self, side: Side, offset: usize) -> Gain {
        if self.relay || offset >= self.n {
            return Gain::Unknown;
        }
        let len = 2 * self.n;
        let origin = side.index() * self.n + offset;
        let stones = self.ring[origin] as usize;
        if stones == 0 {
            return Gain::Exact(0);
        }
        if stones + 1 >= len {
            return Gain::Unknown;
        }
        let (start, count) = if stones == 1 || self.skip_origin {
            (origin + 1, stones)
        } else {
            (origin, stones)
        };
        let wrap = |i: usize| if i >= len { i - len } else { i };
        let start = wrap(start);
        let landing = wrap(start + count - 1);
        let mover = side.index();
        let mut gain = 0;
        if let Some(square) = self.tuzdik_square[mover] {
            let distance = if square >= start {
                square - start
            } else {
                square + len - start
            };
            if distance < count {
                gain += 1;
            }
        }
        let lands_opposite = (landing >= self.n) != (side == Side::North);
        if lands_opposite && Some(landing) != self.tuzdik_square[mover] {
            let after = self.ring[landing] as i32 + 1;
            let captures = if self.singleton {
                after == 2
            } else {
                after % 2 == 0
            };
            if captures {
                gain += after;
            } else if after == 3 && self.may_make_tuzdik(mover, landing) {
                gain += 3;
            }
        }
        Gain::Exact(gain)
    }

    fn may_make_tuzdik(&self, mover: usize, landing: usize) -> bool {
        if !self.tuzdik_allowed || self.tuzdik_square[mover].is_some() {
            return false;
        }
        let number = landing % self.n;
        number != self.n - 1
            && self.tuzdik_square[1 - mover].is_none_or(|theirs| theirs % self.n != number)
    }

    /// The largest even capture or tuzdik `side` could make now, over its short sowings.
    #[inline]
    pub fn best_capture(&self, side: Side) -> i32 {
        (0..self.n)
            .map(|offset| match self.gain(side, offset) {
                Gain::Exact(gain) => gain,
                Gain::Unknown => 0,
            })
            .max()
            .unwrap_or(0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Move, Variant};
    use proptest::prelude::*;

    const SPECS: [&str; 5] = [
        "togyz",
        "togyz sowing=skip-origin",
        "togyz capture=singleton",
        "kozdatu tuzdik=on",
        "bestemshchi",
    ];

    proptest! {
        /// Every exact prediction equals what making the move really puts in the kazan.
        #[test]
        fn predictions_match_the_real_move(spec in 0..SPECS.len(), choices in prop::collection::vec(0usize..9, 0..150)) {
            let variant: Variant = SPECS[spec].parse().unwrap();
            let mut pos = Position::start(variant);
            for choice in choices {
                let legal = pos.legal_moves();
                if legal.is_empty() { break; }
                let side = pos.side_to_move();
                let predictor = Predictor::new(&pos);
                for &mv in &legal {
                    let hole = mv.source().unwrap() as usize;
                    if let Gain::Exact(gain) = predictor.gain(side, hole - 1) {
                        let after = pos.after(mv).unwrap();
                        prop_assert_eq!(gain, after.kazan(side) as i32 - pos.kazan(side) as i32, "{} hole {}", pos, hole);
                    }
                }
                pos.play(legal[choice % legal.len()]);
            }
            let _ = Move::PASS;
        }
    }
}
