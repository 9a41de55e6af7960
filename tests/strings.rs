//! Any text at all given as a position string, move, variant spec or protocol line either
//! parses or fails with an error; nothing panics, and what parses round-trips.

use proptest::prelude::*;
use tuzdik::position::text::parse;
use tuzdik::{Family, Move, Position, Variant};

fn variants() -> Vec<Variant> {
    let mut all: Vec<Variant> = Family::ALL.iter().map(|&f| Variant::new(f)).collect();
    all.push("kozdatu tuzdik=on".parse().unwrap());
    all.push("mangala4 mangala=free-choice".parse().unwrap());
    all
}

/// Strings shaped like position strings: rows of numbers and marks, odd separators.
fn position_like() -> impl Strategy<Value = String> {
    let cell = prop_oneof![
        (0u32..30).prop_map(|n| n.to_string()),
        Just("X".to_string()),
        Just("x".to_string()),
        Just(String::new()),
        Just("-1".to_string()),
        Just("999999999999".to_string()),
    ];
    let row = prop::collection::vec(cell, 0..11).prop_map(|cells| cells.join(","));
    (
        row.clone(),
        row,
        0u32..200,
        0u32..200,
        prop::sample::select(vec!["w", "b", "W", "s", ""]),
        prop::option::of(0u32..5),
    )
        .prop_map(|(south, north, k1, k2, side, full)| {
            let mut s = format!("{south}/{north} {k1} {k2} {side}");
            if let Some(f) = full {
                s.push_str(&format!(" {f}"));
            }
            s
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn arbitrary_text_parses_or_fails_cleanly(text in "\\PC{0,120}") {
        for variant in variants() {
            if let Ok((pos, fullmove)) = parse(&text, variant) {
                // Whatever parses is valid: it prints and reads back the same.
                prop_assert_eq!(parse(&pos.to_fen(fullmove), variant), Ok((pos, fullmove)));
            }
            let start = Position::start(variant);
            let _ = start.parse_move(&text);
        }
        let _ = text.parse::<Move>();
        let _ = text.parse::<Variant>();
        let _ = tuzdik::protocol::command::parse(&text);
    }

    #[test]
    fn position_like_text_parses_or_fails_cleanly(text in position_like()) {
        for variant in variants() {
            match parse(&text, variant) {
                Ok((pos, fullmove)) => {
                    prop_assert_eq!(parse(&pos.to_fen(fullmove), variant), Ok((pos, fullmove)));
                    prop_assert_eq!(pos.key(), pos.compute_key());
                    let total = pos.stones_on_board()
                        + pos.kazan(tuzdik::Side::South)
                        + pos.kazan(tuzdik::Side::North);
                    prop_assert_eq!(total, variant.total_stones());
                }
                Err(error) => prop_assert!(!error.to_string().is_empty()),
            }
        }
    }

    #[test]
    fn move_like_text_is_checked_against_the_position(text in "[0-9Xx()]{0,8}") {
        for variant in variants() {
            let pos = Position::start(variant);
            if let Ok(mv) = pos.parse_move(&text) {
                prop_assert!(pos.is_legal(mv));
            }
        }
    }
}
