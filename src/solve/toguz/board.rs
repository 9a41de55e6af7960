//! Boards of the Toguz family as the table sees them: the `2N` holes with the side to move's
//! row first, and both tuzdiks seen from the mover.
//!
//! `holes[0..N]` is the mover's row (holes 1..N), `holes[N..2N]` the opponent's. `mine` is the
//! mover's tuzdik, a hole of the opponent's row (0-based: ring index `N + mine`); `theirs` is
//! the opponent's tuzdik, on the mover's row (ring index `theirs`). After a move the board is
//! turned by `N` holes so the new mover is first again, which also swaps the two tuzdik roles.
//! Sowing and capture follow RULES.md with the standard switches.

use crate::position::{Position, PositionError, Side};
use crate::variant::{Capture, Family, Sowing, Variant};

/// The most holes a ring has (Toguz Kumalak's 2x9).
pub const MAX_RING: usize = 18;
/// "No tuzdik" in [`Board::mine`] and [`Board::theirs`].
pub const NONE: u8 = u8::MAX;

/// The rules a table is for: a Toguz-family variant with the standard sowing and capture.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Geometry {
    /// The family (Toguz Kumalak, Kozdatu or Bestemshchi).
    pub family: Family,
    /// Holes in a row (N).
    pub n: usize,
    /// Whether tuzdiks can be made.
    pub tuzdik: bool,
}

impl Geometry {
    /// The geometry of a variant, or `None` for Mangala IV and the historical switches (the
    /// table only knows the standard sowing and capture).
    pub fn of(variant: Variant) -> Option<Geometry> {
        if variant.is_mangala()
            || variant.sowing() != Sowing::Standard
            || variant.capture() != Capture::Standard
        {
            return None;
        }
        Some(Geometry {
            family: variant.family(),
            n: variant.holes_per_side(),
            tuzdik: variant.tuzdik(),
        })
    }

    /// The variant these rules are.
    pub fn variant(self) -> Variant {
        Variant::new(self.family).with_tuzdik(self.tuzdik)
    }

    /// Holes in the ring (2N).
    #[inline(always)]
    pub fn ring(self) -> usize {
        2 * self.n
    }

    /// The variant as written on the command line and in file names: the family, plus the
    /// tuzdik switch when it is not the family's default.
    pub fn name(self) -> String {
        match (self.tuzdik, self.family.tuzdik_by_default()) {
            (true, false) => format!("{}-tuzdik", self.family.name()),
            (false, true) => format!("{}-notuzdik", self.family.name()),
            _ => self.family.name().to_string(),
        }
    }

    /// Whether the mover of `board` may make a tuzdik on the opponent's hole `hole` (0-based)
    /// by rules 2a, 2b and 2c.
    #[inline(always)]
    pub fn may_make_tuzdik(self, board: &Board, hole: usize) -> bool {
        self.tuzdik && board.mine == NONE && hole != self.n - 1 && board.theirs as usize != hole
    }
}

/// A board, mover's row first (see the module documentation).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Board {
    /// Stones per ring index; indices from `2N` on are always 0.
    pub holes: [u8; MAX_RING],
    /// The mover's tuzdik (0-based hole of the opponent's row) or [`NONE`].
    pub mine: u8,
    /// The opponent's tuzdik (0-based hole of the mover's row) or [`NONE`].
    pub theirs: u8,
}

impl Board {
    /// Ring index of the mover's tuzdik (`usize::MAX` when there is none).
    #[inline(always)]
    pub fn mine_index(&self, g: Geometry) -> usize {
        if self.mine == NONE {
            usize::MAX
        } else {
            g.n + self.mine as usize
        }
    }

    /// Ring index of the opponent's tuzdik (`usize::MAX` when there is none).
    #[inline(always)]
    pub fn theirs_index(&self) -> usize {
        if self.theirs == NONE {
            usize::MAX
        } else {
            self.theirs as usize
        }
    }

    /// Whether ring index `i` is a tuzdik.
    #[inline(always)]
    pub fn is_tuzdik(&self, g: Geometry, i: usize) -> bool {
        i == self.mine_index(g) || i == self.theirs_index()
    }

