//! `tuzdik analyse`: every position of a PGN's games searched, each move judged by the winning
//! chances it loses, with the engine's better lines at a flagged move. The outputs: the
//! annotated PGN, a JSON document for programs (`json.rs`) and SVG pictures (`svg.rs`). See
//! `docs/analyse.md`.

mod json;
mod progress;
mod read;
mod svg;

use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};

use clap::Args;

use crate::game::Game;
use crate::interactive::{Eval, negate, show};
use crate::moves::Move;
use crate::position::Side;
use crate::record::Record;
use crate::search::calibration::{self, win_expectation};
use crate::search::engine::DEFAULT_HASH_MIB;
use crate::search::time::Clock;
use crate::search::{Engine, Info, Limits, Score};

use progress::Progress;

/// `tuzdik analyse`.
#[derive(Args, Debug, Clone)]
pub struct AnalyseArgs {
    /// The PGN file to annotate.
    pub file: PathBuf,
    /// Time per position, ms (1000 when neither --depth nor --nodes is given).
    #[arg(long)]
    pub movetime: Option<u64>,
    /// A fixed depth per position.
    #[arg(long)]
    pub depth: Option<u32>,
    /// A fixed number of nodes per position (reproducible with one thread).
    #[arg(long)]
    pub nodes: Option<u64>,
    /// Search threads.
    #[arg(long, default_value_t = 1)]
    pub threads: usize,
    /// Hash table size, MiB.
    #[arg(long, default_value_t = DEFAULT_HASH_MIB)]
    pub hash: usize,
    /// Lines searched in every position (MultiPV): the engine's choice and the next best, shown
    /// at a flagged move when they beat the move played.
    #[arg(long, default_value_t = 2)]
    pub lines: usize,
    /// Write the annotated PGN here (default: standard output, unless `--json -`).
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Write the analysis as JSON here (`-`: standard output). See docs/analyse.md.
    #[arg(long)]
    pub json: Option<PathBuf>,
    /// Write an evaluation graph per game and a board diagram at every flagged move here (SVG).
    #[arg(long)]
    pub svg: Option<PathBuf>,
}

/// Losses of win expectation (the chance of a win plus half the chance of a draw, from 0 to
/// 1, for the side that moved) from which a move is marked: lichess's thresholds, which are
/// 0.1, 0.2 and 0.3 on its -1..1 scale of winning chances. Judging by chances rather than
/// stones keeps a decided game quiet: a move that gives back ten stones of a won game loses
/// no chance of winning it.
pub const INACCURACY_LOSS: f64 = 0.05;
/// See [`INACCURACY_LOSS`].
pub const MISTAKE_LOSS: f64 = 0.10;
/// See [`INACCURACY_LOSS`].
pub const BLUNDER_LOSS: f64 = 0.15;

/// The most moves of a line shown in a comment (the JSON has them all).
const SHOWN_LINE_PLIES: usize = 8;

/// A move's accuracy in percent from the win expectation it lost (0..1), by lichess's published
/// formula `103.1668 e^(-0.04354 d) - 3.1669` on the loss `d` in percentage points.
///
/// ```
/// use tuzdik::analyse::move_accuracy;
/// assert!(move_accuracy(0.0) > 99.99);
/// assert!(move_accuracy(0.10) < move_accuracy(0.05));
/// assert_eq!(move_accuracy(1.0), 0.0);
/// ```
pub fn move_accuracy(loss: f64) -> f64 {
    let points = (loss * 100.0).max(0.0);
    (103.1668 * (-0.04354 * points).exp() - 3.1669).clamp(0.0, 100.0)
}

/// What kind of slip a move was.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Class {
    /// At least [`INACCURACY_LOSS`] lost.
    Inaccuracy,
    /// At least [`MISTAKE_LOSS`] lost.
    Mistake,
    /// At least [`BLUNDER_LOSS`] lost.
    Blunder,
}

