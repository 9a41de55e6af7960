//! A node as the search passes it down, and the helpers compiled for one row length: make,
//! scan and the search's own position hash.

use super::ordering::{self, Scan, Words, with_search_rows};
use crate::position::Position;

/// A position to search with what its parent worked out for it: its legal moves, and its hash
/// when the parent needed it (see [`Worker::negamax`]).
#[derive(Clone, Copy)]
pub(super) struct Node {
    pub(super) pos: Position,
    /// `pos.legal_mask()`.
    pub(super) moves: u16,
    /// [`hash_n`] of the position, when the parent worked it out.
    pub(super) hash: Option<u64>,
}

impl Node {
    /// A node with everything worked out from scratch.
    pub(super) fn new(pos: &Position) -> Node {
        Node {
            pos: *pos,
            moves: pos.legal_mask(),
            hash: Some(position_hash(pos)),
        }
    }
}

/// Makes the move of hole `offset + 1` in a position of row length `N` (of Mangala IV when
/// `MANGALA`) without its key and returns the legal moves after it, as
/// [`Position::play_unhashed_moves`] does without dispatching on the variant.
#[inline(never)]
pub(super) fn make_child<const N: usize, const MANGALA: bool>(
    pos: &mut Position,
    offset: usize,
) -> u16 {
    if MANGALA {
        pos.play_unhashed_moves(offset as u32)
    } else {
        pos.make_unhashed_moves::<N>(pos.side_to_move().index() * N + offset)
    }
}

/// [`Scan::with_words_n`], kept out of line: inlined, it would crowd the search's registers.
#[inline(never)]
pub(super) fn scan_n<const N: usize, const MANGALA: bool>(
    pos: &Position,
    moves: u16,
    words: &Words,
) -> Scan {
    Scan::with_words_n::<N, MANGALA>(pos, moves, words)
}

/// The search's hash of a position of row length `N`: its hole counts and packed kazans,
/// tuzdiks and side mixed by multiplies, a dozen instructions on words a make leaves in
/// registers (the Zobrist key takes a table load per hole). It is the position's key in the
/// table ([`TranspositionTable::probe`]) and finds repetitions. A parent works it out for
/// each child as soon as the child is made and fetches the child's bucket at once, long
/// before the child's own tests decide whether it reads it: the table is far larger than the
/// caches, and nearly every probe of a new position misses them.
#[inline(always)]
pub(super) fn hash_n<const N: usize>(pos: &Position) -> u64 {
    let [low, high, rest] = ordering::ring_words_n::<N>(pos);
    let mixed = low.wrapping_mul(0x9E37_79B9_7F4A_7C15)
        ^ high.wrapping_mul(0xC2B2_AE3D_27D4_EB4F).rotate_left(23)
        ^ (rest ^ pos.packed_state() << 16)
            .wrapping_mul(0x1656_67B1_9E37_79F9)
            .rotate_left(47);
    (mixed ^ mixed >> 29).wrapping_mul(0xD6E8_FEB8_6659_FD93)
}

/// [`hash_n`] for any variant.
pub(super) fn position_hash(pos: &Position) -> u64 {
    with_search_rows!(pos.variant(), N, _M => hash_n::<N>(pos))
}

/// What [`Worker::negamax`]'s first tests worked out for the search of a node's moves.
#[derive(Clone, Copy)]
pub(super) struct FirstTests {
    /// Whether the window (before the mate-distance narrowing) is wider than null.
    pub(super) pv_node: bool,
    /// Whether reverse futility applies at this node.
    pub(super) futile: bool,
    /// Whether the board score is above the one two plies before (the same side to move).
    pub(super) improving: bool,
    /// The reverse futility margin.
    pub(super) margin: i32,
    /// The kazan total.
    pub(super) total: u32,
    /// The hole counts ([`ordering::ring_words`]).
    pub(super) words: ordering::Words,
    /// The evaluation less its threat term.
    pub(super) board: i32,
}

pub(super) fn kazan_total(pos: &Position) -> u32 {
    pos.kazan(crate::Side::South) + pos.kazan(crate::Side::North)
}

#[cfg(test)]
mod tests {
    use super::{hash_n, make_child, position_hash, scan_n};
    use crate::position::Position;
    use crate::search::TEST_SPECS as SPECS;
    use crate::search::{eval, ordering, ordering::with_search_rows};
    use crate::variant::Variant;
    use proptest::prelude::*;

