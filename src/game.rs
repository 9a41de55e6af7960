//! A game: a start position, the moves played and the positions they led to, with the
//! repetition rule (RULES.md 3c) that bare positions cannot see.

use std::fmt;

use thiserror::Error;

use crate::moves::Move;
use crate::position::{Effect, MoveError, PlayError, Position, PositionError, Side, Status, text};
use crate::variant::Variant;

/// How a finished game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Termination {
    /// A kazan holds more than half of the stones (rule 3a).
    KazanMajority,
    /// The side to move has no stone on its row (rule 3b, *atsyz kalu*).
    NoStones,
    /// The position occurred before (rule 3c); the board is shared out.
    Repetition,
    /// Mangala IV: every hole is empty.
    BoardEmpty,
    /// Mangala IV: 1000 plies were played; the board is shared out.
    PlyLimit,
}

/// Mangala IV games end after this many plies (RULES.md, Mangala IV rule 6).
pub const MANGALA_MAX_PLIES: usize = 1000;

impl Termination {
    /// A short description, as used in records and protocol messages.
    pub fn describe(self) -> &'static str {
        match self {
            Termination::KazanMajority => "a kazan holds more than half of the stones",
            Termination::NoStones => "the side to move has no stones",
            Termination::Repetition => "the position repeated; the board is shared",
            Termination::BoardEmpty => "every hole is empty",
            Termination::PlyLimit => "1000 plies were played; the board is shared",
        }
    }
}

