//! Predicting what each move gains without making it, for move ordering, quiescence and the
//! evaluation's threat term.
//!
//! A sowing shorter than the ring touches each hole at most once, so where its last stone
//! lands, what that hole then holds and whether it passes the mover's tuzdik follow from the
//! counts alone. Longer sowings are rare; they are reported as [`Gain::Unknown`] and made.
//!
//! [`Scan`] predicts every legal move of a node in one pass, monomorphised by the row length
//! and without a branch on the board (whether a landing captures is a coin toss). It works in
//! two steps: first, for every hole of the ring at once (eight to a word), what a last stone
//! landing there would take; then, for each of the mover's holes, where its last stone lands
//! (the fast make's table of sowing runs, by origin and count) and whether the run passes the
//! mover's tuzdik. The
//! search scans a node once and reads the result for the evaluation, the move order and the
//! quiescence captures.

use super::packed::{ONES, RUN_LAST, UNPREDICTED, tables, zero_bytes};
use super::{Position, with_row_len};
use crate::variant::{Capture, Sowing};

pub use super::packed::Words;

/// What a move is predicted to put into the mover's kazan.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Gain {
    /// Exactly this many stones (0 for a quiet move).
    Exact(i32),
    /// A sowing long enough to lap the ring: make it to know.
    Unknown,
}

/// The predicted gain of every legal move of a position, for the side to move.
#[derive(Clone, Copy, Debug)]
pub struct Scan {
    /// The legal moves: bit `h - 1` for hole `h`.
    moves: u16,
    /// Legal moves whose sowing laps the ring ([`Gain::Unknown`]).
    unknown: u16,
    /// `gains[h - 1]`: the stones hole `h` would gain (meaningful for predicted legal moves).
    /// One per bit of a move mask, the pass's too (always 0), so that any legal move's bit
    /// indexes it.
    gains: [u8; 16],
    /// The largest predicted gain (0 when there is none).
    best: u8,
}

impl Scan {
    /// Predicts every legal move of `pos`.
    #[inline]
    pub fn new(pos: &Position) -> Scan {
        Scan::with_words(pos, pos.legal_mask(), &ring_words(pos))
    }

    /// The same, given `pos.legal_mask()` and [`ring_words`]`(pos)`.
    #[inline]
    pub fn with_words(pos: &Position, moves: u16, words: &Words) -> Scan {
        with_row_len!(pos.variant(), N, M => Scan::with_words_n::<N, M>(pos, moves, words))
    }

    /// The same for a position of row length `N`, of Mangala IV when `MANGALA`: for the
    /// search, which is compiled for one row length (it dispatches once, at the root).
    #[inline(always)]
    pub fn with_words_n<const N: usize, const MANGALA: bool>(
        pos: &Position,
        moves: u16,
        words: &Words,
    ) -> Scan {
        // Mangala IV's relay sowing is not predicted: every move (the pass too) is made.
        if MANGALA {
            return Scan {
                moves,
                unknown: moves,
                gains: [0; 16],
                best: 0,
            };
        }
        scan::<N>(pos, moves, words)
    }

    /// The legal moves: bit `h - 1` for hole `h`.
    #[inline(always)]
    pub fn moves(&self) -> u16 {
        self.moves
    }

    /// What playing hole `offset + 1` (a legal move) would gain.
    #[inline(always)]
    pub fn gain(&self, offset: usize) -> Gain {
        if self.unknown & (1 << offset) != 0 {
            Gain::Unknown
        } else {
            Gain::Exact(i32::from(self.gains[offset]))
        }
    }

    /// The predicted gain of the move of mask bit `offset`, without looking at whether it is
    /// predicted: meaningful only for a move whose bit is clear in
    /// [`unknown`](Self::unknown), and 0 for any bit that is no predicted move (Mangala IV's
    /// pass included).
    #[inline(always)]
    pub fn exact_gain(&self, offset: usize) -> i32 {
        i32::from(self.gains[offset & 15])
    }

    /// Whether the move of mask bit `offset` is predicted to gain nothing: known quiet
    /// without being made.
    #[inline(always)]
    pub fn predicts_quiet(&self, offset: usize) -> bool {
        self.unknown & (1 << offset) == 0 && self.exact_gain(offset) == 0
    }

    /// The legal moves whose sowing laps the ring ([`Gain::Unknown`]), by bit.
    #[inline(always)]
    pub fn unknown(&self) -> u16 {
        self.unknown
    }

    /// The largest capture (or tuzdik, or stone into the mover's tuzdik) the side to move
    /// can make now, over its predicted moves; 0 when there is none.
    #[inline(always)]
    pub fn best_gain(&self) -> i32 {
        i32::from(self.best)
    }
}

/// The hole counts of `pos` as [`Words`].
#[inline]
pub fn ring_words(pos: &Position) -> Words {
    with_row_len!(pos.variant(), N => ring_words_n::<N>(pos))
}

/// [`ring_words`] of a position of row length `N` (Mangala IV's is 7).
#[inline(always)]
pub fn ring_words_n<const N: usize>(pos: &Position) -> Words {
    pos.wide::<N>().words()
}

