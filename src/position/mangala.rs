//! Mangala IV (RULES.md, "Mangala IV"): the leftmost-hole (or free-choice) move, relay sowing,
//! captures on 2 and 4 with the opposite hole and the backward chain, and the pass.
//!
//! The kazan fields hold each player's captured counters. A finished position (every hole
//! empty) has no moves; a mover whose row is empty while counters remain must pass, and the
//! pass is then its only move, shown in [`Position::legal_mask`] as [`PASS_BIT`].

use super::{Effect, Position, Side, zobrist};
use crate::moves::PASS_BIT;
use crate::variant::MangalaMove;

/// A move stops relaying after this many lifts (the first lift of the chosen hole included):
/// if the last of them ends on 3 or 5+, the move ends there without a capture. RULES.md does
/// not say whether a relay can go on for ever; in millions of random moves none lifted more
/// than 68 times, so the cap only guarantees that a move ends.
pub const MAX_LIFTS: u32 = 4096;

/// The backward capture walk looks at no more than this many holes (RULES.md).
pub const MAX_WALK_STEPS: usize = 13;

const RING: usize = 14;
const ROW: usize = 7;

/// The ring index of the hole opposite `index` (South k faces North 8 - k).
#[inline(always)]
fn opposite(index: usize) -> usize {
    RING - 1 - index
}

impl Position {
    /// Legal moves of a Mangala IV position as a bit set.
    #[inline]
    pub(crate) fn mangala_mask(&self) -> u16 {
        let ring = &self.holes[..RING];
        if ring.iter().all(|&c| c == 0) {
            return 0;
        }
        let start = self.side.index() * ROW;
        let mut row = 0u16;
        for (bit, &count) in ring[start..start + ROW].iter().enumerate() {
            row |= u16::from(count != 0) << bit;
        }
        if row == 0 {
            return PASS_BIT;
        }
        match self.variant.mangala_move() {
            MangalaMove::FreeChoice => row,
            MangalaMove::Leftmost => row & row.wrapping_neg(),
        }
    }

    /// Whether every hole is empty (the end of a Mangala IV game).
    pub(crate) fn mangala_board_empty(&self) -> bool {
        self.holes[..RING].iter().all(|&c| c == 0)
    }

    /// Plays mask bit `bit` (a hole, or [`PASS_BIT`]'s bit 15 for the pass).
    pub(crate) fn mangala_make(&mut self, bit: u32) -> Effect {
        let mover = self.side;
        if bit >= ROW as u32 {
            self.side = mover.opponent();
            self.key ^= zobrist::TABLES.north_to_move;
            return Effect {
                landing_side: mover,
                landing_hole: 0,
                captured: 0,
                made_tuzdik: false,
            };
        }
        let origin = mover.index() * ROW + bit as usize;
        let holes = &mut self.holes;
        let mut at = origin;
        let mut hand = u32::from(holes[at]);
        holes[at] = 0;
        let mut lifts = 1;
        let last = loop {
            // `hand` counters from the next hole on: whole laps first, then the rest.
            let laps = hand / RING as u32;
            if laps > 0 {
                for count in holes[..RING].iter_mut() {
                    *count += laps as u8;
                }
            }
            let rest = hand as usize % RING;
            for step in 1..=rest {
                holes[(at + step) % RING] += 1;
            }
            let last = (at + hand as usize) % RING;
            let count = holes[last];
            if (count == 3 || count >= 5) && lifts < MAX_LIFTS {
                hand = u32::from(count);
                holes[last] = 0;
                at = last;
                lifts += 1;
                continue;
            }
            break last;
        };
        let mut captured = 0u32;
        if matches!(holes[last], 2 | 4) {
            let mut hole = last;
            captured += u32::from(holes[hole]) + u32::from(holes[opposite(hole)]);
            holes[hole] = 0;
            holes[opposite(hole)] = 0;
            for _ in 0..MAX_WALK_STEPS {
                let previous = (hole + RING - 1) % RING;
                if !matches!(holes[previous], 2 | 4) {
                    break;
                }
                captured += u32::from(holes[previous]) + u32::from(holes[opposite(previous)]);
                holes[previous] = 0;
                holes[opposite(previous)] = 0;
                hole = previous;
            }
        }
        self.kazans[mover.index()] += captured as u8;
        self.side = mover.opponent();
        self.key = self.compute_key();
        let landing_side = if last < ROW { Side::South } else { Side::North };
        Effect {
            landing_side,
            landing_hole: (last - landing_side.index() * ROW) as u8 + 1,
            captured: captured as u8,
            made_tuzdik: false,
        }
    }

    /// A random traditional set-up: all 98 counters dropped one by one into holes chosen by a
    /// PRNG seeded with `seed` (the same seed gives the same board everywhere), South to move.
    ///
    /// ```
    /// use tuzdik::Position;
    /// let a = Position::random_mangala(7);
    /// assert_eq!(a, Position::random_mangala(7));
    /// assert_eq!(a.stones_on_board(), 98);
    /// ```
    pub fn random_mangala(seed: u64) -> Position {
        let variant = crate::Variant::new(crate::Family::Mangala4);
        let mut holes = [0u8; zobrist::MAX_RING];
        let mut state = seed ^ 0x6D61_6E67_616C_6134; // "mangala4"
        for _ in 0..variant.total_stones() {
            // splitmix64, then a multiply-shift onto 0..14 (no modulo bias worth a thought).
            state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
            let mut z = state;
            z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
            z ^= z >> 31;
            let hole = ((u128::from(z) * RING as u128) >> 64) as usize;
            holes[hole] += 1;
        }
        Position::assemble(variant, holes, [0, 0], [super::NO_TUZDIK; 2], Side::South)
    }
}