impl Class {
    /// The slip a loss of win expectation makes, if any.
    ///
    /// ```
    /// use tuzdik::analyse::Class;
    /// assert_eq!(Class::of(0.04), None);
    /// assert_eq!(Class::of(0.05), Some(Class::Inaccuracy));
    /// assert_eq!(Class::of(0.40).unwrap().name(), "blunder");
    /// ```
    pub fn of(loss: f64) -> Option<Class> {
        if loss >= BLUNDER_LOSS {
            Some(Class::Blunder)
        } else if loss >= MISTAKE_LOSS {
            Some(Class::Mistake)
        } else if loss >= INACCURACY_LOSS {
            Some(Class::Inaccuracy)
        } else {
            None
        }
    }

    /// The word the outputs use.
    pub fn name(self) -> &'static str {
        match self {
            Class::Inaccuracy => "inaccuracy",
            Class::Mistake => "mistake",
            Class::Blunder => "blunder",
        }
    }

    fn index(self) -> usize {
        self as usize
    }
}

/// Chances seen from the other side.
fn flip(wdl: [u32; 3]) -> [u32; 3] {
    [wdl[2], wdl[1], wdl[0]]
}

/// One line the engine found, from the side to move's view.
#[derive(Clone, Debug, PartialEq)]
struct Line {
    /// The moves, the line's first move first (never empty).
    pv: Vec<Move>,
    score: Eval,
    wdl: [u32; 3],
}

/// What the engine says of a position, from the side to move's view.
#[derive(Clone, Debug, PartialEq)]
struct Judgement {
    /// The engine's lines, best first; empty when the game is over.
    lines: Vec<Line>,
    score: Eval,
    wdl: [u32; 3],
    depth: u32,
}

impl Judgement {
    fn expectation(&self) -> f64 {
        win_expectation(self.wdl)
    }
}

/// Searches the game's current position with every line the engine was set to (MultiPV). A
/// finished game is worth its exact final margin.
fn judge_position(game: &Game, limits: &Limits, engine: &mut Engine) -> Judgement {
    if let Some(scores) = game.final_scores() {
        let mover = game.position().side_to_move().index();
        let margin = scores[mover] as i32 - scores[1 - mover] as i32;
        return Judgement {
            lines: Vec::new(),
            score: Eval::Final(margin * 100),
            wdl: calibration::proven_wdl(margin),
            depth: 0,
        };
    }
    // The newest exact report of each line; a line cut short by the limit keeps the one
    // before.
    let mut latest: Vec<crate::search::Report> = Vec::new();
    let outcome = engine.search(game, limits, |info| {
        if let Info::Line(report) = info
            && report.bound.is_none()
            && !report.pv.is_empty()
        {
            let slot = report.multipv.max(1) - 1;
            if latest.len() <= slot {
                latest.resize(slot + 1, report.clone());
            }
            latest[slot] = report.clone();
        }
    });
    if let Some(last) = &outcome.last
        && !last.pv.is_empty()
    {
        match latest.first_mut() {
            Some(first) => *first = last.clone(),
            None => latest.push(last.clone()),
        }
    }
    let pos = game.position();
    let mut lines: Vec<Line> = Vec::new();
    for report in latest {
        if lines.iter().any(|line| line.pv[0] == report.pv[0]) {
            continue;
        }
        let (score, wdl) = report.shown(pos);
        lines.push(Line {
            pv: report.pv,
            score: Eval::Search(score),
            wdl,
        });
    }
    // Lines of different depths (a search stopped within an iteration) are put in order of
    // their chances, the engine's choice staying first.
    if lines.len() > 2 {
        lines[1..].sort_by(|a, b| win_expectation(b.wdl).total_cmp(&win_expectation(a.wdl)));
    }
    let depth = outcome.last.as_ref().map_or(0, |report| report.depth);
    match (lines.first(), outcome.best) {
        (Some(first), _) => Judgement {
            score: first.score,
            wdl: first.wdl,
            depth,
            lines,
        },
        // No report at all (a search stopped before its first iteration): the move, no score.
        (None, best) => Judgement {
            lines: best
                .map(|mv| Line {
                    pv: vec![mv],
                    score: Eval::Search(Score::Cp(0)),
                    wdl: [0, 1000, 0],
                })
                .into_iter()
                .collect(),
            score: Eval::Search(Score::Cp(0)),
            wdl: [0, 1000, 0],
            depth,
        },
    }
}

