//! The board: a bitpacked, `Copy` [`Position`] of 32 bytes, its moves, captures and status.
//!
//! The ring layout follows RULES.md: index `0..N` is South's row (holes 1..N), `N..2N` is
//! North's row, so sowing is a walk up the array that wraps around.
//!
//! Every move goes in through [`Position::play`], [`Position::try_play`] or
//! [`Position::play_unchecked`]; behind them, each file does one job: the packed board, its
//! constant tables and the dispatch on the row length (`packed.rs`), the fast make
//! (`make.rs`), the general make for long sowings (`general.rs`), perft's leaf counter
//! (`leaves.rs`), Mangala IV's relay sowing (`mangala.rs`), and, for the search, what each
//! move gains, predicted without making it ([`gains`]). Position strings are [`text`]'s,
//! PlayOK's long move notation [`notation`]'s.

pub mod gains;
mod general;
mod leaves;
mod make;
#[cfg(test)]
mod make_tests;
mod mangala;
pub mod notation;
mod packed;
pub mod text;
mod zobrist;

use std::fmt;

use smallvec::SmallVec;
use thiserror::Error;

use crate::moves::Move;
use crate::variant::Variant;
use zobrist::MAX_RING;

pub use crate::moves::PASS_BIT;
pub use make::Effect;
pub(crate) use make::{READ_SWITCHES, STANDARD_SWITCHES, has_standard_switches};
pub use mangala::MAX_LIFTS;
pub use notation::MoveError;
pub(crate) use packed::{ONES, with_row_len, zero_bytes};
pub use text::PositionError;

/// A player. South moves first (`w`, p1 in protocols), North second (`b`, p2).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum Side {
    /// The first player; owns ring indices `0..N`.
    South = 0,
    /// The second player; owns ring indices `N..2N`.
    North = 1,
}

impl Side {
    /// Both sides, South first.
    pub const BOTH: [Side; 2] = [Side::South, Side::North];

    /// The other player.
    #[inline(always)]
    pub const fn opponent(self) -> Side {
        match self {
            Side::South => Side::North,
            Side::North => Side::South,
        }
    }

    /// 0 for South, 1 for North: the index into per-player arrays.
    #[inline(always)]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The letter of the position string: `w` for South, `b` for North.
    pub const fn letter(self) -> char {
        match self {
            Side::South => 'w',
            Side::North => 'b',
        }
    }

    /// `South` or `North`.
    pub const fn name(self) -> &'static str {
        match self {
            Side::South => "South",
            Side::North => "North",
        }
    }
}

impl fmt::Display for Side {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Marks "no tuzdik" in [`Position`]'s tuzdik array.
const NO_TUZDIK: u8 = u8::MAX;

/// Where a game stands, by rules 3a and 3b of RULES.md (repetition, rule 3c, needs the game's
/// history and is judged by [`Game`](crate::Game)).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Status {
    /// The side to move has a legal move.
    Ongoing,
    /// The game is over and this side has more stones.
    Won(Side),
    /// The game is over with equal scores.
    Drawn,
}

impl Status {
    /// Decides a finished game from its final scores `[South, North]`.
    pub fn from_scores(scores: [u32; 2]) -> Status {
        match scores[0].cmp(&scores[1]) {
            std::cmp::Ordering::Greater => Status::Won(Side::South),
            std::cmp::Ordering::Less => Status::Won(Side::North),
            std::cmp::Ordering::Equal => Status::Drawn,
        }
    }

    /// Whether the game is over.
    pub fn is_over(self) -> bool {
        self != Status::Ongoing
    }
}

/// The legal moves of a position; never more than one row's worth.
pub type MoveList = SmallVec<[Move; 9]>;

/// Why [`Position::try_play`] refused a move.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum PlayError {
    /// The game is already over: there are no legal moves.
    #[error("the game is over: no move is legal")]
    GameOver,
    /// The hole number is outside the row.
    #[error("there is no hole {hole} (holes are 1..{holes})")]
    NoSuchHole {
        /// The hole asked for.
        hole: u8,
        /// Holes in a row in this variant.
        holes: usize,
    },
    /// The hole is a tuzdik (it never holds stones of its own).
    #[error("hole {hole} is a tuzdik and cannot be played")]
    Tuzdik {
        /// The hole asked for.
        hole: u8,
    },
    /// The hole is empty.
    #[error("hole {hole} is empty")]
    Empty {
        /// The hole asked for.
        hole: u8,
    },
    /// A pass (0000) is not a move here.
    #[error("a pass (0000) is legal only in Mangala IV with an empty row")]
    Pass,
    /// Mangala IV's leftmost rule: another hole must be played.
    #[error("hole {hole} is not the leftmost occupied hole (Mangala = leftmost)")]
    NotLeftmost {
        /// The hole asked for.
        hole: u8,
    },
}

