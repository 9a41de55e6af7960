//! Making a move: sowing, tuzdik deposits, captures and tuzdik creation (RULES.md 1-2).
//!
//! Sowing is done lap-wise rather than stone by stone: `c` stones over a ring of `r` holes put
//! `c / r` into every hole and one more into the next `c % r`, so even a 100-stone hole costs one
//! pass over the ring. Stones are first sown into tuzdik holes as if they were ordinary holes and
//! then moved to the owner's kazan; a tuzdik always holds 0 between moves, so that is exact.

use super::{NO_TUZDIK, Position, Side, zobrist};
use crate::variant::{Capture, Sowing};

/// What a move did, as PlayOK long notation and records need it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Effect {
    /// The row the last stone fell on.
    pub landing_side: Side,
    /// The hole (1..N, in its owner's numbering) the last stone fell into.
    pub landing_hole: u8,
    /// Stones taken from the landing hole (an even capture, or the 3 of a new tuzdik).
    pub captured: u8,
    /// Whether the landing hole became the mover's tuzdik.
    pub made_tuzdik: bool,
}

impl Position {
    /// Adds `stones` to hole `index`, keeping the key when `HASH`.
    #[inline(always)]
    fn add<const HASH: bool>(&mut self, index: usize, stones: u8) {
        let old = self.holes[index];
        let new = old.wrapping_add(stones);
        self.holes[index] = new;
        if HASH {
            self.key ^= zobrist::hole(index, old) ^ zobrist::hole(index, new);
        }
    }

    /// Adds one stone to each of `count` consecutive holes from `start`, wrapping at `ring`.
    /// `count < ring`.
    #[inline(always)]
    fn add_run<const HASH: bool>(&mut self, start: usize, count: usize, ring: usize) {
        let first_end = (start + count).min(ring);
        for index in start..first_end {
            self.add::<HASH>(index, 1);
        }
        for index in 0..(start + count - first_end) {
            self.add::<HASH>(index, 1);
        }
    }

    /// Sows the stones of ring index `origin` (which must hold stones and belong to the side
    /// to move), applies the capture rules and passes the move.
    #[inline(always)]
    pub(super) fn sow<const HASH: bool>(&mut self, origin: usize) -> Effect {
        let variant = self.variant;
        let n = variant.holes_per_side();
        let ring = variant.ring_len();
        let mover = self.side.index();
        let stones = self.holes[origin] as usize;
        let old_kazans = self.kazans;

        if HASH {
            self.key ^= zobrist::hole(origin, stones as u8);
        }
        self.holes[origin] = 0;

        let last = if stones == 1 {
            let next = if origin + 1 == ring { 0 } else { origin + 1 };
            self.add::<HASH>(next, 1);
            next
        } else {
            match variant.sowing() {
                Sowing::Standard => {
                    let laps = stones / ring;
                    if laps > 0 {
                        for index in 0..ring {
                            self.add::<HASH>(index, laps as u8);
                        }
                    }
                    self.add_run::<HASH>(origin, stones % ring, ring);
                    (origin + stones - 1) % ring
                }
                Sowing::SkipOrigin => {
                    let others = ring - 1;
                    let laps = stones / others;
                    if laps > 0 {
                        for index in (0..ring).filter(|&index| index != origin) {
                            self.add::<HASH>(index, laps as u8);
                        }
                    }
                    let rest = stones % others;
                    let start = if origin + 1 == ring { 0 } else { origin + 1 };
                    self.add_run::<HASH>(start, rest, ring);
                    // With no remainder the last stone of the last lap fell just before the
                    // origin.
                    (origin + if rest == 0 { others } else { rest }) % ring
                }
            }
        };

        for owner in 0..2 {
            let square = self.tuzdiks[owner];
            if square != NO_TUZDIK {
                let fallen = self.holes[square as usize];
                if fallen != 0 {
                    self.holes[square as usize] = 0;
                    self.kazans[owner] += fallen;
                    if HASH {
                        self.key ^= zobrist::hole(square as usize, fallen);
                    }
                }
            }
        }

        let landing_side = if last < n { Side::South } else { Side::North };
        let landing_hole = (last - landing_side.index() * n) as u8 + 1;
        let mut effect = Effect {
            landing_side,
            landing_hole,
            captured: 0,
            made_tuzdik: false,
        };

        if landing_side.index() != mover && last as u8 != self.tuzdiks[mover] {
            let count = self.holes[last];
            let captures = match variant.capture() {
                Capture::Standard => count % 2 == 0,
                Capture::Singleton => count == 2,
            };
            if captures {
                effect.captured = count;
            } else if count == 3 && self.may_make_tuzdik(mover, landing_hole, n) {
                effect.captured = 3;
                effect.made_tuzdik = true;
                self.tuzdiks[mover] = last as u8;
                if HASH {
                    self.key ^= zobrist::TABLES.tuzdik[mover][last];
                }
            }
            if effect.captured != 0 {
                self.holes[last] = 0;
                self.kazans[mover] += count;
                if HASH {
                    self.key ^= zobrist::hole(last, count);
                }
            }
        }

        if HASH {
            for player in 0..2 {
                if old_kazans[player] != self.kazans[player] {
                    self.key ^= zobrist::kazan(player, old_kazans[player])
                        ^ zobrist::kazan(player, self.kazans[player]);
                }
            }
            self.key ^= zobrist::TABLES.north_to_move;
        }
        self.side = self.side.opponent();
        effect
    }