/// A line as the outputs show it.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct ShownLine {
    /// The moves in PlayOK's notation, the first being the alternative to the move played.
    pub pv: Vec<String>,
    /// The score at the line's end, from South's view.
    pub score: Eval,
    /// Win, draw, loss per mille, from South's view.
    pub wdl: [u32; 3],
    /// The win expectation of the side that moves, 0 to 1.
    pub expectation: f64,
}

/// One move of a game as the analysis judged it.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct AnalysedMove {
    /// The side that played it.
    pub mover: Side,
    /// The move in PlayOK's notation.
    pub played: String,
    /// The score after the move, from South's view.
    pub score: Eval,
    /// Win, draw, loss per mille after the move, from South's view.
    pub wdl: [u32; 3],
    /// The depth of the search after the move (0: the game was over).
    pub depth: u32,
    /// The mover's win expectation before the move, with the engine's choice.
    pub expectation_before: f64,
    /// The mover's win expectation after the move played.
    pub expectation_after: f64,
    /// The expectation the move lost (0 for the engine's choice).
    pub loss: f64,
    /// lichess's accuracy of the move, percent.
    pub accuracy: f64,
    /// The slip, if it was one.
    pub class: Option<Class>,
    /// The engine's lines in the position before the move, best first (MultiPV).
    pub lines: Vec<ShownLine>,
}

#[cfg(test)]
impl AnalysedMove {
    /// A blunder (40% lost, -5.00 after it at depth 9) against the engine's `lines`.
    pub(crate) fn blunder_sample(mover: Side, played: String, lines: Vec<ShownLine>) -> Self {
        AnalysedMove {
            mover,
            played,
            score: Eval::Search(Score::Cp(-500)),
            wdl: [100, 100, 800],
            depth: 9,
            expectation_before: 0.6,
            expectation_after: 0.2,
            loss: 0.4,
            accuracy: move_accuracy(0.4),
            class: Class::of(0.4),
            lines,
        }
    }
}

/// What one player did in one game.
#[derive(Clone, Copy, Debug, PartialEq, Default)]
pub(crate) struct PlayerSummary {
    /// Moves judged (a forced move counts, losing nothing).
    pub moves: u32,
    /// Mean accuracy, percent.
    pub accuracy: f64,
    /// Mean win expectation lost per move, 0 to 1.
    pub average_loss: f64,
    /// Inaccuracies, mistakes and blunders.
    pub counts: [u32; 3],
}

/// One game analysed.
#[derive(Clone, Debug)]
pub(crate) struct AnalysedGame {
    /// Its number in the file, from 1.
    pub number: usize,
    /// The record as read.
    pub record: Record,
    /// The game replayed.
    pub game: Game,
    /// South's win expectation at the start.
    pub start_expectation: f64,
    /// Every move, in order.
    pub moves: Vec<AnalysedMove>,
}

impl AnalysedGame {
    /// A player's summary.
    pub(crate) fn player(&self, side: Side) -> PlayerSummary {
        let mut summary = PlayerSummary::default();
        let (mut accuracy, mut loss) = (0.0, 0.0);
        for mv in self.moves.iter().filter(|mv| mv.mover == side) {
            summary.moves += 1;
            accuracy += mv.accuracy;
            loss += mv.loss;
            if let Some(class) = mv.class {
                summary.counts[class.index()] += 1;
            }
        }
        let moves = f64::from(summary.moves.max(1));
        summary.accuracy = accuracy / moves;
        summary.average_loss = loss / moves;
        summary
    }

    /// South's win expectation after each ply, the start first.
    pub(crate) fn south_expectations(&self) -> Vec<f64> {
        let mut values = vec![self.start_expectation];
        values.extend(self.moves.iter().map(|mv| match mv.mover {
            Side::South => mv.expectation_after,
            Side::North => 1.0 - mv.expectation_after,
        }));
        values
    }
}

fn south_view(mover: Side, eval: Eval) -> Eval {
    match mover {
        Side::South => eval,
        Side::North => negate(eval),
    }
}

