//! `analyse --json`: the analysis for programs. The schema is in `docs/analyse.md`; its
//! `version` changes when a field changes meaning or goes.

use std::fmt::Write;

use super::read::Skipped;
use super::{AnalyseArgs, AnalysedGame, AnalysedMove, ShownLine};
use crate::interactive::Eval;
use crate::matchrun::report::{json_number, json_string};
use crate::position::Side;
use crate::search::Score;

/// The schema's version.
pub(crate) const VERSION: u32 = 1;

/// A fraction or percentage to four decimals: enough for any table, and a file a person can
/// read.
fn number(value: f64) -> String {
    json_number((value * 10_000.0).round() / 10_000.0)
}

fn optional<T: ToString>(value: Option<T>) -> String {
    value.map_or("null".to_string(), |v| v.to_string())
}

/// A score from South's view: `{"cp": 125}` (centistones of expected final margin),
/// `{"mate": 3}` (moves to a proven result, positive for South) or `{"final": -2200}` (a
/// finished game's margin).
fn score(eval: Eval) -> String {
    match eval {
        Eval::Search(Score::Cp(cp)) => format!("{{\"cp\": {cp}}}"),
        Eval::Search(Score::MatePlies(plies)) => {
            format!("{{\"mate\": {}}}", Score::mate_moves(plies))
        }
        Eval::Final(margin) => format!("{{\"final\": {margin}}}"),
    }
}

fn wdl(chances: [u32; 3]) -> String {
    format!("[{}, {}, {}]", chances[0], chances[1], chances[2])
}

fn strings(texts: &[String]) -> String {
    let quoted: Vec<String> = texts.iter().map(|text| json_string(text)).collect();
    format!("[{}]", quoted.join(", "))
}

fn line(shown: &ShownLine) -> String {
    format!(
        "{{\"move\": {}, \"score\": {}, \"wdl\": {}, \"expectation\": {}, \"pv\": {}}}",
        json_string(shown.pv.first().map_or("", String::as_str)),
        score(shown.score),
        wdl(shown.wdl),
        number(shown.expectation),
        strings(&shown.pv)
    )
}

fn analysed_move(ply: usize, mv: &AnalysedMove) -> String {
    let lines: Vec<String> = mv.lines.iter().map(line).collect();
    format!(
        "{{\"ply\": {ply}, \"side\": {}, \"move\": {}, \"score\": {}, \"depth\": {}, \
         \"wdl\": {}, \"expectation_before\": {}, \"expectation_after\": {}, \"loss\": {}, \
         \"accuracy\": {}, \"class\": {}, \"best\": {}, \"lines\": [{}]}}",
        json_string(&mv.mover.name().to_ascii_lowercase()),
        json_string(&mv.played),
        score(mv.score),
        mv.depth,
        wdl(mv.wdl),
        number(mv.expectation_before),
        number(mv.expectation_after),
        number(mv.loss),
        number(mv.accuracy),
        optional(mv.class.map(|class| json_string(class.name()))),
        mv.lines.first().map_or("null".to_string(), line),
        lines.join(", ")
    )
}

fn player(game: &AnalysedGame, side: Side) -> String {
    let (name_tag, elo_tag) = match side {
        Side::South => ("White", "WhiteElo"),
        Side::North => ("Black", "BlackElo"),
    };
    let summary = game.player(side);
    format!(
        "{{\"name\": {}, \"elo\": {}, \"moves\": {}, \"accuracy\": {}, \"average_loss\": {}, \
         \"inaccuracies\": {}, \"mistakes\": {}, \"blunders\": {}}}",
        optional(game.record.tag(name_tag).map(json_string)),
        optional(
            game.record
                .tag(elo_tag)
                .and_then(|elo| elo.trim().parse::<i64>().ok())
        ),
        summary.moves,
        // A player without a move has no accuracy.
        optional((summary.moves > 0).then(|| number(summary.accuracy))),
        optional((summary.moves > 0).then(|| number(summary.average_loss))),
        summary.counts[0],
        summary.counts[1],
        summary.counts[2]
    )
}

/// One game as a JSON object.
pub(crate) fn game(analysed: &AnalysedGame) -> String {
    let record = &analysed.record;
    let mut tags = Vec::new();
    for (index, (name, value)) in record.tags.iter().enumerate() {
        // A tag given twice keeps its first value: JSON objects have one value per name.
        if record.tags[..index].iter().all(|(seen, _)| seen != name) {
            tags.push(format!("{}: {}", json_string(name), json_string(value)));
        }
    }
    let moves: Vec<String> = analysed
        .moves
        .iter()
        .enumerate()
        .map(|(index, mv)| format!("      {}", analysed_move(index + 1, mv)))
        .collect();
    let mut text = String::new();
    let _ = write!(
        text,
        "    {{\"game\": {}, \"line\": {}, \"variant\": {}, \"result\": {}, \"tags\": {{{}}},\n     \
         \"players\": {{\"south\": {}, \"north\": {}}},\n     \"start_expectation\": {},\n     \
         \"moves\": [\n{}\n     ]}}",
        analysed.number,
        record.line,
        json_string(&analysed.game.variant().to_string()),
        optional(record.result.map(|result| json_string(result.token()))),
        tags.join(", "),
        player(analysed, Side::South),
        player(analysed, Side::North),
        number(analysed.start_expectation),
        moves.join(",\n")
    );
    text
}

/// The whole document: settings, games (as written by [`game`]) and the games skipped.
pub(crate) fn document(
    how: &str,
    args: &AnalyseArgs,
    games: &[String],
    skipped: &[Skipped],
) -> String {
    let skipped: Vec<String> = skipped
        .iter()
        .map(|skip| {
            format!(
                "    {{\"game\": {}, \"line\": {}, \"error\": {}}}",
                skip.game,
                skip.line,
                json_string(&skip.error)
            )
        })
        .collect();
    format!(
        "{{\n  \"format\": \"tuzdik-analyse\",\n  \"version\": {VERSION},\n  \"engine\": {},\n  \
         \"settings\": {{\"limits\": {}, \"movetime\": {}, \"depth\": {}, \"nodes\": {}, \
         \"threads\": {}, \"hash\": {}, \"lines\": {}}},\n  \"games\": [\n{}\n  ],\n  \
         \"skipped\": [\n{}\n  ]\n}}\n",
        json_string(&format!("Tuzdik {}", env!("CARGO_PKG_VERSION"))),
        json_string(how),
        optional(args.movetime),
        optional(args.depth),
        optional(args.nodes),
        args.threads,
        args.hash,
        args.lines,
        games.join(",\n"),
        skipped.join(",\n")
    )
}