/// A position: the stones in the 2N holes, both kazans, the tuzdiks, the side to move and the
/// rules, with an incrementally maintained Zobrist key. 32 bytes, `Copy`.
///
/// ```
/// use tuzdik::{Move, Position, Side, Variant};
/// let mut pos = Position::start(Variant::TOGYZ);
/// assert_eq!(pos.legal_moves().len(), 9);
/// pos.try_play(Move::hole(8)).unwrap();
/// assert_eq!(pos.kazan(Side::South), 10);
/// assert_eq!(pos.side_to_move(), Side::North);
/// assert_eq!(pos.key(), pos.compute_key());
/// assert_eq!(pos.to_string(), "9,9,9,9,9,9,9,1,10/10,10,10,10,10,10,0,9,9 10 0 b");
/// ```
#[derive(Clone, Copy)]
#[repr(C)]
pub struct Position {
    holes: [u8; MAX_RING],
    kazans: [u8; 2],
    /// `tuzdiks[p]` is the ring index of the tuzdik player `p` owns (on the opponent's row).
    tuzdiks: [u8; 2],
    side: Side,
    variant: Variant,
    key: u64,
}

const _: () = assert!(std::mem::size_of::<Position>() == 32);

impl PartialEq for Position {
    fn eq(&self, other: &Self) -> bool {
        self.key == other.key
            && self.holes == other.holes
            && self.kazans == other.kazans
            && self.tuzdiks == other.tuzdiks
            && self.side == other.side
            && self.variant == other.variant
    }
}

impl Eq for Position {}

/// Hashes the Zobrist key only: equal positions have equal keys, and the key is already mixed.
impl std::hash::Hash for Position {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        state.write_u64(self.key);
    }
}

impl Position {
    /// The start position of a variant: every hole full, empty kazans, South to move.
    pub fn start(variant: Variant) -> Position {
        let ring = variant.ring_len();
        let mut holes = [0u8; MAX_RING];
        holes[..ring].fill(variant.stones_per_hole() as u8);
        Position::assemble(variant, holes, [0, 0], [NO_TUZDIK; 2], Side::South)
    }

    /// Builds a position from its parts, checking everything the position string checks.
    ///
    /// `rows[s]` holds side `s`'s row in its own numbering (hole 1 first); `tuzdiks[p]` is the
    /// hole number (1..N, on the opponent's row) of player `p`'s tuzdik. Tuzdik holes must be
    /// given as 0 in `rows`.
    ///
    /// ```
    /// use tuzdik::{Position, Side, Variant};
    /// let rows = [[9u8; 9].to_vec(), [9u8; 9].to_vec()];
    /// let pos = Position::from_parts(Variant::TOGYZ, &rows, [0, 0], [None, None], Side::South);
    /// assert_eq!(pos.unwrap(), Position::start(Variant::TOGYZ));
    /// ```
    pub fn from_parts(
        variant: Variant,
        rows: &[Vec<u8>; 2],
        kazans: [u32; 2],
        tuzdiks: [Option<u8>; 2],
        side: Side,
    ) -> Result<Position, PositionError> {
        text::validate(variant, rows, kazans, tuzdiks, side)
    }

    /// Assembles a position already known to be valid and computes its key.
    pub(crate) fn assemble(
        variant: Variant,
        holes: [u8; MAX_RING],
        kazans: [u8; 2],
        tuzdiks: [u8; 2],
        side: Side,
    ) -> Position {
        let mut pos = Position {
            holes,
            kazans,
            tuzdiks,
            side,
            variant,
            key: 0,
        };
        pos.key = pos.compute_key();
        pos
    }

    /// The rules this position is played under.
    #[inline(always)]
    pub fn variant(&self) -> Variant {
        self.variant
    }

    /// The player to move.
    #[inline(always)]
    pub fn side_to_move(&self) -> Side {
        self.side
    }

    /// The incrementally maintained Zobrist key.
    #[inline(always)]
    pub fn key(&self) -> u64 {
        self.key
    }

    /// The Zobrist key computed from scratch (what [`key`](Self::key) must always equal).
    pub fn compute_key(&self) -> u64 {
        // With the ring's length a constant the loop over the holes unrolls (Mangala IV's
        // rows have 7 holes, as the macro's Mangala arm says).
        with_row_len!(self.variant, N => self.compute_key_n::<N>())
    }

