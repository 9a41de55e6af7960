//! The static evaluation: the kazan margin plus what the board promises. Always from the side
//! to move's point of view, in units of 1/100 stone.

use super::ordering::{ONES, Scan, Words, ring_words, zero_bytes};
use super::parameters::eval as weights;
use crate::position::{Position, Side, with_row_len};

/// How many named features ([`Feature`]) the evaluation has.
pub const NAMED: usize = 13;
/// Holes per row in the hole table (Toguz Kumalak's rows; the smaller variants have none).
pub const TABLE_HOLES: usize = 9;
/// Stone counts the hole table tells apart: 0 to 14, and 15 or more.
pub const TABLE_COUNTS: usize = 16;
/// How many features the evaluation has: the named ones, then the hole table's, one per
/// hole and count ([`table_feature`]).
pub const FEATURES: usize = NAMED + TABLE_HOLES * TABLE_COUNTS;

/// The index of the hole table's feature for a hole numbered `hole + 1` holding `stones`:
/// 1 for each such own hole, less 1 for each such hole of the opponent's.
///
/// ```
/// use tuzdik::search::eval::{NAMED, table_feature};
/// assert_eq!(table_feature(0, 0), NAMED);
/// assert_eq!(table_feature(1, 40), table_feature(1, 15));
/// ```
pub const fn table_feature(hole: usize, stones: u8) -> usize {
    NAMED + hole * TABLE_COUNTS + table_count(stones)
}

/// The hole table's count for a hole of `stones`: the last counts all larger holes.
#[inline(always)]
const fn table_count(stones: u8) -> usize {
    if (stones as usize) < TABLE_COUNTS {
        stones as usize
    } else {
        TABLE_COUNTS - 1
    }
}

/// The evaluation's features, each a side-to-move-minus-opponent quantity (the index into
/// [`Features`] and [`Weights`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Feature {
    /// Stones in the kazan.
    Kazan,
    /// Owning a tuzdik (0 or 1).
    Tuzdik,
    /// Stones on the own row.
    RowStones,
    /// Non-empty holes on the own row (the legal moves).
    Mobility,
    /// Having the move: always 1 for the side to move.
    Tempo,
    /// Stones of the best capture the side to move can make now (never negative).
    Threat,
    /// The kazan margin weighted by how far the game has gone: `(a² - b²) * 8 / N²` for
    /// kazans `a` and `b` and a row of `N` holes, that is 16 times the margin times the share
    /// of all stones already captured. A lead counts for more when fewer stones are left to
    /// win it back.
    KazanPhase,
    /// The number (1..N, on the opponent's row) of the hole the tuzdik stands on, 0 without
    /// one. Holes differ in how many sowings pass over them.
    TuzdikHole,
    /// Holes of the own row holding an odd number of stones: one more stone from the
    /// opponent's sowing makes such a hole even, and the opponent captures it.
    OddHoles,
    /// Holes of the own row holding exactly one stone: the opponent's next stone makes two,
    /// a capture, and the hole's own move is a one-stone step that gains nothing.
    Singletons,
    /// Stones in the fullest own hole: a hoard that can lap the ring and end where it
    /// captures, and that the opponent can rarely take.
    LargestHole,
    /// Stones that the own holes' moves would sow past the end of the own row, counted up to
    /// a row per hole: what a move hands across to the opponent's row (where it may feed a
    /// capture of the opponent's or be taken back by capturing there). Counted as standard
    /// sowing goes, the first stone back into its hole, whatever the rule switches.
    StonesAcross,
    /// The mobility margin weighted by how far the game has gone: `(m - o) * (a + b) * 8 /
    /// N²` for `m` and `o` non-empty holes and kazans `a` and `b`, that is 16 times the
    /// margin times the share of all stones captured. Empty holes matter more as the stones
    /// run out: a side that cannot move ends the game.
    MobilityPhase,
}

impl Feature {
    /// Every feature, in index order.
    pub const ALL: [Feature; NAMED] = [
        Feature::Kazan,
        Feature::Tuzdik,
        Feature::RowStones,
        Feature::Mobility,
        Feature::Tempo,
        Feature::Threat,
        Feature::KazanPhase,
        Feature::TuzdikHole,
        Feature::OddHoles,
        Feature::Singletons,
        Feature::LargestHole,
        Feature::StonesAcross,
        Feature::MobilityPhase,
    ];

