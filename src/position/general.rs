//! The general make (`sow_general`), lap-wise and byte by byte: `c` stones over a ring of `r`
//! holes put `c / r` into every hole and one more into the next `c % r`, so even a 100-stone
//! hole costs one pass over the ring. It takes the sowings the fast make leaves (those that lap
//! the ring, and an empty origin), and is the reference the fast paths are tested against.

use super::{Effect, NO_TUZDIK, Position, Side, zobrist};
use crate::variant::{Capture, Sowing};

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
    /// to move), applies the capture rules and passes the move: the general path, stone runs
    /// written byte by byte, for every sowing the register path [`make`](Self::make) leaves
    /// (sowings that lap the ring, and an empty origin).
    #[inline(never)]
    #[cold]
    pub(super) fn sow_general<const HASH: bool>(&mut self, origin: usize) -> Effect {
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
                Capture::Standard => count.is_multiple_of(2),
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
            for (player, &old) in old_kazans.iter().enumerate() {
                if old != self.kazans[player] {
                    self.key ^=
                        zobrist::kazan(player, old) ^ zobrist::kazan(player, self.kazans[player]);
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