    /// Stones on the board.
    #[inline(always)]
    pub fn stones(&self) -> u32 {
        self.holes.iter().map(|&c| u32::from(c)).sum()
    }

    /// Whether the mover's row is empty: the game is over by rule 3b.
    #[inline(always)]
    pub fn mover_row_empty(&self, g: Geometry) -> bool {
        self.holes[..g.n].iter().all(|&c| c == 0)
    }

    /// The same board seen from the other side.
    #[inline(always)]
    pub fn turn(&self, g: Geometry) -> Board {
        let mut holes = [0u8; MAX_RING];
        holes[..g.n].copy_from_slice(&self.holes[g.n..g.ring()]);
        holes[g.n..g.ring()].copy_from_slice(&self.holes[..g.n]);
        Board {
            holes,
            mine: self.theirs,
            theirs: self.mine,
        }
    }
}

/// The value of a finished board (the mover has no stone): every stone goes to its row's
/// owner, so the mover's future margin is minus all the stones.
#[inline(always)]
pub fn terminal_value(board: &Board) -> i32 {
    -(board.stones() as i32)
}

/// The result of one move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Played {
    /// The board after the move, turned so that the new mover's row is first.
    pub child: Board,
    /// Stones the move put into the mover's kazan: its sown stones that fell into its own
    /// tuzdik, an even capture, or the 3 of a new tuzdik.
    pub own: u8,
    /// Stones the move put into the opponent's kazan: sown stones that fell into the
    /// opponent's tuzdik on the mover's own row.
    pub opp: u8,
    /// Whether the move made the mover's tuzdik.
    pub made_tuzdik: bool,
}

impl Played {
    /// Whether the move stays in its level: nothing went to a kazan.
    #[inline(always)]
    pub fn quiet(&self) -> bool {
        self.own == 0 && self.opp == 0
    }

    /// The mover's immediate gain: its kazan's growth minus the opponent's.
    #[inline(always)]
    pub fn gain(&self) -> i32 {
        i32::from(self.own) - i32::from(self.opp)
    }

    /// Stones that left the board.
    #[inline(always)]
    pub fn removed(&self) -> u32 {
        u32::from(self.own) + u32::from(self.opp)
    }
}

/// Sows the mover's hole `hole` (0-based, not empty, not a tuzdik) and applies the capture or
/// the tuzdik creation.
#[inline(always)]
pub fn play(g: Geometry, board: &Board, hole: usize) -> Played {
    debug_assert!(hole < g.n && board.holes[hole] > 0);
    let ring = g.ring();
    let mine = board.mine_index(g);
    let theirs = board.theirs_index();
    let mut after = *board;
    let stones = after.holes[hole];
    after.holes[hole] = 0;
    let (mut own, mut opp) = (0u8, 0u8);
    let mut at = hole;
    for s in 0..stones {
        // The first of several stones goes back into the emptied hole; a lone stone moves on.
        if s > 0 || stones == 1 {
            at += 1;
            if at == ring {
                at = 0;
            }
        }
        if at == mine {
            own += 1;
        } else if at == theirs {
            opp += 1;
        } else {
            after.holes[at] += 1;
        }
    }
    let mut made_tuzdik = false;
    if at >= g.n && at != mine {
        let count = after.holes[at];
        if count.is_multiple_of(2) {
            own += count;
            after.holes[at] = 0;
        } else if count == 3 && g.may_make_tuzdik(board, at - g.n) {
            own += 3;
            after.holes[at] = 0;
            after.mine = (at - g.n) as u8;
            made_tuzdik = true;
        }
    }
    Played {
        child: after.turn(g),
        own,
        opp,
        made_tuzdik,
    }
}

/// Whether a last stone in ring index `last` (not a tuzdik) of `after`, the board after the
/// move in the mover's frame, took nothing: it fell on the mover's own row, or the hole now
/// holds an odd count that does not make a tuzdik.
#[inline(always)]
fn quiet_landing(g: Geometry, after: &Board, last: usize) -> bool {
    if last < g.n {
        return true;
    }
    let count = after.holes[last];
    count % 2 == 1 && !(count == 3 && g.may_make_tuzdik(after, last - g.n))
}