fn south_wdl(mover: Side, wdl: [u32; 3]) -> [u32; 3] {
    match mover {
        Side::South => wdl,
        Side::North => flip(wdl),
    }
}

/// Searches every position of `game` (`tick` after each) and judges every move.
fn analyse_game(
    number: usize,
    record: &Record,
    game: &Game,
    limits: &Limits,
    engine: &mut Engine,
    mut tick: impl FnMut(),
) -> AnalysedGame {
    engine.clear();
    let mut replay = Game::from_position(*game.start(), game.start_fullmove());
    let moves = game.moves();
    let mut judged = Vec::with_capacity(moves.len() + 1);
    let mut forced = Vec::with_capacity(moves.len() + 1);
    for ply in 0..=moves.len() {
        if ply > 0 {
            // The game was replayed whole before: its moves are legal.
            let _ = replay.try_play(moves[ply - 1]);
        }
        let only_move = ply < moves.len() && replay.legal_moves().len() == 1;
        forced.push(only_move);
        judged.push(if only_move {
            None
        } else {
            Some(judge_position(&replay, limits, engine))
        });
        tick();
    }
    // With one legal move the search has nothing to search: such a position is worth what
    // the position after its only move is worth (filled in from the end backwards).
    let mut values: Vec<Judgement> = Vec::with_capacity(judged.len());
    for (ply, judgement) in judged.into_iter().enumerate().rev() {
        let value = match judgement {
            Some(value) => value,
            None => {
                let next: &Judgement = values
                    .last()
                    .expect("a forced move has a position after it");
                let mut pv = vec![moves[ply]];
                pv.extend(
                    next.lines
                        .first()
                        .map(|line| line.pv.clone())
                        .unwrap_or_default(),
                );
                Judgement {
                    lines: vec![Line {
                        pv,
                        score: negate(next.score),
                        wdl: flip(next.wdl),
                    }],
                    score: negate(next.score),
                    wdl: flip(next.wdl),
                    depth: next.depth,
                }
            }
        };
        values.push(value);
    }
    values.reverse();
    let positions = game.positions();
    let analysed = moves
        .iter()
        .enumerate()
        .map(|(ply, &played)| {
            let before = &positions[ply];
            let mover = before.side_to_move();
            let (now, next) = (&values[ply], &values[ply + 1]);
            let expectation_after = 1.0 - next.expectation();
            let engine_choice = now.lines.first().map(|line| line.pv[0]);
            let loss = if engine_choice == Some(played) || forced[ply] {
                0.0
            } else {
                (now.expectation() - expectation_after).max(0.0)
            };
            let lines = now
                .lines
                .iter()
                .map(|line| ShownLine {
                    pv: notation(before, &line.pv),
                    score: south_view(mover, line.score),
                    wdl: south_wdl(mover, line.wdl),
                    expectation: win_expectation(line.wdl),
                })
                .collect();
            AnalysedMove {
                mover,
                played: before.record_notation(played),
                score: south_view(mover, negate(next.score)),
                wdl: south_wdl(mover, flip(next.wdl)),
                depth: next.depth,
                expectation_before: now.expectation(),
                expectation_after,
                loss,
                accuracy: move_accuracy(loss),
                class: Class::of(loss),
                lines,
            }
        })
        .collect();
    let start = &values[0];
    let start_expectation = match positions[0].side_to_move() {
        Side::South => start.expectation(),
        Side::North => 1.0 - start.expectation(),
    };
    AnalysedGame {
        number,
        record: record.clone(),
        game: game.clone(),
        start_expectation,
        moves: analysed,
    }
}

/// A line's moves in PlayOK's notation, each from the position it is played in.
fn notation(start: &crate::Position, pv: &[Move]) -> Vec<String> {
    let mut pos = *start;
    let mut out = Vec::with_capacity(pv.len());
    for &mv in pv {
        if !pos.is_legal(mv) {
            break;
        }
        out.push(pos.record_notation(mv));
        pos.play(mv);
    }
    out
}