    /// [`compute_key`](Self::compute_key) for row length `N`, which must be the variant's.
    #[inline(always)]
    pub(crate) fn compute_key_n<const N: usize>(&self) -> u64 {
        let mut key = zobrist::TABLES.variant[self.variant.code() as usize];
        for (index, &count) in self.holes[..2 * N].iter().enumerate() {
            key ^= zobrist::hole(index, count);
        }
        for player in 0..2 {
            key ^= zobrist::kazan(player, self.kazans[player]);
            if self.tuzdiks[player] != NO_TUZDIK {
                key ^= zobrist::TABLES.tuzdik[player][self.tuzdiks[player] as usize];
            }
        }
        if self.side == Side::North {
            key ^= zobrist::TABLES.north_to_move;
        }
        key
    }

    /// The whole ring, South's row then North's row (2N counts; tuzdiks hold 0).
    #[inline(always)]
    pub fn ring(&self) -> &[u8] {
        &self.holes[..self.variant.ring_len()]
    }

    /// [`ring`](Self::ring) for row length `N`, which must be the variant's.
    #[inline(always)]
    pub(crate) fn ring_n<const N: usize>(&self) -> &[u8] {
        &self.holes[..2 * N]
    }

    /// The kazans, tuzdiks and side to move packed in one word: with the ring, the whole
    /// position (for hashes that need no key tables).
    #[inline(always)]
    pub(crate) fn packed_state(&self) -> u64 {
        u64::from(u16::from_le_bytes(self.kazans))
            | u64::from(u16::from_le_bytes(self.tuzdiks)) << 16
            | (self.side as u64) << 32
    }

    /// One side's row in its own numbering (hole 1 first).
    #[inline(always)]
    pub fn row(&self, side: Side) -> &[u8] {
        let n = self.variant.holes_per_side();
        let start = side.index() * n;
        &self.holes[start..start + n]
    }

    /// The stones in `side`'s hole `hole` (1-based). Panics on a hole outside the row.
    pub fn stones(&self, side: Side, hole: usize) -> u32 {
        u32::from(self.row(side)[hole - 1])
    }

    /// A kazan's stones.
    #[inline(always)]
    pub fn kazan(&self, side: Side) -> u32 {
        u32::from(self.kazans[side.index()])
    }

    /// The hole number (1..N, on the opponent's row) of the tuzdik `owner` has made, if any.
    pub fn tuzdik(&self, owner: Side) -> Option<u8> {
        let index = self.tuzdiks[owner.index()];
        (index != NO_TUZDIK).then(|| index % self.variant.holes_per_side() as u8 + 1)
    }

    /// The ring index of the tuzdik `owner` has made (on the opponent's row), if any: what
    /// [`tuzdik`](Self::tuzdik) numbers, without the division.
    #[inline(always)]
    pub(crate) fn tuzdik_square(&self, owner: Side) -> Option<usize> {
        let index = self.tuzdiks[owner.index()];
        (index != NO_TUZDIK).then_some(usize::from(index))
    }

    /// Whether `side`'s hole `hole` (1-based) is a tuzdik (owned by the other side).
    pub fn is_tuzdik(&self, side: Side, hole: usize) -> bool {
        self.tuzdik(side.opponent()) == Some(hole as u8)
    }

    /// Stones on `side`'s row.
    pub fn stones_on_side(&self, side: Side) -> u32 {
        self.row(side).iter().map(|&c| u32::from(c)).sum()
    }

    /// Stones on the whole board (both rows).
    pub fn stones_on_board(&self) -> u32 {
        self.ring().iter().map(|&c| u32::from(c)).sum()
    }

    /// Whether a kazan has passed the win line (rule 3a).
    #[inline(always)]
    fn kazan_decided(&self) -> bool {
        let threshold = self.variant.win_threshold();
        u32::from(self.kazans[0]) >= threshold || u32::from(self.kazans[1]) >= threshold
    }

    /// The legal moves as a bit set: bit `h-1` is set when hole `h` may be played. Empty when
    /// the game is over (rules 3a/3b).
    #[inline]
    pub fn legal_mask(&self) -> u16 {
        if self.variant.is_mangala() {
            return self.mangala_mask();
        }
        with_row_len!(self.variant, N => self.legal_mask_n::<N>())
    }

    /// How many legal moves there are (the perft leaf count at depth 1).
    #[inline]
    pub fn legal_count(&self) -> u32 {
        if self.variant.is_mangala() {
            return self.mangala_mask().count_ones();
        }
        with_row_len!(self.variant, N => self.legal_count_n::<N>())
    }