/// Why a move could not be added to a game.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum GameError {
    /// The game is over (including by repetition): no move can follow.
    #[error("the game is over ({})", .0.describe())]
    Over(Termination),
    /// The move is illegal in the current position.
    #[error(transparent)]
    Illegal(#[from] PlayError),
    /// The move text was refused.
    #[error(transparent)]
    Move(#[from] MoveError),
}

/// A game from a given start position (`startpos` or a position string) with its history.
///
/// ```
/// use tuzdik::{Game, Move, Variant};
/// let mut game = Game::new(Variant::TOGYZ);
/// game.play_text("87(10)").unwrap();
/// game.play_text("8").unwrap();
/// assert_eq!(game.fullmove(), 2);
/// assert_eq!(game.moves(), &[Move::hole(8), Move::hole(8)]);
/// assert!(game.status().is_over() == false);
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Game {
    start_fullmove: u32,
    moves: Vec<Move>,
    /// `positions[0]` is the start; `positions[i]` follows `moves[i - 1]`.
    positions: Vec<Position>,
}

impl Game {
    /// A game from a variant's start position.
    pub fn new(variant: Variant) -> Game {
        Game::from_position(Position::start(variant), 1)
    }

    /// A game starting at `start`, whose first move has fullmove number `fullmove`.
    pub fn from_position(start: Position, fullmove: u32) -> Game {
        Game {
            start_fullmove: fullmove.max(1),
            moves: Vec::new(),
            positions: vec![start],
        }
    }

    /// A game starting from a position string.
    pub fn from_fen(fen: &str, variant: Variant) -> Result<Game, PositionError> {
        let (start, fullmove) = text::parse(fen, variant)?;
        Ok(Game::from_position(start, fullmove))
    }

    /// The rules of this game.
    pub fn variant(&self) -> Variant {
        self.start().variant()
    }

    /// The position the game started from.
    pub fn start(&self) -> &Position {
        &self.positions[0]
    }

    /// The fullmove number the game started with.
    pub fn start_fullmove(&self) -> u32 {
        self.start_fullmove
    }

    /// The current position.
    pub fn position(&self) -> &Position {
        self.positions.last().unwrap_or(&self.positions[0])
    }

    /// Every position so far, the start first and the current one last.
    pub fn positions(&self) -> &[Position] {
        &self.positions
    }

    /// The moves played.
    pub fn moves(&self) -> &[Move] {
        &self.moves
    }

    /// The current fullmove number: it goes up after each North move, and stays at
    /// `u32::MAX` once there, so that [`fen`](Self::fen) is always a string
    /// [`Game::from_fen`] accepts.
    ///
    /// ```
    /// use tuzdik::{Game, Variant};
    /// let fen = "9,9,9,9,9,9,9,9,9/9,9,9,9,9,9,9,9,9 0 0 w 4294967295";
    /// let mut game = Game::from_fen(fen, Variant::TOGYZ).unwrap();
    /// game.play_text("1").unwrap();
    /// game.play_text("1").unwrap();
    /// assert_eq!(game.fullmove(), u32::MAX);
    /// assert!(Game::from_fen(&game.fen(), Variant::TOGYZ).is_ok());
    /// ```
    pub fn fullmove(&self) -> u32 {
        let north_moves = self.positions[..self.moves.len()]
            .iter()
            .filter(|pos| pos.side_to_move() == Side::North)
            .count();
        self.start_fullmove
            .saturating_add(u32::try_from(north_moves).unwrap_or(u32::MAX))
    }

    /// The current position string, with the fullmove number.
    pub fn fen(&self) -> String {
        self.position().to_fen(self.fullmove())
    }

    /// Whether the current position occurred earlier in the game.
    pub fn is_repetition(&self) -> bool {
        let current = self.position();
        self.positions[..self.positions.len() - 1]
            .iter()
            .any(|earlier| earlier == current)
    }

    /// How the game ended, or `None` while it goes on.
    pub fn termination(&self) -> Option<Termination> {
        let pos = self.position();
        if pos.variant().is_mangala() {
            return if pos.is_over() {
                Some(Termination::BoardEmpty)
            } else if self.is_repetition() {
                Some(Termination::Repetition)
            } else if self.moves.len() >= MANGALA_MAX_PLIES {
                Some(Termination::PlyLimit)
            } else {
                None
            };
        }
        let threshold = pos.variant().win_threshold();
        if pos.kazan(Side::South) >= threshold || pos.kazan(Side::North) >= threshold {
            Some(Termination::KazanMajority)
        } else if pos.stones_on_side(pos.side_to_move()) == 0 {
            Some(Termination::NoStones)
        } else if self.is_repetition() {
            Some(Termination::Repetition)
        } else {
            None
        }
    }

    /// Final scores `[South, North]` once the game is over.
    pub fn final_scores(&self) -> Option<[u32; 2]> {
        match self.termination()? {
            Termination::Repetition | Termination::PlyLimit => {
                Some(self.position().shared_scores())
            }
            _ => self.position().final_scores(),
        }
    }

    /// Where the game stands, with all three end rules.
    pub fn status(&self) -> Status {
        self.final_scores()
            .map_or(Status::Ongoing, Status::from_scores)
    }

    /// Legal moves now (none once the game is over, by any rule).
    pub fn legal_moves(&self) -> crate::MoveList {
        if self.termination().is_some() {
            crate::MoveList::new()
        } else {
            self.position().legal_moves()
        }
    }

    /// Plays a move; on error nothing changes.
    pub fn try_play(&mut self, mv: Move) -> Result<Effect, GameError> {
        if let Some(end) = self.termination() {
            return Err(GameError::Over(end));
        }
        self.position().check_move(mv)?;
        Ok(self.push_move(mv))
    }

    /// Plays a move the caller knows to be legal in a game not over (one of
    /// [`legal_moves`](Self::legal_moves)), without looking again: for loops that already
    /// hold the legal moves, such as self-play and batched environments. An illegal move
    /// leaves the game in an undefined (but memory-safe) state; debug builds panic.
    ///
    /// ```
    /// use tuzdik::{Game, Variant};
    /// let mut game = Game::new(Variant::TOGYZ);
    /// let mv = game.legal_moves()[7];
    /// let effect = game.play_unchecked(mv);
    /// assert_eq!(effect.captured, 10);
    /// assert_eq!(game.moves(), &[mv]);
    /// ```
    pub fn play_unchecked(&mut self, mv: Move) -> Effect {
        debug_assert!(self.termination().is_none(), "a move after the game's end");
        debug_assert!(self.position().is_legal(mv), "an illegal move {mv}");
        self.push_move(mv)
    }

    /// Plays a move already checked and records it.
    fn push_move(&mut self, mv: Move) -> Effect {
        let mut next = *self.position();
        let effect = next.play_unchecked(mv);
        self.moves.push(mv);
        self.positions.push(next);
        effect
    }

    /// Parses a move in either notation (checking long forms and `(k)`) and plays it.
    pub fn play_text(&mut self, text: &str) -> Result<Effect, GameError> {
        if let Some(end) = self.termination() {
            return Err(GameError::Over(end));
        }
        let mv = self.position().parse_move(text)?;
        self.try_play(mv)
    }

    /// Makes the current position the game's start, keeping its fullmove number: what
    /// `Game::from_position(*game.position(), game.fullmove())` gives, without allocating.
    /// The repetition rule then sees no earlier position, which loses nothing once the kazans
    /// have changed in the Toguz family (they never shrink, so no earlier position can come
    /// back): long self-play runs and batched environments keep their histories short so.
    ///
    /// ```
    /// use tuzdik::{Game, Variant};
    /// let mut game = Game::new(Variant::TOGYZ);
    /// game.play_text("7").unwrap();
    /// let fresh = Game::from_position(*game.position(), game.fullmove());
    /// game.forget_history();
    /// assert_eq!(game, fresh);
    /// ```
    pub fn forget_history(&mut self) {
        self.start_fullmove = self.fullmove();
        let last = self.positions.len() - 1;
        self.positions.swap(0, last);
        self.positions.truncate(1);
        self.moves.clear();
    }

    /// Takes back the last move, returning it.
    pub fn undo(&mut self) -> Option<Move> {
        let mv = self.moves.pop()?;
        self.positions.pop();
        Some(mv)
    }
}

impl fmt::Display for Game {
    /// The protocol form: `fen <start> moves <m1> <m2> ...`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "fen {}", self.start().to_fen(self.start_fullmove))?;
        if !self.moves.is_empty() {
            f.write_str(" moves")?;
            for mv in &self.moves {
                write!(f, " {mv}")?;
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Family;

    #[test]
    fn two_lone_stones_chasing_each_other_end_by_repetition() {
        let variant = Variant::new(Family::Bestemshchi);
        // The stones run round the ring five holes apart, landing only on empty holes; after
        // ten plies they have swapped rows and the board is as it was.
        let mut game = Game::from_fen("1,0,0,0,0/1,0,0,0,0 24 24 w", variant).unwrap();
        let mut plies = 0;
        while game.termination().is_none() {
            let mv = *game.legal_moves().last().unwrap();
            game.try_play(mv).unwrap();
            plies += 1;
            assert!(plies <= 10, "no end after 10 plies");
        }
        assert_eq!(plies, 10);
        assert_eq!(game.termination(), Some(Termination::Repetition));
        assert_eq!(game.final_scores(), Some([25, 25]));
        assert_eq!(game.status(), Status::Drawn);
        assert!(game.legal_moves().is_empty());
        // The bare position still has moves: only the game knows its history.
        assert!(!game.position().legal_moves().is_empty());
        assert!(matches!(
            game.try_play(Move::hole(1)),
            Err(GameError::Over(Termination::Repetition))
        ));
        game.undo();
        assert_eq!(game.termination(), None);
    }

    #[test]
    fn the_forced_mangala_start_game_ends_by_repetition() {
        let mut game = Game::new(Variant::new(Family::Mangala4));
        while game.termination().is_none() {
            let moves = game.legal_moves();
            assert_eq!(moves.len(), 1, "leftmost mode is forced");
            game.try_play(moves[0]).unwrap();
        }
        assert_eq!(game.termination(), Some(Termination::Repetition));
        assert_eq!(game.moves().len(), 57);
        let scores = game.final_scores().unwrap();
        assert_eq!(
            scores[0] + scores[1] + game.position().stones_on_board() % 2,
            98
        );
    }

    #[test]
    fn fullmove_counts_north_moves() {
        let mut game = Game::from_fen(
            "9,9,9,9,9,9,9,9,9/9,9,9,9,9,9,9,9,9 0 0 b 5",
            Variant::TOGYZ,
        )
        .unwrap();
        assert_eq!(game.fullmove(), 5);
        game.play_text("1").unwrap();
        assert_eq!(game.fullmove(), 6);
        game.play_text("1").unwrap();
        assert_eq!(game.fullmove(), 6);
        assert_eq!(game.undo(), Some(Move::hole(1)));
        assert_eq!(game.fullmove(), 6);
        assert!(game.fen().ends_with(" w 6"));
    }

    #[test]
    fn the_fullmove_number_stops_at_its_largest_value() {
        let start = "9,9,9,9,9,9,9,9,9/9,9,9,9,9,9,9,9,9 0 0 b 4294967295";
        let mut game = Game::from_fen(start, Variant::TOGYZ).unwrap();
        for _ in 0..3 {
            game.play_text("1").unwrap();
            assert_eq!(game.fullmove(), u32::MAX);
            let again = Game::from_fen(&game.fen(), Variant::TOGYZ).unwrap();
            assert_eq!(again.position(), game.position());
        }
    }

    #[test]
    fn a_bad_move_changes_nothing() {
        let mut game = Game::new(Variant::TOGYZ);
        let before = game.clone();
        assert!(game.play_text("86").is_err());
        assert!(game.play_text("x").is_err());
        assert!(game.try_play(Move::hole(12)).is_err());
        assert_eq!(game, before);
    }
}
