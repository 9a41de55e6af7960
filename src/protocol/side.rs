//! `query side`: which player the winner of Mangala IV's odd/even guess should take.

use super::*;

/// How long `query side` searches when the game is not forced.
pub const SIDE_ADVICE_MS: i64 = 500;

/// `p1`, `p2` or `either` for a game whose result needs no search: a forced game played out,
/// or a game already over. `None` for the others.
pub(super) fn settled_side(game: &Game) -> Option<&'static str> {
    let answer_for = |status: Status| match status {
        Status::Won(Side::South) => "p1",
        Status::Won(Side::North) => "p2",
        _ => "either",
    };
    let forced = game.variant().is_mangala()
        && game.variant().mangala_move() == crate::MangalaMove::Leftmost;
    if forced {
        let mut line = game.clone();
        while line.termination().is_none() {
            let Some(&mv) = line.legal_moves().first() else {
                break;
            };
            if line.try_play(mv).is_err() {
                break;
            }
        }
        return Some(answer_for(line.status()));
    }
    game.termination()
        .is_some()
        .then(|| answer_for(game.status()))
}

/// `p1`, `p2` or `either` by the score of a search with `mover` to move.
pub(super) fn side_of(outcome: &SearchResult, mover: Side) -> &'static str {
    let score = match outcome.last.as_ref().map(|report| report.score) {
        Some(Score::MatePlies(plies)) => plies.signum(),
        Some(Score::Cp(cp)) => cp.signum(),
        None => 0,
    };
    if score == 0 {
        "either"
    } else if (score > 0) == (mover == Side::South) {
        "p1"
    } else {
        "p2"
    }
}

impl Session {
    /// `query side`: before the first move, which player the winner of the odd/even guess
    /// should choose to be. A forced game (Mangala IV, leftmost) is played out, so the answer
    /// is exact; anything else is judged by a search of [`SIDE_ADVICE_MS`].
    pub(super) fn start_side_advice(&mut self) {
        if !self.game.moves().is_empty() {
            self.out
                .error("query side: only before the first move (send a position without moves)");
            return;
        }
        // It is a search of its own: asked during other work it would have to end that, and
        // `query` leaves running work alone.
        if self.job.is_some() {
            self.out
                .error("query side: a search, perft or bench is running; send stop first");
            return;
        }
        if let Some(answer) = settled_side(&self.game) {
            self.out.line(&format!("response {answer}"));
            return;
        }
        let limits = Limits {
            clock: search::time::Clock {
                move_time: Some(SIDE_ADVICE_MS),
                ..search::time::Clock::default()
            },
            ..Limits::default()
        };
        self.configure_engine();
        self.engine.set_multipv(1);
        let out = self.out.clone();
        let mover = self.game.position().side_to_move();
        let started = self.engine.start(
            &self.game,
            &limits,
            |_| {},
            move |outcome: &SearchResult| {
                out.line(&format!("response {}", side_of(outcome, mover)));
            },
        );
        self.adopt_search(started, [true, true], "the side search", "response either");
    }
}