/// A line for a comment: `99 (-5.70): 99 87(10) 22 ...`.
fn line_text(line: &ShownLine) -> String {
    let first = line.pv.first().map_or("", String::as_str);
    let mut shown: Vec<&str> = line
        .pv
        .iter()
        .take(SHOWN_LINE_PLIES)
        .map(String::as_str)
        .collect();
    if line.pv.len() > SHOWN_LINE_PLIES {
        shown.push("...");
    }
    format!("{first} ({}), line {}", show(line.score), shown.join(" "))
}

/// The comment after a move: the score after it (South's view), and for a slip its kind, the
/// chances lost and the engine's lines that beat it.
fn comment(mv: &AnalysedMove) -> String {
    let mut text = show(mv.score);
    if mv.depth > 0 {
        text.push_str(&format!("/{}", mv.depth));
    }
    if let Some(class) = mv.class {
        text.push_str(&format!(
            " {}: {:.0}% of winning chances lost",
            class.name(),
            mv.loss * 100.0
        ));
        let better: Vec<String> = mv
            .lines
            .iter()
            .filter(|line| {
                line.pv.first() != Some(&mv.played) && line.expectation > mv.expectation_after
            })
            .map(line_text)
            .collect();
        if let Some((best, others)) = better.split_first() {
            text.push_str(&format!("; best was {best}"));
            for other in others {
                text.push_str(&format!("; also {other}"));
            }
        }
    }
    text
}

/// The record with a comment after every move and the `Annotator` tag.
fn annotated_record(analysed: &AnalysedGame, how: &str) -> Record {
    let mut out = analysed.record.clone();
    for (recorded, mv) in out.moves.iter_mut().zip(&analysed.moves) {
        let text = comment(mv);
        recorded.comment = Some(match recorded.comment.take() {
            Some(old) => format!("{old} [{text}]"),
            None => text,
        });
    }
    out.set_tag(
        "Annotator",
        format!(
            "Tuzdik {} ({how}; scores in stones, South's view)",
            env!("CARGO_PKG_VERSION")
        ),
    );
    out
}

/// The search limits and how the annotator tag names them.
fn limits(args: &AnalyseArgs) -> Result<(Limits, String), String> {
    if args.movetime == Some(0) {
        return Err("--movetime must be at least 1 ms".to_string());
    }
    if args.depth == Some(0) {
        return Err("--depth must be at least 1".to_string());
    }
    if args.nodes == Some(0) {
        return Err("--nodes must be at least 1".to_string());
    }
    if args.lines == 0 {
        return Err("--lines must be at least 1".to_string());
    }
    let movetime = match (args.movetime, args.depth, args.nodes) {
        (None, None, None) => Some(1000),
        (time, _, _) => time,
    };
    let mut how = Vec::new();
    if let Some(depth) = args.depth {
        how.push(format!("depth {depth}"));
    }
    if let Some(nodes) = args.nodes {
        how.push(format!("{nodes} nodes"));
    }
    if let Some(ms) = movetime {
        how.push(format!("{ms} ms"));
    }
    let mut how = format!("{} a position", how.join(", "));
    if args.lines > 1 {
        how.push_str(&format!(", {} lines", args.lines));
    }
    let limits = Limits {
        depth: args.depth,
        nodes: args.nodes,
        clock: Clock {
            move_time: movetime.map(|ms| ms.min(i64::MAX as u64) as i64),
            ..Clock::default()
        },
        ..Limits::default()
    };
    Ok((limits, how))
}

/// An output file opened (not yet emptied) before any game is analysed: a path that cannot be
/// written is said at once, not after hours of analysis.
fn open_output(flag: &str, path: &Path) -> Result<std::fs::File, String> {
    std::fs::OpenOptions::new()
        .write(true)
        .create(true)
        .truncate(false)
        .open(path)
        .map_err(|e| format!("{flag} {}: {e}", path.display()))
}

