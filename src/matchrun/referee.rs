//! The referee: plays one game between two seats, keeping the game itself with the
//! project's rules. Engines only propose moves; every move is checked, every clock is kept
//! here, and the rules (or a forfeit) decide the result.

use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use super::adjudicate::{DrawRule, ResignRule};
use super::clock::{MoveLimits, PlayerClock, TimeControl};
use super::engine::{Engine, EngineSpec, Failure, Proto};
use super::openings::Opening;
use crate::game::{Game, GameError, Termination};
use crate::position::MoveError;
use crate::position::{Side, Status};
use crate::record::Outcome;
use crate::solve::Tablebase;
use crate::variant::Variant;

/// What every game of a match shares.
#[derive(Clone, Debug)]
pub struct Settings {
    /// The rules.
    pub variant: Variant,
    /// The longest wait for a move when there is no clock.
    pub move_timeout: Duration,
    /// Adjudicate after this many plies.
    pub max_plies: Option<u32>,
    /// `--resign`.
    pub resign: Option<ResignRule>,
    /// `--draw`.
    pub draw: Option<DrawRule>,
    /// `--tb`: solved positions end the game with the table's result.
    pub tablebase: Option<Arc<Tablebase>>,
    /// Log all engine traffic to stderr.
    pub debug: bool,
}

/// One engine's place in a worker: its spec and, while it runs, its process.
pub struct Seat {
    /// How to start it.
    pub spec: EngineSpec,
    /// Its name in records and output.
    pub name: String,
    /// A label for debug output.
    pub label: String,
    /// Its time control and search limits.
    pub limits: MoveLimits,
    /// How far past its time an answer may come and still count.
    pub grace: Duration,
    /// The running process (`None` before its first game and after a fault).
    pub engine: Option<Engine>,
}

impl Seat {
    /// Quits the engine, if it runs.
    pub fn shutdown(&mut self) {
        if let Some(engine) = self.engine.take() {
            engine.quit();
        }
    }
}

/// The kind of a fault, for the PGN `Termination` tag and the summary.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum FaultKind {
    /// Could not be started, or failed its handshake.
    Start,
    /// The process died.
    Crash,
    /// Answered after its time ran out.
    Time,
    /// Never answered.
    NoAnswer,
    /// A move that is unparsable or illegal, or a bare `bestmove`.
    Illegal,
}

impl FaultKind {
    /// A short name for summaries.
    pub fn name(self) -> &'static str {
        match self {
            FaultKind::Start => "start failure",
            FaultKind::Crash => "crash",
            FaultKind::Time => "time loss",
            FaultKind::NoAnswer => "no answer",
            FaultKind::Illegal => "illegal move",
        }
    }

    /// The PGN `Termination` tag's value.
    pub fn pgn_termination(self) -> &'static str {
        match self {
            FaultKind::Time | FaultKind::NoAnswer => "time forfeit",
            FaultKind::Illegal => "rules infraction",
            FaultKind::Start | FaultKind::Crash => "abandoned",
        }
    }
}

/// A fault that lost a game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fault {
    /// Its kind.
    pub kind: FaultKind,
    /// What happened, in words.
    pub detail: String,
}

/// How a game ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Ending {
    /// By the rules (RULES.md 3a-3c).
    Rules(Termination),
    /// Adjudicated at `--max-plies`: the board is shared as for a repetition.
    MaxPlies(u32),
    /// Adjudicated by `--resign`: both engines agreed that `loser` is lost.
    Resign {
        /// Who resigns.
        loser: Side,
        /// The rule that applied.
        rule: ResignRule,
    },
    /// Adjudicated by `--draw`: both engines agreed the game is level.
    DrawAgreed(DrawRule),
    /// Adjudicated by `--tb`: the table's margin for the side to move.
    Tablebase {
        /// The side to move.
        mover: Side,
        /// The margin it can force from here.
        margin: i32,
    },
    /// An engine lost by a fault.
    Forfeit {
        /// Who lost.
        loser: Side,
        /// Why.
        fault: Fault,
    },
}

/// A finished game.
#[derive(Clone, Debug)]
pub struct FinishedGame {
    /// The game as the referee kept it.
    pub game: Game,
    /// How it ended.
    pub ending: Ending,
    /// Its result.
    pub outcome: Outcome,
    /// Final scores `[South, North]` when the board decided.
    pub scores: Option<[u32; 2]>,
    /// A note per move: `<score>/<depth> <seconds>s`.
    pub notes: Vec<String>,
    /// The names `[South, North]`.
    pub names: [String; 2],
    /// Moves of the opening itself (before the engines' first move).
    pub book_plies: usize,
}