    /// The name in `eval` output and in the tuner's report.
    pub const fn name(self) -> &'static str {
        match self {
            Feature::Kazan => "kazan",
            Feature::Tuzdik => "tuzdik",
            Feature::RowStones => "row stones",
            Feature::Mobility => "mobility",
            Feature::Tempo => "tempo",
            Feature::Threat => "capture threat",
            Feature::KazanPhase => "kazan phase",
            Feature::TuzdikHole => "tuzdik hole",
            Feature::OddHoles => "odd holes",
            Feature::Singletons => "singletons",
            Feature::LargestHole => "largest hole",
            Feature::StonesAcross => "stones across",
            Feature::MobilityPhase => "mobility phase",
        }
    }

    /// The constant's name in `parameters.rs`.
    pub const fn constant(self) -> &'static str {
        match self {
            Feature::Kazan => "KAZAN",
            Feature::Tuzdik => "TUZDIK",
            Feature::RowStones => "ROW_STONE",
            Feature::Mobility => "MOBILITY",
            Feature::Tempo => "TEMPO",
            Feature::Threat => "THREAT_TO_MOVE_PERCENT",
            Feature::KazanPhase => "KAZAN_PHASE",
            Feature::TuzdikHole => "TUZDIK_HOLE",
            Feature::OddHoles => "ODD_HOLES",
            Feature::Singletons => "SINGLETONS",
            Feature::LargestHole => "LARGEST_HOLE",
            Feature::StonesAcross => "STONES_ACROSS",
            Feature::MobilityPhase => "MOBILITY_PHASE",
        }
    }
}

/// The feature values of a position: `[side to move, opponent]` for each feature (the tempo
/// and the threat are the mover's alone, so the opponent's are 0).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Features {
    /// `sides[f as usize]` = (the mover's, the opponent's) quantity.
    pub sides: [(i32, i32); FEATURES],
}

impl Features {
    /// Side to move minus opponent, per feature.
    pub fn diffs(&self) -> [i32; FEATURES] {
        self.sides.map(|(us, them)| us - them)
    }

    /// One feature's difference.
    pub fn get(&self, feature: Feature) -> i32 {
        let (us, them) = self.sides[feature as usize];
        us - them
    }
}

/// A weight per feature, in score units (1/100 stone) per unit of the feature.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Weights(pub [i32; FEATURES]);

impl Weights {
    /// The weights the engine is compiled with (`parameters::eval`).
    pub const DEFAULT: Weights = Weights::with_table(
        [
            weights::KAZAN,
            weights::TUZDIK,
            weights::ROW_STONE,
            weights::MOBILITY,
            weights::TEMPO,
            weights::THREAT_TO_MOVE_PERCENT,
            weights::KAZAN_PHASE,
            weights::TUZDIK_HOLE,
            weights::ODD_HOLES,
            weights::SINGLETONS,
            weights::LARGEST_HOLE,
            weights::STONES_ACROSS,
            weights::MOBILITY_PHASE,
        ],
        weights::HOLE_TABLE,
    );

    /// The named weights followed by the hole table's.
    const fn with_table(named: [i32; NAMED], table: [[i32; TABLE_COUNTS]; TABLE_HOLES]) -> Weights {
        let mut all = [0; FEATURES];
        let mut i = 0;
        while i < FEATURES {
            all[i] = if i < NAMED {
                named[i]
            } else {
                table[(i - NAMED) / TABLE_COUNTS][(i - NAMED) % TABLE_COUNTS]
            };
            i += 1;
        }
        Weights(all)
    }

    /// One feature's weight.
    pub const fn get(&self, feature: Feature) -> i32 {
        self.0[feature as usize]
    }

    /// The evaluation these weights give to `features` (with the search's limits).
    pub fn apply(&self, features: &Features) -> i32 {
        let threat = Feature::Threat as usize;
        let board: i32 = (self.0.iter().zip(features.diffs()).enumerate())
            .filter(|&(i, _)| i != threat)
            .map(|(_, (w, f))| w * f)
            .sum();
        board.clamp(-BOARD_LIMIT, BOARD_LIMIT)
            + (self.0[threat] * features.get(Feature::Threat)).min(THREAT_LIMIT)
    }
}

