//! For people: `tuzdik play` (a game against the engine in the terminal). `tuzdik analyse`
//! is in [`crate::analyse`]. See `docs/match.md`.

use std::io::{BufRead, Write};

use clap::Args;

use crate::diagram;
use crate::game::Game;
use crate::matchrun::RuleArgs;
use crate::moves::Move;
use crate::position::{Side, Status};
use crate::record::Record;
use crate::search::time::Clock;
use crate::search::{Engine, Limits, Score};

/// `tuzdik play`.
#[derive(Args, Debug, Clone)]
pub struct PlayArgs {
    /// The rules.
    #[command(flatten)]
    pub rules: RuleArgs,
    /// The engine's time per move, ms.
    #[arg(long, default_value_t = 1000)]
    pub movetime: u64,
    /// Your side: south (moves first) or north.
    #[arg(long, default_value = "south")]
    pub side: String,
    /// Start from this position string instead of the start position.
    #[arg(long)]
    pub fen: Option<String>,
    /// The engine's strength: a skill level 0 to 20 (20 the full engine) or an Elo 800 to 2700.
    #[arg(long)]
    pub level: Option<i64>,
}

/// What a position is worth to the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Eval {
    /// The search's score.
    Search(Score),
    /// The game is over: the final margin in centistones.
    Final(i32),
}

/// A search result: the move and the position's worth for the side to move.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Verdict {
    best: Option<Move>,
    score: Eval,
    depth: u32,
    /// The side to move's win expectation (a win plus half a draw), 0 to 1.
    expectation: f64,
}

pub(crate) fn negate(eval: Eval) -> Eval {
    match eval {
        Eval::Search(Score::Cp(cp)) => Eval::Search(Score::Cp(-cp)),
        Eval::Search(Score::MatePlies(p)) => Eval::Search(Score::MatePlies(-p)),
        Eval::Final(margin) => Eval::Final(-margin),
    }
}

fn stones(cp: i32) -> String {
    let sign = if cp < 0 { '-' } else { '+' };
    format!("{sign}{}.{:02}", cp.abs() / 100, cp.abs() % 100)
}

/// A score as people read it: `+1.25` stones, `+M3` / `-M2` (moves to a proven win or
/// loss), or `-22.00 final` for a finished game's margin.
pub(crate) fn show(eval: Eval) -> String {
    match eval {
        Eval::Search(Score::Cp(cp)) => stones(cp),
        Eval::Search(Score::MatePlies(p)) => {
            let sign = if p < 0 { '-' } else { '+' };
            format!("{sign}M{}", (p.abs() + 1) / 2)
        }
        Eval::Final(margin) => format!("{} final", stones(margin)),
    }
}

/// Searches the game's current position. A finished game scores its exact final margin.
fn think(game: &Game, movetime: Option<u64>, depth: Option<u32>, engine: &mut Engine) -> Verdict {
    if let Some(scores) = game.final_scores() {
        let mover = game.position().side_to_move().index();
        let margin = scores[mover] as i32 - scores[1 - mover] as i32;
        return Verdict {
            best: None,
            score: Eval::Final(margin * 100),
            depth: 0,
            expectation: f64::from(margin.signum() + 1) / 2.0,
        };
    }
    let limits = Limits {
        depth,
        clock: Clock {
            move_time: movetime.map(|ms| ms as i64),
            ..Clock::default()
        },
        ..Limits::default()
    };
    let outcome = engine.search(game, &limits, |_| {});
    // Scores as the protocol shows them: the expected final margin, never beyond the possible.
    let (score, wdl, depth) = outcome
        .last
        .map(|report| {
            let (score, wdl) = report.shown(game.position());
            (score, wdl, report.depth)
        })
        .unwrap_or((Score::Cp(0), [0, 1000, 0], 0));
    Verdict {
        best: outcome.best,
        score: Eval::Search(score),
        depth,
        expectation: crate::search::calibration::win_expectation(wdl),
    }
}

fn parse_side(text: &str) -> Result<Side, String> {
    match text.to_ascii_lowercase().as_str() {
        "south" | "s" | "white" | "w" | "1" | "p1" => Ok(Side::South),
        "north" | "n" | "black" | "b" | "2" | "p2" => Ok(Side::North),
        _ => Err(format!("--side {text}: expected south or north")),
    }
}