#[cfg(test)]
mod tests {
    use crate::{Family, MangalaMove, Move, Position, Side, Variant};

    fn mangala(free: bool) -> Variant {
        let v = Variant::new(Family::Mangala4);
        if free {
            v.with_mangala_move(MangalaMove::FreeChoice)
        } else {
            v
        }
    }

    fn play(fen: &str, free: bool, mv: Move) -> Position {
        let mut pos = Position::parse_with(fen, mangala(free)).unwrap();
        pos.try_play(mv).unwrap();
        assert_eq!(pos.key(), pos.compute_key());
        pos
    }

    #[test]
    fn leftmost_is_the_only_move_and_free_choice_has_all() {
        let start = Position::start(mangala(false));
        assert_eq!(start.legal_moves().as_slice(), &[Move::hole(1)]);
        let free = Position::start(mangala(true));
        assert_eq!(free.legal_moves().len(), 7);
        let pos =
            Position::parse_with("0,0,3,0,1,0,0/7,7,7,7,7,7,7 20 25 w", mangala(false)).unwrap();
        assert_eq!(pos.legal_moves().as_slice(), &[Move::hole(3)]);
        assert!(pos.after(Move::hole(5)).is_err());
    }

    #[test]
    fn sowing_starts_at_the_next_hole_and_relays_on_three() {
        // Hole 1's two counters: holes 2 and 3; hole 3 then holds 3 and is lifted: 4, 5, 6.
        let pos = play("2,0,2,0,0,0,0/7,7,7,7,7,7,7 20 25 w", false, Move::hole(1));
        assert_eq!(pos.row(Side::South), &[0, 1, 0, 1, 1, 1, 0]);
        assert_eq!(pos.side_to_move(), Side::North);
    }

    #[test]
    fn ending_on_two_captures_it_its_opposite_and_the_chain_behind() {
        // South 1 (one counter) lands on South 2, now 2: captured with North 6 (opposite).
        // The walk goes back to South 1 (now 0): it stops.
        let pos = play("1,1,0,0,0,0,0/0,0,0,0,0,5,0 40 51 w", false, Move::hole(1));
        assert_eq!(pos.kazan(Side::South), 40 + 2 + 5);
        assert_eq!(pos.stones_on_board(), 0);
        let pos = play("0,2,1,1,0,0,0/1,0,0,0,3,1,1 40 48 w", true, Move::hole(3));
        // Lands on South 4 (now 2): takes it and North 4; back: South 3 (now 0) stops.
        assert_eq!(pos.kazan(Side::South), 42);
        let pos = play("0,2,0,1,0,0,0/1,0,0,0,3,1,1 40 49 w", true, Move::hole(2));
        // South 2's two counters: South 3 and 4 (now 1 and 2): lands on 2: takes South 4 and
        // North 4 (0); back: South 3 holds 1: stops.
        assert_eq!(pos.kazan(Side::South), 42);
    }

    #[test]
    fn the_chain_walks_back_over_twos_and_fours() {
        // South 1's three counters make South 2, 3 and 4 hold 2 each; the last lands on South
        // 4: it and North 4 go, then South 3 with North 5, South 2 with North 6; South 1 is
        // empty and ends the walk.
        let pos = play("3,1,1,1,0,0,0/0,0,0,5,6,7,0 37 37 w", false, Move::hole(1));
        assert_eq!(pos.kazan(Side::South), 37 + 24);
        assert_eq!(pos.stones_on_board(), 0);
        assert!(pos.legal_moves().is_empty());
    }

    #[test]
    fn an_empty_row_must_pass() {
        let pos =
            Position::parse_with("0,0,0,0,0,0,0/0,0,1,0,0,0,0 50 47 w", mangala(false)).unwrap();
        assert_eq!(pos.legal_moves().as_slice(), &[Move::PASS]);
        let after = pos.after(Move::PASS).unwrap();
        assert_eq!(after.side_to_move(), Side::North);
        assert_eq!(after.key(), after.compute_key());
        assert!(pos.after(Move::hole(1)).is_err());
        let empty =
            Position::parse_with("0,0,0,0,0,0,0/0,0,0,0,0,0,0 50 48 b", mangala(false)).unwrap();
        assert!(empty.legal_moves().is_empty());
        assert_eq!(empty.final_scores(), Some([50, 48]));
    }

    #[test]
    fn random_setups_hold_every_counter() {
        for seed in 0..50 {
            let pos = Position::random_mangala(seed);
            assert_eq!(pos.stones_on_board(), 98);
            assert_eq!(
                Position::parse_with(&pos.to_string(), mangala(false)),
                Ok(pos)
            );
        }
        assert_ne!(Position::random_mangala(1), Position::random_mangala(2));
    }
}