/// The board part of the evaluation stays within this many score units, and the threat term
/// below [`THREAT_LIMIT`]: together they stay clear of the mate scores (and of the table's
/// 16 bits) whatever weights the tuner finds.
pub const BOARD_LIMIT: i32 = 20_000;
/// See [`BOARD_LIMIT`].
pub const THREAT_LIMIT: i32 = 5_000;
const _: () = assert!(BOARD_LIMIT + THREAT_LIMIT < super::MATE_BOUND);
// The search takes the board part as a lower bound of the evaluation.
const _: () = assert!(Weights::DEFAULT.get(Feature::Threat) >= 0);

/// The compiled weights, read as constants so that zero weights cost nothing.
const W: Weights = Weights::DEFAULT;

/// A margin weighted by how far the game has gone: `margin * captured * 8 / N²`, 16 times
/// the margin times the share of all `2N²` stones captured, for the phase features
/// ([`Feature::KazanPhase`], whose margin is the kazans' and `a² - b²` that product, and
/// [`Feature::MobilityPhase`]). Truncation is toward zero, so the two sides' values are
/// exact opposites.
#[inline(always)]
const fn by_phase(margin: i32, captured: i32, n: i32) -> i32 {
    margin * captured * 8 / (n * n)
}

fn tuzdik_hole(pos: &Position, side: Side) -> i32 {
    pos.tuzdik(side).map_or(0, i32::from)
}

fn odd_holes(pos: &Position, side: Side) -> i32 {
    pos.row(side).iter().filter(|&&c| c % 2 == 1).count() as i32
}

fn singletons(pos: &Position, side: Side) -> i32 {
    pos.row(side).iter().filter(|&&c| c == 1).count() as i32
}

fn largest_hole(pos: &Position, side: Side) -> i32 {
    pos.row(side).iter().copied().max().map_or(0, i32::from)
}

fn stones_across(pos: &Position, side: Side) -> i32 {
    let n = pos.variant().holes_per_side();
    (pos.row(side).iter().enumerate())
        .map(|(i, &stones)| sown_across(i32::from(stones), i, n))
        .sum()
}

/// What a row of `n` holes' hole `hole + 1` holding `stones` sows across
/// ([`Feature::StonesAcross`]): it sows its first stone back into itself, so `n - hole`
/// stones stay on the row and the rest go on, a whole row at most before they come round
/// again. Shared by the plain features and the search's per-hole table.
const fn sown_across(stones: i32, hole: usize, n: usize) -> i32 {
    let beyond = stones - (n - hole) as i32;
    if beyond <= 0 {
        0
    } else if beyond >= n as i32 {
        n as i32
    } else {
        beyond
    }
}

fn mobility(pos: &Position, side: Side) -> i32 {
    pos.row(side).iter().filter(|&&c| c != 0).count() as i32
}

/// Every feature of `pos`, computed plainly (for the tuner and `eval`; the search has its
/// own fast path, checked against this one by the tests).
pub fn features(pos: &Position) -> Features {
    let us = pos.side_to_move();
    let them = us.opponent();
    let pair = |f: &dyn Fn(Side) -> i32| (f(us), f(them));
    let n = pos.variant().holes_per_side() as i32;
    let (a, b) = (pos.kazan(us) as i32, pos.kazan(them) as i32);
    let mut sides = [(0, 0); FEATURES];
    for feature in Feature::ALL {
        sides[feature as usize] = match feature {
            Feature::Kazan => pair(&|s| pos.kazan(s) as i32),
            Feature::Tuzdik => pair(&|s| i32::from(pos.tuzdik(s).is_some())),
            Feature::RowStones => pair(&|s| pos.stones_on_side(s) as i32),
            Feature::Mobility => pair(&|s| mobility(pos, s)),
            Feature::Tempo => (1, 0),
            Feature::Threat => (Scan::new(pos).best_gain(), 0),
            // A quantity of the pair of kazans, not of one side: all of it is the mover's.
            Feature::KazanPhase => (by_phase(a - b, a + b, n), 0),
            Feature::TuzdikHole => pair(&|s| tuzdik_hole(pos, s)),
            Feature::OddHoles => pair(&|s| odd_holes(pos, s)),
            Feature::Singletons => pair(&|s| singletons(pos, s)),
            Feature::LargestHole => pair(&|s| largest_hole(pos, s)),
            Feature::StonesAcross => pair(&|s| stones_across(pos, s)),
            // Like the kazan phase, a quantity of both sides at once: all of it is the mover's.
            Feature::MobilityPhase => (
                by_phase(mobility(pos, us) - mobility(pos, them), a + b, n),
                0,
            ),
        };
    }
    if n as usize == TABLE_HOLES {
        for (i, &stones) in pos.row(us).iter().enumerate() {
            sides[table_feature(i, stones)].0 += 1;
        }
        for (i, &stones) in pos.row(them).iter().enumerate() {
            sides[table_feature(i, stones)].1 += 1;
        }
    }
    Features { sides }
}

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
    with_row_len!(pos.variant(), N => board_score_n::<N>(pos, words))
}

