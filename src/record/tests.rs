use super::*;

#[test]
fn moves_may_run_across_lines_and_carry_comments() {
    let text = "[Event \"x\"]\n\n1. 87(10) 87(10) 2.\n22 {a note\nover lines} 99(22) *\n";
    let records = Record::parse_all(text).unwrap();
    let moves = &records[0].moves;
    assert_eq!(moves.len(), 4);
    assert_eq!(moves[2].comment.as_deref(), Some("a note over lines"));
    assert_eq!(moves[3].line, 5);
    records[0].replay().unwrap();
}

#[test]
fn disagreements_are_reported_with_the_move() {
    let text = "[Event \"x\"]\n\n1. 87(10) 87(11) *\n";
    let error = Record::parse_all(text).unwrap()[0].replay().unwrap_err();
    assert!(
        matches!(
            error,
            RecordError::Move {
                number: 1,
                side: Side::North,
                ..
            }
        ),
        "{error}"
    );
    assert!(error.to_string().contains("1... '87(11)'"), "{error}");
}

#[test]
fn malformed_text_fails_cleanly() {
    assert!(matches!(
        Record::parse_all("[Event x]\n"),
        Err(RecordError::Tag { line: 1, .. })
    ));
    assert!(matches!(
        Record::parse_all("1. 87 {open\n"),
        Err(RecordError::OpenComment { line: 1 })
    ));
    assert!(matches!(
        Record::parse_all("1. e4\n"),
        Err(RecordError::Token { line: 1, .. })
    ));
}

#[test]
fn a_wrong_result_for_a_finished_game_is_caught() {
    // After South's move North has no stones: 81-81 by rule 3b, a draw.
    let fen = "1,0,0,0,0,0,0,0,0/0,0,0,0,0,0,0,0,0 80 81 w";
    let text = format!("[FEN \"{fen}\"]\n[Result \"1-0\"]\n\n1. 12 1-0\n");
    let error = Record::parse_all(&text).unwrap()[0].replay().unwrap_err();
    assert!(matches!(
        error,
        RecordError::Result {
            written: Outcome::SouthWins,
            actual: Outcome::Draw,
            end: Termination::NoStones,
        }
    ));
}

#[test]
fn written_records_read_back() {
    let mut game = Game::from_fen(
        "9,9,9,9,9,9,9,9,9/9,9,9,9,9,9,9,9,9 0 0 b 3",
        Variant::TOGYZ,
    )
    .unwrap();
    for mv in ["8", "6", "1", "2"] {
        game.play_text(mv).unwrap();
    }
    let record = Record::from_game(&game, &[("Event", "test".to_string())], None);
    let text = record.to_string();
    assert!(text.contains("[FEN \"9,9,9,9,9,9,9,9,9/9,9,9,9,9,9,9,9,9 0 0 b 3\"]"));
    assert!(text.contains("3... 87(10) 4. 66(10)"), "{text}");
    let back = Record::parse_all(&text).unwrap();
    assert_eq!(back[0].replay().unwrap().positions(), game.positions());
}