    /// The legal moves, lowest hole first. Empty when the game is over.
    #[inline]
    pub fn legal_moves(&self) -> MoveList {
        let mut mask = self.legal_mask();
        // Filled in place and handed over whole: no capacity check per move.
        let mut moves = [Move::PASS; 9];
        let mut len = 0;
        while mask != 0 && len < moves.len() {
            moves[len] = Move::from_mask_bit(mask.trailing_zeros());
            len += 1;
            mask &= mask - 1;
        }
        MoveList::from_buf_and_len(moves, len)
    }

    /// Checks a move without playing it.
    pub fn check_move(&self, mv: Move) -> Result<(), PlayError> {
        if self.status().is_over() {
            return Err(PlayError::GameOver);
        }
        let Some(hole) = mv.source() else {
            if self.legal_mask() == PASS_BIT {
                return Ok(());
            }
            return Err(PlayError::Pass);
        };
        let holes = self.variant.holes_per_side();
        if hole as usize > holes {
            return Err(PlayError::NoSuchHole { hole, holes });
        }
        if self.is_tuzdik(self.side, hole as usize) {
            return Err(PlayError::Tuzdik { hole });
        }
        if self.stones(self.side, hole as usize) == 0 {
            return Err(PlayError::Empty { hole });
        }
        if self.legal_mask() & (1 << (hole - 1)) == 0 {
            return Err(PlayError::NotLeftmost { hole });
        }
        Ok(())
    }

    /// Whether a move is legal here.
    pub fn is_legal(&self, mv: Move) -> bool {
        self.check_move(mv).is_ok()
    }

    /// Plays a move after checking it; on error the position is unchanged.
    ///
    /// ```
    /// use tuzdik::{Move, PlayError, Position, Variant};
    /// let mut pos = Position::start(Variant::TOGYZ);
    /// assert_eq!(
    ///     pos.try_play(Move::hole(10)),
    ///     Err(PlayError::NoSuchHole { hole: 10, holes: 9 })
    /// );
    /// assert_eq!(pos, Position::start(Variant::TOGYZ));
    /// ```
    pub fn try_play(&mut self, mv: Move) -> Result<Effect, PlayError> {
        self.check_move(mv)?;
        Ok(self.play_unchecked(mv))
    }

    /// Plays a move the caller knows to be legal. Panics on an illegal move; use
    /// [`try_play`](Self::try_play) for anything that comes from outside.
    pub fn play(&mut self, mv: Move) -> Effect {
        match self.try_play(mv) {
            Ok(effect) => effect,
            Err(error) => panic!("illegal move {mv} in {self}: {error}"),
        }
    }

    /// Plays a legal move without checking it. An illegal move leaves a meaningless position
    /// (never undefined behaviour).
    #[inline]
    pub fn play_unchecked(&mut self, mv: Move) -> Effect {
        if self.variant.is_mangala() {
            return self.mangala_make(mv.mask_bit());
        }
        let hole = mv.source().unwrap_or(1) as usize;
        with_row_len!(self.variant, N => {
            self.make::<N, READ_SWITCHES, true>(self.side.index() * N + hole - 1)
        })
    }

    /// The same, without maintaining the key, for bit `hole_bit` of [`legal_mask`]
    /// (hole `hole_bit + 1`): for counting, where keys are not read. The key is left stale.
    /// The benches reach it through [`bench_api`].
    ///
    /// [`legal_mask`]: Self::legal_mask
    #[inline]
    pub(crate) fn play_unhashed(&mut self, hole_bit: u32) -> Effect {
        if self.variant.is_mangala() {
            return self.mangala_make(hole_bit);
        }
        with_row_len!(self.variant, N => {
            self.make::<N, READ_SWITCHES, false>(self.side.index() * N + hole_bit as usize)
        })
    }

    /// The same, returning the legal moves after the move ([`legal_mask`] of the new
    /// position), which come almost for free while the board is in registers: for the search,
    /// which needs them at every node.
    ///
    /// [`legal_mask`]: Self::legal_mask
    #[inline]
    pub(crate) fn play_unhashed_moves(&mut self, hole_bit: u32) -> u16 {
        if self.variant.is_mangala() {
            self.mangala_make(hole_bit);
            return self.mangala_mask();
        }
        with_row_len!(self.variant, N => {
            self.make_unhashed_moves::<N>(self.side.index() * N + hole_bit as usize)
        })
    }

    /// The position after a move (checked), leaving `self` as it is.
    pub fn after(&self, mv: Move) -> Result<Position, PlayError> {
        let mut next = *self;
        next.try_play(mv)?;
        Ok(next)
    }