/// Where a text output goes.
enum Sink {
    File(std::fs::File, PathBuf, &'static str),
    Stdout,
    Nowhere,
}

impl Sink {
    fn write(self, text: &str) -> Result<(), String> {
        match self {
            Sink::File(mut file, path, flag) => file
                .set_len(0)
                .and_then(|_| file.write_all(text.as_bytes()))
                .map_err(|e| format!("{flag} {}: {e}", path.display())),
            Sink::Stdout => {
                let stdout = std::io::stdout();
                let mut out = stdout.lock();
                out.write_all(text.as_bytes())
                    .and_then(|_| out.flush())
                    .map_err(|e| format!("output: {e}"))
            }
            Sink::Nowhere => Ok(()),
        }
    }
}

fn describe(summary: &PlayerSummary) -> String {
    if summary.moves == 0 {
        return "no moves".to_string();
    }
    let c = summary.counts;
    format!(
        "accuracy {:.1}%, average loss {:.1}%, {} inaccuracies, {} mistakes, {} blunders",
        summary.accuracy,
        summary.average_loss * 100.0,
        c[0],
        c[1],
        c[2]
    )
}

/// `tuzdik analyse`. Games that cannot be read or replayed are reported and skipped; the
/// outputs hold every other game, and the answer is then an error naming how many were
/// skipped.
pub fn analyse(args: &AnalyseArgs) -> Result<(), String> {
    let (limits, how) = limits(args)?;
    let json_to_stdout = args.json.as_deref() == Some(Path::new("-"));
    let pgn_sink = match &args.out {
        Some(path) => Sink::File(open_output("--out", path)?, path.clone(), "--out"),
        None if json_to_stdout => Sink::Nowhere,
        None => Sink::Stdout,
    };
    let json_sink = match &args.json {
        Some(_) if json_to_stdout => Sink::Stdout,
        Some(path) => Sink::File(open_output("--json", path)?, path.clone(), "--json"),
        None => Sink::Nowhere,
    };
    if let Some(dir) = &args.svg {
        std::fs::create_dir_all(dir).map_err(|e| format!("--svg {}: {e}", dir.display()))?;
    }
    let mut engine = Engine::new();
    engine
        .set_threads(args.threads)
        .map_err(|e| format!("--threads {}: {e}", args.threads))?;
    engine
        .set_hash_mib(args.hash)
        .map_err(|e| format!("--hash {}: {e}", args.hash))?;
    engine.set_multipv(args.lines);

    let name = args.file.display().to_string();
    let bytes = std::fs::read(&args.file).map_err(|e| format!("{name}: {e}"))?;
    let entries = read::games(&bytes);
    if entries.is_empty() {
        return Err(format!("{name}: no games in the file"));
    }
    let positions: u64 = entries
        .iter()
        .filter_map(|entry| entry.as_ref().ok())
        .map(|(_, game)| game.moves().len() as u64 + 1)
        .sum();
    let mut progress = Progress::new(positions, std::io::stderr().is_terminal());
    let mut pgn = String::new();
    let mut games_json = Vec::new();
    let mut skipped = Vec::new();
    let total = entries.len();
    for (index, entry) in entries.into_iter().enumerate() {
        let number = index + 1;
        let (record, game) = match entry {
            Ok(pair) => pair,
            Err(skip) => {
                progress.say(&format!("{name}: {skip}: skipped"));
                skipped.push(skip);
                continue;
            }
        };
        progress.start_game(number, total);
        let analysed = analyse_game(number, &record, &game, &limits, &mut engine, || {
            progress.tick()
        });
        pgn.push_str(&annotated_record(&analysed, &how).to_string());
        pgn.push('\n');
        games_json.push(json::game(&analysed));
        if let Some(dir) = &args.svg {
            svg::write_game(dir, &analysed).map_err(|e| format!("--svg {}: {e}", dir.display()))?;
        }
        progress.say(&format!(
            "game {number}: South {}; North {}",
            describe(&analysed.player(Side::South)),
            describe(&analysed.player(Side::North))
        ));
    }
    progress.finish();
    pgn_sink.write(&pgn)?;
    json_sink.write(&json::document(&how, args, &games_json, &skipped))?;
    if skipped.is_empty() {
        Ok(())
    } else {
        Err(format!(
            "{name}: {} of {total} games skipped ({}); the others were analysed",
            skipped.len(),
            skipped
                .iter()
                .map(|skip| format!("game {}", skip.game))
                .collect::<Vec<_>>()
                .join(", ")
        ))
    }
}

#[cfg(test)]
mod tests;