    /// Rule 2's three exceptions: one tuzdik per player, never on hole N, never opposite-equal
    /// to the opponent's.
    #[inline(always)]
    fn may_make_tuzdik(&self, mover: usize, landing_hole: u8, n: usize) -> bool {
        if !self.variant.tuzdik() || self.tuzdiks[mover] != NO_TUZDIK {
            return false;
        }
        if landing_hole as usize == n {
            return false;
        }
        let theirs = self.tuzdiks[1 - mover];
        theirs == NO_TUZDIK || (theirs as usize % n) as u8 + 1 != landing_hole
    }
}

#[cfg(test)]
mod tests {
    use crate::{Capture, Move, Position, Side, Sowing, Variant};

    fn play(fen: &str, variant: Variant, hole: u8) -> (Position, super::Effect) {
        let mut pos = Position::parse_with(fen, variant).unwrap();
        let effect = pos.try_play(Move::hole(hole)).unwrap();
        assert_eq!(pos.key(), pos.compute_key());
        (pos, effect)
    }

    #[test]
    fn first_stone_goes_back_into_the_origin() {
        let (pos, effect) = play(&Position::start(Variant::TOGYZ).to_string(), Variant::TOGYZ, 1);
        assert_eq!(pos.row(Side::South), &[1, 10, 10, 10, 10, 10, 10, 10, 10]);
        assert_eq!(pos.row(Side::North), &[9; 9]);
        assert_eq!((effect.landing_side, effect.landing_hole), (Side::South, 9));
    }

    #[test]
    fn a_single_stone_moves_on() {
        let fen = "1,0,0,0,0,0,0,0,0/0,0,0,0,0,0,0,0,1 80 80 w";
        let (pos, effect) = play(fen, Variant::TOGYZ, 1);
        assert_eq!(pos.row(Side::South)[..2], [0, 1]);
        assert_eq!(effect.landing_hole, 2);
    }

    #[test]
    fn even_landing_captures_and_odd_does_not() {
        let (pos, effect) = play(&Position::start(Variant::TOGYZ).to_string(), Variant::TOGYZ, 8);
        assert_eq!(effect.captured, 10);
        assert_eq!(pos.kazan(Side::South), 10);
        assert_eq!(pos.stones(Side::North, 7), 0);
        // Hole 1's nine stones end on South's own hole 9: nothing happens.
        let (pos, effect) = play(&Position::start(Variant::TOGYZ).to_string(), Variant::TOGYZ, 1);
        assert_eq!(effect.captured, 0);
        assert_eq!(pos.kazan(Side::South), 0);
        // Landing on the opponent's side on an odd count captures nothing either.
        let (pos, effect) = play("0,0,0,0,0,0,0,0,2/2,0,0,0,0,0,0,0,0 79 79 w", Variant::TOGYZ.with_tuzdik(false), 9);
        assert_eq!(effect.captured, 0);
        assert_eq!(pos.stones(Side::North, 1), 3);
    }