    /// Checks the helpers the search is compiled with for row length `N` against the
    /// dispatching functions they stand for, on `pos` and every move of it.
    fn check_row_length<const N: usize, const MANGALA: bool>(
        pos: &Position,
    ) -> Result<(), TestCaseError> {
        let words = ordering::ring_words_n::<N>(pos);
        prop_assert_eq!(words, ordering::ring_words(pos));
        prop_assert_eq!(
            eval::board_score_n::<N>(pos, &words),
            eval::board_score(pos, &words)
        );
        // The search's hash is a function of the position alone: the same for the position
        // rebuilt from its string, whatever the make left outside the ring.
        let rebuilt = Position::parse_with(&pos.to_string(), pos.variant()).unwrap();
        prop_assert_eq!(hash_n::<N>(pos), position_hash(&rebuilt), "{}", pos);
        let moves = pos.legal_mask();
        let ours = scan_n::<N, MANGALA>(pos, moves, &words);
        let theirs = ordering::Scan::with_words(pos, moves, &words);
        prop_assert_eq!(format!("{ours:?}"), format!("{theirs:?}"));
        let mut bits = moves;
        while bits != 0 {
            let offset = bits.trailing_zeros() as usize;
            bits &= bits - 1;
            let (mut made, mut played) = (*pos, *pos);
            let made_moves = make_child::<N, MANGALA>(&mut made, offset);
            let played_moves = played.play_unhashed_moves(offset as u32);
            prop_assert_eq!(made_moves, played_moves, "{} hole {}", pos, offset + 1);
            prop_assert_eq!(made.to_string(), played.to_string());
        }
        Ok(())
    }

    /// The search's hashes of the distinct positions of the first plies spread evenly over a
    /// table's buckets (their top bits pick the bucket) and never collide, in every family:
    /// no bucket gets three times its share.
    #[test]
    fn search_hashes_spread_over_the_buckets_without_collisions() {
        // Mangala IV's leftmost rule leaves one move a turn: its free choice spreads.
        let specs = SPECS.map(|spec| match spec {
            "mangala4" => "mangala4 mangala=free-choice",
            other => other,
        });
        for spec in specs {
            let variant: Variant = spec.parse().unwrap();
            let start = if variant.is_mangala() {
                let setup = Position::random_mangala(7).to_string();
                Position::parse_with(&setup, variant).unwrap()
            } else {
                Position::start(variant)
            };
            let mut seen = std::collections::HashSet::new();
            let mut frontier = vec![start];
            for _ in 0..5 {
                let mut next = Vec::new();
                for pos in &frontier {
                    for mv in pos.legal_moves() {
                        let child = pos.after(mv).unwrap();
                        if seen.insert(child.key()) {
                            next.push(child);
                        }
                    }
                }
                frontier = next;
            }
            let positions = frontier;
            let buckets = 64;
            let mut counts = vec![0usize; buckets];
            let mut hashes = std::collections::HashSet::new();
            for pos in &positions {
                let hash = position_hash(pos);
                assert!(hashes.insert(hash), "{spec}: {pos} collides");
                counts[(hash >> 58) as usize] += 1;
            }
            let share = positions.len() / buckets;
            assert!(share >= 20, "{spec}: only {} positions", positions.len());
            let fullest = counts.iter().max().copied().unwrap_or(0);
            assert!(
                fullest < 3 * share,
                "{spec}: {fullest} of {} in one bucket",
                positions.len()
            );
        }
    }

    proptest! {
        /// The search's make, scan, key, hole words and board score for one row length are
        /// what the functions that dispatch on the variant give, in every family.
        #[test]
        fn row_length_helpers_match_the_dispatching_functions(
            spec in 0..SPECS.len(),
            choices in prop::collection::vec(0usize..9, 0..120),
        ) {
            let variant: Variant = SPECS[spec].parse().unwrap();
            let mut pos = Position::start(variant);
            for choice in choices {
                with_search_rows!(variant, N, M => check_row_length::<N, M>(&pos)?);
                let legal = pos.legal_moves();
                if legal.is_empty() {
                    break;
                }
                pos.play(legal[choice % legal.len()]);
            }
        }

    }
}