/// [`board_score`] of a position of row length `N` (Mangala IV's is 7): for the search,
/// which is compiled for one row length.
#[inline(always)]
pub fn board_score_n<const N: usize>(pos: &Position, words: &Words) -> i32 {
    let us = pos.side_to_move();
    let them = us.opponent();
    let (a, b) = (pos.kazan(us) as i32, pos.kazan(them) as i32);
    // The tuzdiks by ring index, which give their hole numbers with no division.
    let (ours_square, theirs_square) = (pos.tuzdik_square(us), pos.tuzdik_square(them));
    let tuzdiks = i32::from(ours_square.is_some()) - i32::from(theirs_square.is_some());
    // A tuzdik stands on the row across from its owner: its hole number is its ring index
    // less that row's start (a subtraction, where `% N` would take a multiply and more).
    let hole = |square: Option<usize>, row: Side| {
        square.map_or(0, |square| (square - row.index() * N) as i32 + 1)
    };
    let phase = if W.get(Feature::KazanPhase) != 0 {
        by_phase(a - b, a + b, N as i32)
    } else {
        0
    };
    let holes = hole(ours_square, them) - hole(theirs_square, us);
    let (ours, theirs) = (us.index(), them.index());
    let mut score = W.get(Feature::Kazan) * (a - b)
        + W.get(Feature::Tuzdik) * tuzdiks
        + W.get(Feature::Tempo)
        + W.get(Feature::KazanPhase) * phase;
    // Every term of one hole's count alone is in the per-hole table.
    let ring = pos.ring_n::<N>();
    score += hole_scores::<N>(ring, ours * N) - hole_scores::<N>(ring, theirs * N);
    if W.get(Feature::MobilityPhase) != 0 {
        let occupied = occupied_holes::<N>(words);
        let margin = occupied[ours] - occupied[theirs];
        score += W.get(Feature::MobilityPhase) * by_phase(margin, a + b, N as i32);
    }
    if W.get(Feature::LargestHole) != 0 {
        let largest = largest_holes::<N>(words);
        score += W.get(Feature::LargestHole) * (largest[ours] - largest[theirs]);
    }
    if W.get(Feature::TuzdikHole) != 0 {
        score += W.get(Feature::TuzdikHole) * holes;
    }
    score.clamp(-BOARD_LIMIT, BOARD_LIMIT)
}

/// The hole table's score of the row of a Toguz ring starting at `start` (for `eval`).
fn hole_table(ring: &[u8], start: usize) -> i32 {
    let row = &ring[start..start + TABLE_HOLES];
    (weights::HOLE_TABLE.iter().zip(row))
        .map(|(values, &stones)| values[table_count(stones)])
        .sum()
}

/// What the terms of one hole's count alone come to over the row of `N` holes starting at
/// `start` of the ring: see [`HoleScores`].
#[inline(always)]
fn hole_scores<const N: usize>(ring: &[u8], start: usize) -> i32 {
    let row = &ring[start..start + N];
    (HoleScores::<N>::TABLE.iter().zip(row))
        .map(|(values, &stones)| values[usize::from(stones)])
        .sum()
}

/// `HoleScores::<N>::TABLE[h][c]`: everything the evaluation of a row of `N` holes makes of
/// its hole numbered `h + 1` holding `c` stones, for every byte `c` can be: its share of the
/// row stones, mobility, odd holes, singletons and stones across, and on Toguz rows the hole
/// table's weight. The search then reads each hole once, with no cap on the count and no
/// counting of the rows (`benches/instructions.py` over the first four bench positions:
/// 1,226 → 1,049 instructions a node); the sums are the same integers.
struct HoleScores<const N: usize>;

