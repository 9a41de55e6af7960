//! The rules side of the page, as a GUI would take them from a rules library: a game rebuilt
//! from its variant, start and moves, every position of it with its legal moves in PlayOK
//! notation, and PGN files read and written.

use tuzdik::record::{Outcome, Record};
use tuzdik::{Game, Move, Position, Side, Variant};

use super::json::{Object, array, quote};

/// A game from the page's three fields: the variant spec (`kozdatu tuzdik=on`), a position
/// string (empty for the start) and moves in either notation separated by spaces.
pub fn game_from(variant: &str, fen: &str, moves: &str) -> Result<Game, String> {
    let variant: Variant = variant
        .trim()
        .parse()
        .map_err(|e| format!("variant '{}': {e}", variant.trim()))?;
    let mut game = if fen.trim().is_empty() {
        Game::new(variant)
    } else {
        Game::from_fen(fen, variant).map_err(|e| format!("position string: {e}"))?
    };
    for (index, text) in moves.split_whitespace().enumerate() {
        game.play_text(text)
            .map_err(|e| format!("move {} '{text}': {e}", index + 1))?;
    }
    Ok(game)
}

/// The move in PlayOK's notation, `(k)` after an even capture as PlayOK writes it.
pub fn notation(pos: &Position, mv: Move) -> String {
    let effect = pos.effect_of(mv);
    pos.long_notation(mv, effect.captured != 0 && !effect.made_tuzdik)
}

fn side_name(side: Side) -> &'static str {
    match side {
        Side::South => "south",
        Side::North => "north",
    }
}

/// One position of a game: rows, kazans, tuzdiks, side to move, fullmove number, the move
/// that led to it (source and landing hole) and its legal moves (none once the game is over).
fn ply_json(game: &Game, ply: usize) -> String {
    let pos = &game.positions()[ply];
    let mut prefix = game.clone();
    while prefix.moves().len() > ply {
        prefix.undo();
    }
    let holes = pos.variant().holes_per_side();
    let row = |side: Side| array((1..=holes).map(|hole| pos.stones(side, hole).to_string()));
    // A row's tuzdik: the hole (on that row) that belongs to the other player, 0 for none.
    let tuzdik_on = |side: Side| pos.tuzdik(side.opponent()).map_or(0, u32::from);
    let mut object = Object::new()
        .string("fen", &prefix.fen())
        .raw("south", row(Side::South))
        .raw("north", row(Side::North))
        .raw(
            "kazan",
            format!("[{},{}]", pos.kazan(Side::South), pos.kazan(Side::North)),
        )
        .raw(
            "tuzdik",
            format!("[{},{}]", tuzdik_on(Side::South), tuzdik_on(Side::North)),
        )
        .string("side", side_name(pos.side_to_move()))
        .raw("fullmove", prefix.fullmove());
    if ply > 0 {
        let before = &game.positions()[ply - 1];
        let mv = game.moves()[ply - 1];
        let effect = before.effect_of(mv);
        object = object.raw(
            "move",
            Object::new()
                .string("text", &notation(before, mv))
                .string("side", side_name(before.side_to_move()))
                .raw("from", mv.source().unwrap_or(0))
                .string("landingSide", side_name(effect.landing_side))
                .raw(
                    "landing",
                    if mv.source().is_some() {
                        effect.landing_hole
                    } else {
                        0
                    },
                )
                .raw("captured", effect.captured)
                .raw("tuzdik", effect.made_tuzdik)
                .finish(),
        );
    }
    let legal = prefix.legal_moves();
    object = object.raw(
        "legal",
        array(legal.iter().map(|&mv| {
            Object::new()
                .raw("hole", mv.source().unwrap_or(0))
                .string("text", &notation(pos, mv))
                .finish()
        })),
    );
    if let (Some(end), Some(scores)) = (prefix.termination(), prefix.final_scores()) {
        object = object.raw(
            "over",
            Object::new()
                .string("reason", end.describe())
                .raw("scores", format!("[{},{}]", scores[0], scores[1]))
                .string("result", Outcome::from_status(prefix.status()).token())
                .finish(),
        );
    }
    object.finish()
}

/// The whole game for the page: the variant, its geometry and every position.
pub fn game_json(game: &Game) -> String {
    let variant = game.variant();
    Object::new()
        .string("variant", &variant.to_string())
        .string("family", variant.family().name())
        .raw("holes", variant.holes_per_side())
        .raw("mangala", variant.is_mangala())
        .raw("total", variant.total_stones())
        .string("start", &game.start().to_fen(game.start_fullmove()))
        .raw(
            "plies",
            array((0..game.positions().len()).map(|ply| ply_json(game, ply))),
        )
        .finish()
}