/// Calls `found` with every board from which one quiet move (nothing goes to a kazan) leads to
/// `board`, once per such move. Only for boards with fewer stones than the ring has holes,
/// where no sowing laps the ring (the table's limit guarantees it).
///
/// Un-sowing: in the parent's frame the board after the move is `after = board.turn()`, with
/// the same tuzdiks (a quiet move makes none). A quiet move never reaches a tuzdik (that stone
/// would go to a kazan). A move of one stone from hole `o` leaves `o` empty and adds one to
/// `o + 1`; a move of `len >= 2` stones leaves one stone in `o` and adds one to each of
/// `o + 1 .. o + len - 1`. So `after[o] = 0` allows only the first, `after[o] = 1` only the
/// second with every `len` whose holes after `o` hold a stone each, and more allows nothing.
pub fn for_each_parent(g: Geometry, board: &Board, mut found: impl FnMut(&Board)) {
    let after = board.turn(g);
    let ring = g.ring();
    let total = after.stones() as usize;
    debug_assert!(total < ring, "un-moves assume no sowing laps the ring");
    for origin in 0..g.n {
        if after.is_tuzdik(g, origin) {
            continue;
        }
        match after.holes[origin] {
            0 => {
                let last = origin + 1;
                if after.is_tuzdik(g, last)
                    || after.holes[last] == 0
                    || !quiet_landing(g, &after, last)
                {
                    continue;
                }
                let mut parent = after;
                parent.holes[last] -= 1;
                parent.holes[origin] = 1;
                found(&parent);
            }
            1 => {
                for len in 2..=total.min(ring) {
                    let last = (origin + len - 1) % ring;
                    if after.is_tuzdik(g, last) || after.holes[last] == 0 {
                        break;
                    }
                    if !quiet_landing(g, &after, last) {
                        continue;
                    }
                    let mut parent = after;
                    for step in 1..len {
                        parent.holes[(origin + step) % ring] -= 1;
                    }
                    parent.holes[origin] = len as u8;
                    found(&parent);
                }
            }
            _ => {}
        }
    }
}

/// The board of a position, the side to move's row first, or `None` when the position is
/// not of rules `g`.
pub fn from_position(g: Geometry, pos: &Position) -> Option<Board> {
    if Geometry::of(pos.variant()) != Some(g) {
        return None;
    }
    let mover = pos.side_to_move();
    let mut holes = [0u8; MAX_RING];
    holes[..g.n].copy_from_slice(pos.row(mover));
    holes[g.n..g.ring()].copy_from_slice(pos.row(mover.opponent()));
    let hole = |side: Side| pos.tuzdik(side).map_or(NONE, |h| h.wrapping_sub(1));
    Some(Board {
        holes,
        mine: hole(mover),
        theirs: hole(mover.opponent()),
    })
}