impl<const N: usize> HoleScores<N> {
    const TABLE: [[i32; 256]; N] = {
        let mut scores = [[0; 256]; N];
        let mut hole = 0;
        while hole < N {
            let mut count = 0;
            while count < 256 {
                let stones = count as i32;
                let table = if N == TABLE_HOLES {
                    weights::HOLE_TABLE[hole][table_count(count as u8)]
                } else {
                    0
                };
                scores[hole][count] = table
                    + W.get(Feature::RowStones) * stones
                    + W.get(Feature::Mobility) * (stones != 0) as i32
                    + W.get(Feature::OddHoles) * (stones % 2)
                    + W.get(Feature::Singletons) * (stones == 1) as i32
                    + W.get(Feature::StonesAcross) * sown_across(stones, hole, N);
                count += 1;
            }
            hole += 1;
        }
        scores
    };
}

/// The capture-threat term: what the side to move's best predicted capture is worth.
#[inline(always)]
pub fn threat_score(scan: &Scan) -> i32 {
    (W.get(Feature::Threat) * scan.best_gain()).min(THREAT_LIMIT)
}

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

/// The most stones in one hole of each row, `[South, North]`, eight holes at a time: a
/// byte-wise maximum needs all eight bits of a lane (a hole may hold more than 127 stones),
/// which word arithmetic cannot give cheaply and SSE2's unsigned byte maximum does.
#[inline(always)]
fn largest_holes<const N: usize>(words: &Words) -> [i32; 2] {
    let masks = const { row_masks(N) };
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::{
            _mm_and_si128, _mm_cvtsi128_si64, _mm_max_epu8, _mm_set_epi64x, _mm_set1_epi64x,
            _mm_srli_epi64, _mm_unpackhi_epi64,
        };
        // SAFETY: SSE2 is part of the x86-64 baseline: every machine this compiles for has
        // these instructions, and they touch no memory.
        unsafe {
            // South's holes in the low half of the vector, North's in the high half.
            let halves = |word: u64, mask: [u64; 2]| {
                _mm_and_si128(
                    _mm_set1_epi64x(word as i64),
                    _mm_set_epi64x(mask[1] as i64, mask[0] as i64),
                )
            };
            let mut most = _mm_max_epu8(halves(words[0], masks[0]), halves(words[1], masks[1]));
            if 2 * N > 16 {
                most = _mm_max_epu8(most, halves(words[2], masks[2]));
            }
            most = _mm_max_epu8(most, _mm_srli_epi64::<32>(most));
            most = _mm_max_epu8(most, _mm_srli_epi64::<16>(most));
            most = _mm_max_epu8(most, _mm_srli_epi64::<8>(most));
            let south = _mm_cvtsi128_si64(most) as u8;
            let north = _mm_cvtsi128_si64(_mm_unpackhi_epi64(most, most)) as u8;
            [i32::from(south), i32::from(north)]
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        let mut largest = [0; 2];
        for (side, most) in largest.iter_mut().enumerate() {
            for (word, mask) in words.iter().zip(masks) {
                for stones in (word & mask[side]).to_le_bytes() {
                    *most = (*most).max(i32::from(stones));
                }
            }
        }
        largest
    }
}

/// The non-empty holes of each row, `[South, North]`, eight holes at a time. No byte lane
/// can carry into the next: each lane is one hole, 0 or 1, and a row's sum is at most 9.
#[inline(always)]
fn occupied_holes<const N: usize>(words: &Words) -> [i32; 2] {
    let masks = const { row_masks(N) };
    let sum_of_bytes = |x: u64| (x.wrapping_mul(ONES) >> 56) as i32;
    let mut occupied = [0; 2];
    for (side, count) in occupied.iter_mut().enumerate() {
        let mut lanes = 0;
        for (word, mask) in words.iter().zip(masks) {
            lanes += (zero_bytes(*word) ^ ONES) & mask[side];
        }
        *count = sum_of_bytes(lanes);
    }
    occupied
}