fn result_text(game: &Game, human: Side) -> String {
    let scores = game.final_scores().unwrap_or([0, 0]);
    let verdict = match game.status() {
        Status::Won(side) if side == human => "you win",
        Status::Won(_) => "the engine wins",
        _ => "a draw",
    };
    let why = game.termination().map_or("", |t| t.describe());
    format!(
        "Game over: South {} - North {}, {verdict} ({why}).",
        scores[0], scores[1]
    )
}

const PLAY_HELP: &str = "Commands: a move (the hole number, e.g. 7, or PlayOK's long form, e.g. 76 or 87(10)), \
undo (take back your last move), hint, fen, save FILE (write the game as PGN), help, quit.";

/// Plays a game against the engine, reading commands from `input` and writing to `out`.
pub fn play_with(
    args: &PlayArgs,
    input: &mut dyn BufRead,
    out: &mut dyn Write,
) -> Result<(), String> {
    let variant = args.rules.variant()?;
    let human = parse_side(&args.side)?;
    if args.movetime == 0 {
        return Err("--movetime must be at least 1 ms".to_string());
    }
    let mut game = match &args.fen {
        Some(fen) => Game::from_fen(fen, variant).map_err(|e| format!("--fen: {e}"))?,
        None => Game::new(variant),
    };
    let mut engine = Engine::new();
    engine.set_level(
        crate::search::level::Level::from_skill_or_elo(args.level)
            .map_err(|e| format!("--level: {e}"))?,
    );
    let mut names = ["Engine", "Engine"];
    names[human.index()] = "You";
    let io = |e: std::io::Error| format!("output: {e}");
    writeln!(
        out,
        "Tuzdik: {variant}. You play {human}; the engine thinks {} ms a move.",
        args.movetime
    )
    .map_err(io)?;
    if let Some(level) = engine.level() {
        writeln!(
            out,
            "It plays at Elo {} (skill level {}).",
            level.elo(),
            level.skill()
        )
        .map_err(io)?;
    }
    writeln!(out, "{PLAY_HELP}").map_err(io)?;
    let mut show_board = true;
    loop {
        let drew = show_board;
        if show_board {
            writeln!(out).map_err(io)?;
            for line in diagram::board(&game, human, names) {
                writeln!(out, "{line}").map_err(io)?;
            }
        }
        show_board = true;
        if game.termination().is_some() {
            if drew {
                writeln!(out, "{}", result_text(&game, human)).map_err(io)?;
                writeln!(
                    out,
                    "Type undo to take back your last move, save FILE, or quit."
                )
                .map_err(io)?;
            }
        } else if game.position().side_to_move() != human {
            writeln!(out, "The engine is thinking...").map_err(io)?;
            out.flush().map_err(io)?;
            let verdict = think(&game, Some(args.movetime), None, &mut engine);
            let Some(mv) = verdict.best else {
                return Err("the engine found no move in a game that is not over".to_string());
            };
            let text = game.position().record_notation(mv);
            game.try_play(mv)
                .map_err(|e| format!("the engine's move {mv}: {e}"))?;
            writeln!(
                out,
                "The engine plays {text} (depth {}; {} for you).",
                verdict.depth,
                show(negate(verdict.score))
            )
            .map_err(io)?;
            continue;
        } else {
            let legal: Vec<String> = game.legal_moves().iter().map(Move::to_string).collect();
            writeln!(out, "Your move ({human}); legal: {}", legal.join(" ")).map_err(io)?;
        }
        write!(out, "> ").map_err(io)?;
        out.flush().map_err(io)?;
        // Bytes that are not UTF-8 become U+FFFD, as in the protocol: such a line is a bad
        // move, not the end of the game.
        let line =
            match crate::protocol::read_bounded_line(input).map_err(|e| format!("input: {e}"))? {
                None => {
                    writeln!(out).map_err(io)?;
                    return Ok(());
                }
                Some(Ok(line)) => line,
                Some(Err(length)) => {
                    writeln!(out, "A line of {length} bytes: ignored.").map_err(io)?;
                    show_board = false;
                    continue;
                }
            };
        let line = line.trim();
        let (word, rest) = line.split_once(' ').unwrap_or((line, ""));
        match word.to_ascii_lowercase().as_str() {
            "" => show_board = false,
            "quit" | "exit" | "q" => return Ok(()),
            "help" | "?" => {
                writeln!(out, "{PLAY_HELP}").map_err(io)?;
                show_board = false;
            }
            "fen" => {
                writeln!(out, "{}", game.fen()).map_err(io)?;
                show_board = false;
            }
            "undo" | "u" | "takeback" => {
                // Back to the position before your last move (the engine's reply goes too).
                let played = game.moves().len();
                let yours = game.positions()[..played]
                    .iter()
                    .any(|pos| pos.side_to_move() == human);
                if yours {
                    while game.undo().is_some() && game.position().side_to_move() != human {}
                } else {
                    writeln!(out, "Nothing of yours to take back.").map_err(io)?;
                    show_board = false;
                }
            }
            "hint" => {
                if game.termination().is_some() {
                    writeln!(out, "The game is over.").map_err(io)?;
                } else {
                    let verdict = think(&game, Some(args.movetime), None, &mut engine);
                    if let Some(mv) = verdict.best {
                        writeln!(
                            out,
                            "Hint: {} ({} for you, depth {}).",
                            game.position().record_notation(mv),
                            show(verdict.score),
                            verdict.depth
                        )
                        .map_err(io)?;
                    }
                }
                show_board = false;
            }
            "save" => {
                let path = rest.trim();
                if path.is_empty() {
                    writeln!(out, "save needs a file name.").map_err(io)?;
                } else {
                    let mut tags = vec![("Event", "tuzdik play".to_string())];
                    let engine = format!("Tuzdik {}", env!("CARGO_PKG_VERSION"));
                    let (white, black) = match human {
                        Side::South => ("You".to_string(), engine),
                        Side::North => (engine, "You".to_string()),
                    };
                    tags.push(("White", white));
                    tags.push(("Black", black));
                    let record = Record::from_game(&game, &tags, None);
                    match std::fs::write(path, record.to_string()) {
                        Ok(()) => writeln!(out, "Saved to {path}.").map_err(io)?,
                        Err(e) => writeln!(out, "Could not write {path}: {e}").map_err(io)?,
                    }
                }
                show_board = false;
            }
            _ => {
                if game.termination().is_some() {
                    writeln!(out, "The game is over: undo, save FILE or quit.").map_err(io)?;
                    show_board = false;
                } else {
                    match game.play_text(line) {
                        Ok(_) => {}
                        Err(e) => {
                            writeln!(out, "'{line}': {e}. Type help for the commands.")
                                .map_err(io)?;
                            show_board = false;
                        }
                    }
                }
            }
        }
    }
}