/// A position of rules `g` with this board, `side` to move and the kazans `[South, North]`:
/// for tests and tools.
pub fn to_position(
    g: Geometry,
    board: &Board,
    side: Side,
    kazans: [u32; 2],
) -> Result<Position, PositionError> {
    let mover = board.holes[..g.n].to_vec();
    let other = board.holes[g.n..g.ring()].to_vec();
    let number = |hole: u8| (hole != NONE).then(|| hole + 1);
    let (rows, tuzdiks) = match side {
        Side::South => ([mover, other], [number(board.mine), number(board.theirs)]),
        Side::North => ([other, mover], [number(board.theirs), number(board.mine)]),
    };
    Position::from_parts(g.variant(), &rows, kazans, tuzdiks, side)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::moves::Move;
    use crate::solve::toguz::index::LevelIndex;

    fn geometries() -> Vec<Geometry> {
        [
            Variant::TOGYZ,
            Variant::new(Family::Kozdatu),
            Variant::new(Family::Kozdatu).with_tuzdik(true),
            Variant::new(Family::Bestemshchi).with_tuzdik(true),
        ]
        .into_iter()
        .filter_map(Geometry::of)
        .collect()
    }

    /// Kazans that add up to the variant's stones with `k` on the board, below the win line.
    fn kazans(g: Geometry, k: u32) -> [u32; 2] {
        let rest = g.variant().total_stones() - k;
        [rest / 2, rest - rest / 2]
    }

    #[test]
    fn moves_match_the_engine() {
        let mut moves = 0;
        for g in geometries() {
            for k in 0..=4 {
                let index = LevelIndex::new(g, k);
                let step = (index.size() / 3000).max(1);
                for i in (0..index.size()).step_by(step as usize) {
                    let board = index.board(i);
                    for side in Side::BOTH {
                        let pos = to_position(g, &board, side, kazans(g, k)).unwrap();
                        assert_eq!(from_position(g, &pos), Some(board));
                        assert_eq!(board.mover_row_empty(g), pos.legal_mask() == 0);
                        for mv in pos.legal_moves() {
                            let hole = mv.source().unwrap() as usize - 1;
                            let played = play(g, &board, hole);
                            let mut next = pos;
                            next.play(mv);
                            let other = side.opponent();
                            assert_eq!(
                                u32::from(played.own),
                                next.kazan(side) - pos.kazan(side),
                                "{pos} {mv}"
                            );
                            assert_eq!(
                                u32::from(played.opp),
                                next.kazan(other) - pos.kazan(other),
                                "{pos} {mv}"
                            );
                            assert_eq!(from_position(g, &next), Some(played.child), "{pos} {mv}");
                            assert_eq!(
                                played.made_tuzdik,
                                next.tuzdik(side).is_some() && pos.tuzdik(side).is_none()
                            );
                            moves += 1;
                        }
                    }
                }
            }
        }
        assert!(moves > 50_000, "{moves}");
        // A move to a hole 0 that is not the mover's own stays `Move::hole` based.
        assert_eq!(Move::hole(1).source(), Some(1));
    }

    #[test]
    fn parents_are_exactly_the_quiet_moves_backwards() {
        for g in geometries() {
            for k in 0..=4 {
                let index = LevelIndex::new(g, k);
                let size = index.size() as usize;
                let mut forward = vec![0u32; size];
                let mut backward = vec![0u32; size];
                for (i, quiet) in forward.iter_mut().enumerate() {
                    let board = index.board(i as u64);
                    for hole in 0..g.n {
                        if board.holes[hole] > 0 && play(g, &board, hole).quiet() {
                            *quiet += 1;
                        }
                    }
                }
                for i in 0..size {
                    let board = index.board(i as u64);
                    for_each_parent(g, &board, |parent| {
                        assert_eq!(parent.stones(), k);
                        let to_board = (0..g.n).filter(|&h| {
                            parent.holes[h] > 0 && {
                                let played = play(g, parent, h);
                                played.quiet() && played.child == board
                            }
                        });
                        assert!(to_board.count() >= 1, "{parent:?} -> {board:?}");
                        backward[index.index(parent).unwrap() as usize] += 1;
                    });
                }
                assert_eq!(forward, backward, "{} level {k}", g.name());
            }
        }
    }

    #[test]
    fn tuzdiks_take_their_stones() {
        let g = Geometry::of(Variant::TOGYZ).unwrap();
        // The mover owns a tuzdik on the opponent's hole 2, the opponent one on the mover's
        // hole 8: five stones from hole 6 fall into 6, 7, (8: opponent's kazan), 9 and
        // opponent's hole 1.
        let mut holes = [0u8; MAX_RING];
        holes[5] = 5;
        let board = Board {
            holes,
            mine: 1,
            theirs: 7,
        };
        let played = play(g, &board, 5);
        assert_eq!((played.own, played.opp), (0, 1));
        assert_eq!(played.gain(), -1);
        assert_eq!(played.child.holes[0], 1, "opponent's hole 1 now holds 1");
        assert_eq!((played.child.mine, played.child.theirs), (7, 1));
    }
}