/// Every term, from South's point of view, and the total from the side to move's.
pub fn terms(pos: &Position) -> (Vec<Term>, i32) {
    let south_to_move = pos.side_to_move() == Side::South;
    let values = features(pos);
    let mut terms: Vec<Term> = Feature::ALL
        .iter()
        .map(|&feature| {
            let (us, them) = values.sides[feature as usize];
            let (south, north) = if south_to_move {
                (us, them)
            } else {
                (them, us)
            };
            Term {
                name: feature.name(),
                south,
                north,
                score: (south - north) * W.get(feature),
            }
        })
        .collect();
    if pos.variant().holes_per_side() == TABLE_HOLES {
        // The table has no single raw quantity: each side's figure is its row's sum.
        let ring = pos.ring();
        let (south, north) = (hole_table(ring, 0), hole_table(ring, TABLE_HOLES));
        terms.push(Term {
            name: "hole table",
            south,
            north,
            score: south - north,
        });
    }
    (terms, evaluate(pos))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Family, Variant};
    use proptest::prelude::*;

    #[test]
    fn terms_add_up_to_the_evaluation() {
        let pos: Position = "9,9,X,9,9,9,9,9,9/9,9,9,9,9,1,9,9,8 9 9 b".parse().unwrap();
        let (terms, total) = terms(&pos);
        let south: i32 = terms.iter().map(|t| t.score).sum();
        assert_eq!(total, -south);
    }

    #[test]
    fn singletons_and_odd_holes_are_counted_per_row() {
        // South: 1, 1, 3 and 1 are odd, three of them single; North: 1 and 5.
        let pos: Position = "1,1,0,3,2,4,1,0,2/1,5,2,2,4,0,6,8,10 60 50 w"
            .parse()
            .unwrap();
        let values = features(&pos);
        assert_eq!(values.sides[Feature::Singletons as usize], (3, 1));
        assert_eq!(values.sides[Feature::OddHoles as usize], (4, 2));
        let flipped: Position = "1,1,0,3,2,4,1,0,2/1,5,2,2,4,0,6,8,10 60 50 b"
            .parse()
            .unwrap();
        assert_eq!(features(&flipped).get(Feature::Singletons), -2);
        for pos in [pos, flipped] {
            assert_eq!(evaluate(&pos), Weights::DEFAULT.apply(&features(&pos)));
        }
    }

    /// Checks `feature`'s (mover, opponent) values in each position, and that the search's
    /// fast evaluation there is the weighted features.
    fn check_feature(feature: Feature, cases: &[(&str, (i32, i32))]) {
        for &(text, expected) in cases {
            let pos: Position = text.parse().unwrap();
            let values = features(&pos);
            assert_eq!(values.sides[feature as usize], expected, "{text}");
            let fast = evaluate(&pos);
            assert_eq!(fast, Weights::DEFAULT.apply(&values), "{text}: fast path");
        }
    }

    #[test]
    fn the_hole_table_counts_each_hole_by_its_number_and_stones() {
        // South to move: its hole 1 holds 12 stones, hole 9 holds 40 (counted as 15 or
        // more); North's hole 1 holds 12 as well, so that feature cancels out.
        let pos: Position = "12,1,0,3,2,4,1,0,40/12,5,2,2,4,0,6,8,10 23 27 w"
            .parse()
            .unwrap();
        let values = features(&pos);
        assert_eq!(values.sides[table_feature(0, 12)], (1, 1));
        assert_eq!(values.diffs()[table_feature(0, 12)], 0);
        assert_eq!(values.sides[table_feature(8, 15)], (1, 0));
        assert_eq!(values.sides[table_feature(8, 10)], (0, 1));
        assert_eq!(values.sides[table_feature(2, 0)], (1, 0));
        assert_eq!(values.sides[table_feature(5, 0)], (0, 1));
        // Each side has one feature per hole.
        let table = &values.sides[NAMED..];
        assert_eq!(table.iter().map(|&(us, _)| us).sum::<i32>(), 9);
        assert_eq!(table.iter().map(|&(_, them)| them).sum::<i32>(), 9);
        assert_eq!(evaluate(&pos), Weights::DEFAULT.apply(&values), "fast path");
        // Rows of 7 and 5 have no table.
        let kozdatu = Position::start(crate::Variant::new(crate::Family::Kozdatu));
        assert!(
            features(&kozdatu).sides[NAMED..]
                .iter()
                .all(|&v| v == (0, 0))
        );
    }

    #[test]
    fn the_per_hole_scores_agree_with_the_features_for_every_hole_and_count() {
        // One hole of either row takes every count a board allows, either side to move; the
        // other holes hold one stone each and the kazans keep the family's total.
        for family in [Family::Togyz, Family::Kozdatu, Family::Bestemshchi] {
            let variant = Variant::new(family);
            let n = variant.holes_per_side();
            let total = 2 * (n * n) as u32;
            for hole in 0..n {
                for stones in 0..=total + 1 - 2 * n as u32 {
                    for (mover, hole_side) in [("w", 0), ("b", 0), ("w", 1), ("b", 1)] {
                        let mut rows = vec![vec![1u32; n]; 2];
                        rows[hole_side][hole] = stones;
                        let kazans = total - rows.iter().flatten().sum::<u32>();
                        let row =
                            |r: &[u32]| r.iter().map(u32::to_string).collect::<Vec<_>>().join(",");
                        let text = format!(
                            "{}/{} {} {} {mover}",
                            row(&rows[0]),
                            row(&rows[1]),
                            kazans / 2,
                            kazans - kazans / 2
                        );
                        let pos = Position::parse_with(&text, variant).unwrap();
                        assert_eq!(
                            evaluate(&pos),
                            Weights::DEFAULT.apply(&features(&pos)),
                            "{family:?} {text}"
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn the_largest_hole_is_exact_beyond_127_stones() {
        // Hole counts above 127 use a lane's top bit; North's 9th hole is past the first
        // sixteen bytes of the ring.
        check_feature(
            Feature::LargestHole,
            &[
                ("130,1,1,1,1,1,1,1,1/1,1,1,1,1,1,1,1,8 5 3 w", (130, 8)),
                ("1,1,1,1,1,1,1,1,2/1,1,1,1,1,1,1,1,140 2 2 w", (2, 140)),
                ("1,1,1,1,1,1,1,1,2/1,1,1,1,1,1,1,1,140 2 2 b", (140, 2)),
            ],
        );
    }

    #[test]
    fn stones_across_count_what_passes_the_row_end_up_to_a_row() {
        // Hole 1 of 12 stones keeps 9 and hands 3 across, hole 8 of 5 keeps 2 and hands 3,
        // hole 9 of 2 hands 1; North's hole 9 (past the first sixteen bytes) of 140 stones
        // hands a whole row, and its hole 4 of 15 hands 9 as well (15 - 6, exactly a row).
        // South's hole 1 of 130 stones (a lane's top bit set) hands a row too.
        check_feature(
            Feature::StonesAcross,
            &[
                ("12,0,0,0,0,0,0,5,2/1,1,1,15,1,1,1,1,100 11 10 w", (7, 18)),
                ("12,0,0,0,0,0,0,5,2/1,1,1,15,1,1,1,1,100 11 10 b", (18, 7)),
                ("130,1,1,1,1,1,1,1,1/1,1,1,1,1,1,1,1,8 5 3 w", (9, 7)),
                ("9,8,7,6,5,4,3,2,1/10,9,8,7,6,5,4,3,2 40 23 w", (0, 9)),
            ],
        );
    }

    #[test]
    fn mobility_phase_is_the_mobility_margin_times_the_captured_share() {
        // South has 7 non-empty holes and North 8, with 110 of the 162 stones captured:
        // -1 * 110 * 8 / 81 is -10.9, truncated toward zero for either side to move.
        check_feature(
            Feature::MobilityPhase,
            &[
                ("1,1,0,3,2,4,1,0,2/1,5,2,2,4,0,6,8,10 60 50 w", (-10, 0)),
                ("1,1,0,3,2,4,1,0,2/1,5,2,2,4,0,6,8,10 60 50 b", (10, 0)),
                // Nothing captured yet: a margin of one hole has no phase part.
                ("10,10,10,10,10,10,10,10,0/9,9,9,9,9,9,9,9,10 0 0 b", (0, 0)),
            ],
        );
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

        #[test]
        fn fast_evaluation_is_the_weighted_features(moves in prop::collection::vec(0usize..9, 0..120), family in 0usize..3) {
            let variant = [Variant::TOGYZ, Variant::new(crate::Family::Kozdatu), Variant::new(crate::Family::Bestemshchi)][family];
            let mut pos = Position::start(variant);
            for choice in moves {
                let legal = pos.legal_moves();
                if legal.is_empty() { break; }
                pos.play(legal[choice % legal.len()]);
            }
            prop_assert_eq!(evaluate(&pos), Weights::DEFAULT.apply(&features(&pos)));
        }
    }
}