impl FinishedGame {
    /// The termination reason in words, as written in the PGN comment.
    pub fn reason(&self) -> String {
        let scores = |s: [u32; 2]| format!("South {} - North {}", s[0], s[1]);
        match &self.ending {
            Ending::Rules(end) => {
                let who = match self.game.status() {
                    Status::Won(side) => format!("{side} wins"),
                    _ => "Draw".to_string(),
                };
                let s = self.scores.map(scores).unwrap_or_default();
                format!("{who}, {s}: {}", end.describe())
            }
            Ending::MaxPlies(plies) => {
                let s = self.scores.map(scores).unwrap_or_default();
                format!(
                    "Adjudicated after {plies} plies: the board is shared as for a repetition, {s}"
                )
            }
            Ending::Resign { loser, rule } => format!(
                "{} wins by resign adjudication: {loser} ({}) at {} or worse and its opponent at \
                 +{} or better for {} moves each",
                loser.opponent(),
                self.names[loser.index()],
                -rule.score,
                rule.score,
                rule.moves
            ),
            Ending::DrawAgreed(rule) => format!(
                "Draw by draw adjudication: both engines within {} of 0 for {} moves each, from \
                 move {} on",
                rule.score, rule.moves, rule.after_move
            ),
            Ending::Tablebase { mover, margin } => {
                let who = match self.outcome {
                    Outcome::SouthWins => "South wins",
                    Outcome::NorthWins => "North wins",
                    _ => "Draw",
                };
                format!(
                    "{who} by tablebase adjudication: {mover} to move can force a margin of {margin}"
                )
            }
            Ending::Forfeit { loser, fault } => format!(
                "{loser} ({}) loses {}",
                self.names[loser.index()],
                fault.detail
            ),
        }
    }

    /// The adjudication's short name (`None` when the game was not adjudicated).
    pub fn adjudication(&self) -> Option<&'static str> {
        match self.ending {
            Ending::MaxPlies(_) => Some("max plies"),
            Ending::Resign { .. } => Some("resign"),
            Ending::DrawAgreed(_) => Some("draw"),
            Ending::Tablebase { .. } => Some("tablebase"),
            Ending::Rules(_) | Ending::Forfeit { .. } => None,
        }
    }

    /// The PGN `Termination` tag.
    pub fn pgn_termination(&self) -> &'static str {
        match &self.ending {
            Ending::Rules(_) => "normal",
            Ending::MaxPlies(_)
            | Ending::Resign { .. }
            | Ending::DrawAgreed(_)
            | Ending::Tablebase { .. } => "adjudication",
            Ending::Forfeit { fault, .. } => fault.kind.pgn_termination(),
        }
    }
}

fn winner_outcome(winner: Side) -> Outcome {
    match winner {
        Side::South => Outcome::SouthWins,
        Side::North => Outcome::NorthWins,
    }
}

/// The `position` command for a game so far (moves in the short form).
pub fn position_command(opening: &Opening, game: &Game) -> String {
    let mut text = if opening.is_startpos() {
        "position startpos".to_string()
    } else {
        format!(
            "position fen {}",
            game.start().to_fen(game.start_fullmove())
        )
    };
    if !game.moves().is_empty() {
        text.push_str(" moves");
        for mv in game.moves() {
            text.push(' ');
            text.push_str(&mv.to_string());
        }
    }
    text
}

/// The `go` command for the side to move, from its own limits. With a clock, both sides'
/// times are sent when both have one (time odds send each side's own figures); a side
/// without a clock is left out.
pub fn go_command(
    proto: Proto,
    limits: &MoveLimits,
    clocks: &[PlayerClock; 2],
    mover: Side,
) -> String {
    let mut text = "go".to_string();
    match limits.time {
        TimeControl::None => {}
        TimeControl::MoveTime(ms) => text.push_str(&format!(" movetime {ms}")),
        TimeControl::Clock { .. } => {
            let (time, inc) = match proto {
                Proto::Uci => (["wtime", "btime"], ["winc", "binc"]),
                Proto::Ugi => (["p1time", "p2time"], ["p1inc", "p2inc"]),
            };
            for side in Side::BOTH {
                let clock = &clocks[side.index()];
                if side != mover && !matches!(clock.control(), TimeControl::Clock { .. }) {
                    continue;
                }
                text.push_str(&format!(" {} {}", time[side.index()], clock.remaining_ms()));
            }
            for side in Side::BOTH {
                let clock = &clocks[side.index()];
                if side != mover && !matches!(clock.control(), TimeControl::Clock { .. }) {
                    continue;
                }
                text.push_str(&format!(" {} {}", inc[side.index()], clock.increment_ms()));
            }
        }
    }
    if let Some(m) = clocks[mover.index()].moves_to_go() {
        text.push_str(&format!(" movestogo {m}"));
    }
    if let Some(depth) = limits.depth {
        text.push_str(&format!(" depth {depth}"));
    }
    if let Some(nodes) = limits.nodes {
        text.push_str(&format!(" nodes {nodes}"));
    }
    text
}