    /// Status by rules 3a and 3b.
    pub fn status(&self) -> Status {
        match self.final_scores() {
            Some(scores) => Status::from_scores(scores),
            None => Status::Ongoing,
        }
    }

    /// Whether the game is over by rules 3a or 3b (Mangala IV: every hole is empty).
    pub fn is_over(&self) -> bool {
        if self.variant.is_mangala() {
            return self.mangala_board_empty();
        }
        self.kazan_decided() || self.stones_on_side(self.side) == 0
    }

    /// Final scores `[South, North]` when the game is over by 3a or 3b: the kazans plus the
    /// stones left on each row for its owner. `None` while the game goes on.
    pub fn final_scores(&self) -> Option<[u32; 2]> {
        self.is_over().then(|| {
            [
                self.kazan(Side::South) + self.stones_on_side(Side::South),
                self.kazan(Side::North) + self.stones_on_side(Side::North),
            ]
        })
    }

    /// Scores when the game ends by repetition (rule 3c): each kazan plus half the stones
    /// left on the board, rounded down.
    pub fn shared_scores(&self) -> [u32; 2] {
        let half = self.stones_on_board() / 2;
        [
            self.kazan(Side::South) + half,
            self.kazan(Side::North) + half,
        ]
    }
}

/// The benches' door to the crate-private makes (benches/rules.rs): not part of the supported
/// API, and free to change with them.
#[doc(hidden)]
pub mod bench_api {
    use super::{Effect, Position};

    /// [`Position::play_unchecked`] without maintaining the key, for bit `hole_bit` of
    /// [`Position::legal_mask`]: the make perft counts with. The key is left stale.
    #[inline]
    pub fn play_unhashed(pos: &mut Position, hole_bit: u32) -> Effect {
        pos.play_unhashed(hole_bit)
    }
}

impl fmt::Debug for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Position({self}; {})", self.variant)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Family;

    #[test]
    fn start_positions_have_a_move_per_hole() {
        for family in Family::TOGUZ_FAMILY {
            let pos = Position::start(Variant::new(family));
            assert_eq!(pos.legal_moves().len(), family.holes_per_side());
            assert_eq!(pos.stones_on_board(), Variant::new(family).total_stones());
            assert_eq!(pos.key(), pos.compute_key());
            assert_eq!(pos.status(), Status::Ongoing);
        }
    }

    #[test]
    fn variants_hash_apart() {
        let a = Position::start(Variant::TOGYZ);
        let b = Position::start(Variant::TOGYZ.with_capture(crate::Capture::Singleton));
        assert_ne!(a.key(), b.key());
        assert_ne!(a, b);
    }

    #[test]
    fn try_play_refuses_without_changing_anything() {
        let mut pos: Position = "0,9,9,9,9,9,9,9,9/9,9,9,9,9,9,9,9,9 9 0 w".parse().unwrap();
        let before = pos;
        assert_eq!(
            pos.try_play(Move::hole(1)),
            Err(PlayError::Empty { hole: 1 })
        );
        assert_eq!(pos.try_play(Move::PASS), Err(PlayError::Pass));
        assert_eq!(pos, before);
    }

    #[test]
    fn a_tuzdik_cannot_be_played() {
        // North owns a tuzdik on South's hole 3.
        let mut pos: Position = "9,9,X,9,9,9,9,9,9/9,9,9,9,9,9,9,9,9 0 9 w".parse().unwrap();
        assert_eq!(
            pos.try_play(Move::hole(3)),
            Err(PlayError::Tuzdik { hole: 3 })
        );
        assert_eq!(pos.legal_moves().len(), 8);
    }

    #[test]
    fn finished_positions_score_their_leftovers() {
        // South to move with an empty row: North keeps the stones on its side.
        let pos: Position = "0,0,0,0,0,0,0,0,0/1,2,3,0,0,0,0,0,0 80 76 w"
            .parse()
            .unwrap();
        assert!(pos.legal_moves().is_empty());
        assert_eq!(pos.final_scores(), Some([80, 82]));
        assert_eq!(pos.status(), Status::Won(Side::North));
        // A kazan over the line ends the game even with stones to play.
        let won: Position = "1,0,0,0,0,0,0,0,0/1,0,0,0,0,0,0,0,0 82 78 b"
            .parse()
            .unwrap();
        assert_eq!(won.legal_mask(), 0);
        assert_eq!(won.status(), Status::Won(Side::South));
        assert_eq!(won.final_scores(), Some([83, 79]));
    }
}
