//! A variant spec (first line), a position string (second line) and moves (third line):
//! whatever is accepted must play without panicking, and every position string the game
//! prints (as `d` does) must be accepted back as the same position.
#![no_main]

use libfuzzer_sys::fuzz_target;
use tuzdik::{Game, Variant};

fn assert_reads_back(game: &Game, variant: Variant) {
    let fen = game.fen();
    let back = Game::from_fen(&fen, variant)
        .unwrap_or_else(|error| panic!("'{fen}' is refused: {error}"));
    assert_eq!(back.position(), game.position(), "{fen}");
    assert_eq!(back.fullmove(), game.fullmove(), "{fen}");
}

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let mut lines = text.split('\n');
    let variant = lines
        .next()
        .and_then(|spec| spec.parse::<Variant>().ok())
        .unwrap_or(Variant::TOGYZ);
    let Some(fen) = lines.next() else {
        return;
    };
    let Ok(mut game) = Game::from_fen(fen, variant) else {
        return;
    };
    assert_reads_back(&game, variant);
    for text in lines.next().unwrap_or("").split_whitespace().take(200) {
        let before = game.clone();
        match game.play_text(text) {
            Ok(_) => assert_reads_back(&game, variant),
            Err(_) => assert_eq!(game, before, "a refused move changed the game"),
        }
        let _ = game.legal_moves();
        let _ = game.status();
    }
});