/// Every game of a PGN text: its tags and the moves as they replay, or why it does not.
pub fn pgn_games_json(text: &str) -> Result<String, String> {
    let records = Record::parse_all(text).map_err(|e| format!("PGN: {e}"))?;
    if records.is_empty() {
        return Err("PGN: no game found in the text".to_string());
    }
    let games = records.iter().enumerate().map(|(index, record)| {
        let tags = array(
            record
                .tags
                .iter()
                .map(|(name, value)| format!("[{},{}]", quote(name), quote(value))),
        );
        let object = Object::new()
            .raw("index", index + 1)
            .raw("line", record.line)
            .raw("tags", tags);
        match record.replay() {
            Ok(game) => {
                let moves = game
                    .positions()
                    .iter()
                    .zip(game.moves())
                    .map(|(pos, &mv)| quote(&notation(pos, mv)));
                object
                    .string("variant", &game.variant().to_string())
                    .string("start", &game.start().to_fen(game.start_fullmove()))
                    .raw("moves", array(moves))
                    .string(
                        "result",
                        record
                            .result
                            .or_else(|| record.tag("Result").and_then(Outcome::from_token))
                            .map_or("*", Outcome::token),
                    )
                    .finish()
            }
            Err(e) => object.string("error", &e.to_string()).finish(),
        }
    });
    Ok(Object::new().raw("games", array(games)).finish())
}

/// The game as a PlayOK-style PGN record with the given tags (empty values left out).
pub fn pgn_text(game: &Game, tags: &[(&str, String)], result: Option<&str>) -> String {
    let tags: Vec<(&str, String)> = tags
        .iter()
        .filter(|(_, value)| !value.trim().is_empty())
        .cloned()
        .collect();
    let outcome = result
        .and_then(Outcome::from_token)
        .filter(|_| game.termination().is_none());
    Record::from_game(game, &tags, outcome).to_string()
}

/// A random traditional Mangala IV set-up.
pub fn mangala_setup(seed: u64) -> String {
    Position::random_mangala(seed).to_fen(1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_game_is_rebuilt_from_long_and_short_moves() {
        let game = game_from("togyz", "", "87(10) 8 2").unwrap();
        assert_eq!(game.moves().len(), 3);
        let text = game_json(&game);
        assert!(text.contains(r#""text":"87(10)""#), "{text}");
        assert!(text.contains(r#""plies":[{"fen":"9,9,9,9,9,9,9,9,9/9,9,9,9,9,9,9,9,9 0 0 w 1""#));
    }

    #[test]
    fn bad_input_names_what_is_wrong() {
        assert!(
            game_from("chess", "", "")
                .unwrap_err()
                .starts_with("variant 'chess'")
        );
        assert!(
            game_from("togyz", "1/2 0 0 w", "")
                .unwrap_err()
                .starts_with("position string")
        );
        let error = game_from("togyz", "", "87 86").unwrap_err();
        assert!(error.starts_with("move 2 '86'"), "{error}");
    }

    #[test]
    fn a_finished_game_has_no_legal_moves_and_says_why() {
        let game = game_from("bestemshchi", "0,0,0,0,1/1,0,0,0,0 24 24 w", "5").unwrap();
        let text = game_json(&game);
        assert!(text.contains(r#""over":{"reason""#), "{text}");
        assert!(text.ends_with(r#""legal":[],"over":{"reason":"a kazan holds more than half of the stones","scores":[26,24],"result":"1-0"}}]}"#), "{text}");
    }

    #[test]
    fn pgn_round_trip_keeps_the_moves() {
        let game = game_from("togyz", "", "87(10) 87(10) 22").unwrap();
        let text = pgn_text(
            &game,
            &[("White", "me".to_string()), ("Black", String::new())],
            None,
        );
        assert!(
            text.contains("[White \"me\"]") && !text.contains("Black"),
            "{text}"
        );
        let parsed = pgn_games_json(&text).unwrap();
        assert!(
            parsed.contains(r#""moves":["87(10)","87(10)","22"]"#),
            "{parsed}"
        );
        assert!(pgn_games_json("").is_err());
        assert!(pgn_games_json("1. 99 *").unwrap().contains("\"error\""));
    }
}