    #[test]
    fn landing_on_three_makes_a_tuzdik() {
        // Hole 9 with 2 stones lands on North's hole 1, which then holds 3.
        let fen = "0,0,0,0,0,0,0,0,2/2,0,0,0,0,0,0,0,0 79 79 w";
        let (pos, effect) = play(fen, Variant::TOGYZ, 9);
        assert!(effect.made_tuzdik);
        assert_eq!(pos.tuzdik(Side::South), Some(1));
        assert_eq!(pos.kazan(Side::South), 82);
        assert!(pos.is_tuzdik(Side::North, 1));
    }

    #[test]
    fn tuzdik_exceptions_hold() {
        // Landing on North's hole 9 with 3 never makes a tuzdik.
        let fen = "0,0,0,0,0,0,0,0,10/0,0,0,0,0,0,0,0,2 70 80 w";
        let (pos, effect) = play(fen, Variant::TOGYZ, 9);
        assert_eq!((effect.landing_hole, effect.made_tuzdik), (9, false));
        assert_eq!(pos.stones(Side::North, 9), 3);
        // North's tuzdik on South's hole 1 forbids South's on North's hole 1.
        let fen = "X,0,0,0,0,0,0,0,2/2,0,0,0,0,0,0,0,0 79 79 w";
        let (pos, effect) = play(fen, Variant::TOGYZ, 9);
        assert!(!effect.made_tuzdik);
        assert_eq!(pos.stones(Side::North, 1), 3);
        // A second tuzdik is never made.
        let fen = "0,0,0,0,0,0,0,0,2/2,X,0,0,0,0,0,0,0 79 79 w";
        let (_, effect) = play(fen, Variant::TOGYZ, 9);
        assert!(!effect.made_tuzdik);
        // Without the switch nothing happens either.
        let variant = Variant::new(crate::Family::Bestemshchi);
        let (pos, effect) = play("0,0,0,0,2/2,0,0,0,0 23 23 w", variant, 5);
        assert!(!effect.made_tuzdik);
        assert_eq!(pos.stones(Side::North, 1), 3);
    }

    #[test]
    fn stones_falling_into_a_tuzdik_go_to_its_owner() {
        // South owns a tuzdik on North's hole 2; South's hole 9 sows into it.
        let fen = "0,0,0,0,0,0,0,0,4/0,X,0,0,0,0,0,0,0 79 79 w";
        let (pos, effect) = play(fen, Variant::TOGYZ, 9);
        assert_eq!(pos.kazan(Side::South), 80);
        assert_eq!(pos.row(Side::North)[..3], [1, 0, 1]);
        assert_eq!((effect.landing_hole, effect.captured), (3, 0));
    }

    #[test]
    fn long_sowings_lap_without_skipping_the_origin() {
        // 20 stones: 18 fill one lap, the 19th goes back into the origin, the 20th lands on the
        // next hole.
        let fen = "20,0,0,0,0,0,0,0,0/0,0,0,0,0,0,0,0,0 71 71 w";
        let (pos, effect) = play(fen, Variant::TOGYZ, 1);
        assert_eq!(pos.row(Side::South), &[2, 2, 1, 1, 1, 1, 1, 1, 1]);
        assert_eq!(effect.landing_hole, 2);
        let (pos, _) = play(
            fen,
            Variant::TOGYZ.with_sowing(Sowing::SkipOrigin),
            1,
        );
        // Skip-origin: 17 holes, 20 stones = one lap plus 3.
        assert_eq!(pos.row(Side::South), &[0, 2, 2, 2, 1, 1, 1, 1, 1]);
    }

    #[test]
    fn singleton_capture_needs_a_lone_stone() {
        let singleton = Variant::TOGYZ.with_capture(Capture::Singleton);
        let fen = "0,0,0,0,0,0,0,0,2/3,0,0,0,0,0,0,0,0 78 79 w";
        let (pos, effect) = play(fen, Variant::TOGYZ, 9);
        assert_eq!(effect.captured, 4);
        assert_eq!(pos.kazan(Side::South), 82);
        let (pos, effect) = play(fen, singleton, 9);
        assert_eq!(effect.captured, 0);
        assert_eq!(pos.stones(Side::North, 1), 4);
    }
}