/// `ROWS[side]` for one row length: 1 in the bytes of `side`'s row, and `[2 + side]` the same
/// less the row's last hole (where no tuzdik can be made).
const fn row_flags(n: usize) -> [Words; 4] {
    let mut flags = [[0; 3]; 4];
    let mut i = 0;
    while i < 2 * n {
        let side = i / n;
        flags[side][i / 8] |= 1 << (8 * (i % 8));
        if i % n != n - 1 {
            flags[2 + side][i / 8] |= 1 << (8 * (i % 8));
        }
        i += 1;
    }
    flags
}

#[inline(always)]
fn scan<const N: usize>(pos: &Position, moves: u16, words: &Words) -> Scan {
    let ring = 2 * N;
    let runs = &tables::<N>().runs[usize::from(pos.variant().sowing() == Sowing::SkipOrigin)];
    let rows = const { row_flags(N) };
    let variant = pos.variant();
    let mover = pos.side_to_move();
    let them = mover.opponent();
    let cells = pos.ring_n::<N>();

    // Where landing on 3 makes a tuzdik (RULES.md 2a-2c): the opponent's row but its last
    // hole and the hole numbered like the opponent's tuzdik, if the mover may make one.
    let own_tuzdik = pos.tuzdik_square(mover);
    let mut targets = if variant.tuzdik() && own_tuzdik.is_none() {
        rows[2 + them.index()]
    } else {
        [0; 3]
    };
    if let Some(square) = pos.tuzdik_square(them) {
        // The opponent's tuzdik is on the mover's row; the same number on theirs, N holes
        // round the ring, is barred.
        let barred = (square + N) % ring;
        targets[barred / 8] &= !(1 << (8 * (barred % 8)));
    }
    // What a last stone landing in each hole takes: an even count (or a lone pair, under
    // singleton capture) on the opponent's row, or 3 for a new tuzdik. The mover's own
    // tuzdik needs no exception: it holds 0, so a last stone there makes 1 and takes nothing.
    let singleton = variant.capture() == Capture::Singleton;
    let mut takes = [0u8; 32];
    for w in 0..3 {
        let landed = words[w] + ONES;
        let captures = if singleton {
            zero_bytes(landed ^ (2 * ONES))
        } else {
            !landed & ONES
        } & rows[them.index()][w];
        let makes_tuzdik = zero_bytes(landed ^ (3 * ONES)) & targets[w];
        let taken = (landed & (captures * 0xff)) | (makes_tuzdik * 3);
        takes[8 * w..8 * w + 8].copy_from_slice(&taken.to_le_bytes());
    }

    // A stone sown into the mover's own tuzdik goes to the mover's kazan.
    let own_tuzdik_bit = own_tuzdik.map_or(0, |square| 1 << square);
    // Gains are worked out for every hole of the row with no branch; empty holes and
    // sowings the scan leaves to making come out 0.
    let mut gains = [0u8; 16];
    let mut laps = 0u16;
    let mut best = 0u8;
    for (offset, gain) in gains.iter_mut().enumerate().take(N) {
        let origin = mover.index() * N + offset;
        let run = runs[origin][usize::from(cells[origin]).min(ring - 1)];
        let last = (run >> RUN_LAST) as usize & 31;
        *gain = takes[last] + u8::from(run & own_tuzdik_bit != 0);
        best = best.max(*gain);
        laps |= ((run / UNPREDICTED) as u16) << offset;
    }
    Scan {
        moves,
        unknown: laps & moves,
        gains,
        best,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Variant;
    use proptest::prelude::*;

    const SPECS: [&str; 5] = [
        "togyz",
        "togyz sowing=skip-origin",
        "togyz capture=singleton",
        "kozdatu tuzdik=on",
        "bestemshchi",
    ];

    proptest! {
        /// Every exact prediction equals what making the move really puts in the kazan, and
        /// only sowings that lap the ring are left unpredicted.
        #[test]
        fn predictions_match_the_real_move(spec in 0..SPECS.len(), choices in prop::collection::vec(0usize..9, 0..150)) {
            let variant: Variant = SPECS[spec].parse().unwrap();
            let mut pos = Position::start(variant);
            for choice in choices {
                let legal = pos.legal_moves();
                if legal.is_empty() { break; }
                let side = pos.side_to_move();
                let scan = Scan::new(&pos);
                prop_assert_eq!(scan.moves(), pos.legal_mask());
                let mut best = 0;
                for &mv in &legal {
                    let hole = mv.source().unwrap() as usize;
                    let stones = pos.stones(side, hole) as usize;
                    let after = pos.after(mv).unwrap();
                    if scan.predicts_quiet(hole - 1) {
                        prop_assert_eq!(after.kazan(side), pos.kazan(side), "{} hole {}", pos, hole);
                    }
                    match scan.gain(hole - 1) {
                        Gain::Exact(gain) => {
                            prop_assert_eq!(gain, after.kazan(side) as i32 - pos.kazan(side) as i32, "{} hole {}", pos, hole);
                            best = best.max(gain);
                        }
                        Gain::Unknown => prop_assert!(stones + 1 >= variant.ring_len()),
                    }
                }
                prop_assert_eq!(scan.best_gain(), best);
                pos.play(legal[choice % legal.len()]);
            }
        }
    }
}