/// `tuzdik play` on the terminal.
pub fn play(args: &PlayArgs) -> Result<(), String> {
    let stdin = std::io::stdin();
    let mut input = stdin.lock();
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    play_with(args, &mut input, &mut out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Variant;

    fn args(side: &str) -> PlayArgs {
        PlayArgs {
            rules: RuleArgs {
                variant: "togyz".into(),
                tuzdik: None,
                sowing: None,
                capture: None,
                mangala: None,
            },
            movetime: 5,
            side: side.into(),
            fen: None,
            level: None,
        }
    }

    #[test]
    fn the_board_shows_rows_kazans_and_the_last_move() {
        let mut game = Game::new(Variant::TOGYZ);
        game.play_text("8").unwrap();
        let lines = diagram::board(&game, Side::South, ["You", "Engine"]);
        let text = lines.join("\n");
        assert!(text.contains("[  1]"), "{text}");
        assert!(text.contains("(  0)"), "{text}");
        assert!(text.contains("kazan  10"), "{text}");
        assert!(text.contains("87(10)"), "{text}");
        assert!(lines[0].contains("Engine (North)"));
    }

    #[test]
    fn a_scripted_game_takes_moves_undo_and_quits() {
        let mut input = "banana\n7\nundo\n87(10)\nfen\nquit\n".as_bytes();
        let mut out = Vec::new();
        play_with(&args("south"), &mut input, &mut out).unwrap();
        let text = String::from_utf8(out).unwrap();
        assert!(text.contains("'banana'"), "{text}");
        assert_eq!(text.matches("The engine plays").count(), 2, "{text}");
        assert!(text.contains("Last move: South played hole 8"), "{text}");
    }
}