/// The fault for a failure; `detail` reads after "loses".
fn fault_of(failure: &Failure) -> Fault {
    match failure {
        Failure::Start(why) => Fault {
            kind: FaultKind::Start,
            detail: format!("by failing to start: {why}"),
        },
        Failure::Crashed(why) => Fault {
            kind: FaultKind::Crash,
            detail: format!("by a crash ({why})"),
        },
        Failure::Silent { .. } | Failure::Stopped => Fault {
            kind: FaultKind::NoAnswer,
            detail: format!("by not answering: {failure}"),
        },
    }
}

/// Makes sure a seat has a running engine that is ready for a new game. A seat whose engine
/// fails here is left empty (it is started afresh for its next game).
fn prepare(seat: &mut Seat, settings: &Settings, stop: &AtomicBool) -> Result<(), Failure> {
    if seat.engine.is_none() {
        seat.engine = Some(Engine::start(
            &seat.spec,
            &seat.label,
            settings.variant,
            settings.debug,
            stop,
        )?);
    }
    let result = match seat.engine.as_mut() {
        Some(engine) => engine.new_game(stop),
        None => Ok(()),
    };
    if result.is_err() {
        seat.engine = None;
    }
    result
}

/// Plays one game: `seats[0]` is South, `seats[1]` North. `None` when the match was stopped
/// before the game finished (it is abandoned).
pub fn play(
    seats: [&mut Seat; 2],
    opening: &Opening,
    settings: &Settings,
    stop: &AtomicBool,
) -> Option<FinishedGame> {
    let names = [seats[0].name.clone(), seats[1].name.clone()];
    let mut game = opening.game.clone();
    let book_plies = game.moves().len();
    let mut notes = Vec::new();
    let finish = |game: Game, ending: Ending, notes: Vec<String>| -> FinishedGame {
        let (outcome, scores) = match &ending {
            Ending::Rules(_) => (Outcome::from_status(game.status()), game.final_scores()),
            Ending::Resign { loser, .. } => (winner_outcome(loser.opponent()), None),
            Ending::DrawAgreed(_) => (Outcome::Draw, None),
            Ending::Tablebase { mover, margin } => {
                let position = game.position();
                let lead = i64::from(position.kazan(*mover))
                    - i64::from(position.kazan(mover.opponent()))
                    + i64::from(*margin);
                let outcome = match lead.signum() {
                    1 => winner_outcome(*mover),
                    -1 => winner_outcome(mover.opponent()),
                    _ => Outcome::Draw,
                };
                (outcome, None)
            }
            Ending::MaxPlies(_) => {
                let scores = game.position().shared_scores();
                (
                    Outcome::from_status(Status::from_scores(scores)),
                    Some(scores),
                )
            }
            Ending::Forfeit { loser, .. } => (winner_outcome(loser.opponent()), None),
        };
        FinishedGame {
            game,
            ending,
            outcome,
            scores,
            notes,
            names: names.clone(),
            book_plies,
        }
    };

    for side in Side::BOTH {
        match prepare(seats[side.index()], settings, stop) {
            Ok(()) => {}
            Err(Failure::Stopped) => return None,
            Err(failure) => {
                let mut fault = fault_of(&failure);
                if let Failure::Silent { .. } = failure {
                    fault.detail = format!("by not getting ready for the game: {failure}");
                }
                let ending = Ending::Forfeit { loser: side, fault };
                return Some(finish(game, ending, notes));
            }
        }
    }

    let mut clocks = [
        PlayerClock::new(seats[0].limits.time),
        PlayerClock::new(seats[1].limits.time),
    ];
    let mut plies = 0u32;
    // Each side's reported scores, its own view, one per move it made.
    let mut reported: [Vec<Option<i64>>; 2] = [Vec::new(), Vec::new()];
    loop {
        if let Some(end) = game.termination() {
            return Some(finish(game, Ending::Rules(end), notes));
        }
        if let Some(max) = settings.max_plies
            && plies >= max
        {
            return Some(finish(game, Ending::MaxPlies(plies), notes));
        }
        if let Some(table) = &settings.tablebase
            && let Some(margin) = table.probe(game.position())
        {
            let mover = game.position().side_to_move();
            return Some(finish(game, Ending::Tablebase { mover, margin }, notes));
        }
        if let Some(rule) = settings.resign
            && let Some(loser) = rule.loser(&reported)
        {
            return Some(finish(game, Ending::Resign { loser, rule }, notes));
        }
        if let Some(rule) = settings.draw
            && rule.holds(&reported, game.moves().len())
        {
            return Some(finish(game, Ending::DrawAgreed(rule), notes));
        }
        let side = game.position().side_to_move();
        let seat = &mut *seats[side.index()];
        let (limits, grace) = (seat.limits, seat.grace);
        let Some(engine) = seat.engine.as_mut() else {
            // Not reachable: both seats were prepared above and only a fault empties one.
            let fault = Fault {
                kind: FaultKind::Crash,
                detail: "the engine is not running".to_string(),
            };
            return Some(finish(game, Ending::Forfeit { loser: side, fault }, notes));
        };
        let position = position_command(opening, &game);
        let go = go_command(engine.proto(), &limits, &clocks, side);
        let clock = &mut clocks[side.index()];
        let allowed = clock.allowance(grace).unwrap_or(settings.move_timeout);
        let reply = match engine.think(&position, &go, allowed, stop) {
            Ok(reply) => reply,
            Err(Failure::Stopped) => return None,
            Err(failure) => {
                seat.engine = None;
                let fault = match (&failure, limits.time) {
                    (
                        Failure::Silent { waited, .. },
                        TimeControl::Clock { .. } | TimeControl::MoveTime(_),
                    ) => Fault {
                        kind: FaultKind::Time,
                        detail: format!(
                            "on time: no move within {:.3} s (its time plus a grace of {} ms)",
                            waited.as_secs_f64(),
                            grace.as_millis()
                        ),
                    },
                    _ => fault_of(&failure),
                };
                return Some(finish(game, Ending::Forfeit { loser: side, fault }, notes));
            }
        };
        let before_ms = clock.remaining_ms();
        if !clock.charge(reply.elapsed, grace) {
            let detail = match limits.time {
                TimeControl::MoveTime(ms) => format!(
                    "on time: {:.3} s used for a {:.3} s move (grace {} ms)",
                    reply.elapsed.as_secs_f64(),
                    ms as f64 / 1000.0,
                    grace.as_millis()
                ),
                _ => format!(
                    "on time: {:.3} s used with {:.3} s left (grace {} ms)",
                    reply.elapsed.as_secs_f64(),
                    before_ms as f64 / 1000.0,
                    grace.as_millis()
                ),
            };
            let fault = Fault {
                kind: FaultKind::Time,
                detail,
            };
            return Some(finish(game, Ending::Forfeit { loser: side, fault }, notes));
        }
        let Some(text) = reply.text else {
            seat.engine = None;
            let fault = Fault {
                kind: FaultKind::Illegal,
                detail: "by answering 'bestmove' without a move".to_string(),
            };
            return Some(finish(game, Ending::Forfeit { loser: side, fault }, notes));
        };
        let fen = game.fen();
        if let Err(error) = game.play_text(&text) {
            seat.engine = None;
            let what = match error {
                GameError::Move(MoveError::Syntax(_)) => "unparsable",
                _ => "illegal",
            };
            let fault = Fault {
                kind: FaultKind::Illegal,
                detail: format!("by an {what} move '{text}' in {fen}: {error}"),
            };
            return Some(finish(game, Ending::Forfeit { loser: side, fault }, notes));
        }
        plies += 1;
        reported[side.index()].push(reply.score_cp);
        let mut note = String::new();
        if let Some(score) = &reply.score {
            note.push_str(score);
            if let Some(depth) = reply.depth {
                note.push_str(&format!("/{depth}"));
            }
            note.push(' ');
        }
        note.push_str(&format!("{:.3}s", reply.elapsed.as_secs_f64()));
        notes.push(note);
    }
}
