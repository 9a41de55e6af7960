//! The analysis of one game, its marks and its comments.

use super::*;
use crate::Variant;

#[test]
fn slips_are_classed_by_the_winning_chances_lost() {
    assert_eq!(Class::of(0.0), None);
    assert_eq!(Class::of(0.049), None);
    assert_eq!(Class::of(0.05), Some(Class::Inaccuracy));
    assert_eq!(Class::of(0.12), Some(Class::Mistake));
    assert_eq!(Class::of(0.15), Some(Class::Blunder));
}

#[test]
fn accuracy_falls_from_a_hundred_as_more_chances_are_lost() {
    assert!((move_accuracy(0.0) - 99.9999).abs() < 1e-3);
    assert!(move_accuracy(0.10) < move_accuracy(0.05));
    assert_eq!(move_accuracy(1.0), 0.0);
    assert_eq!(move_accuracy(-0.2), move_accuracy(0.0));
}

fn analysed(text: &str, lines: usize) -> AnalysedGame {
    let record = Record::parse_all(text).unwrap().remove(0);
    let game = record.replay().unwrap();
    let mut engine = Engine::new();
    engine.set_multipv(lines);
    let limits = Limits {
        depth: Some(4),
        ..Limits::default()
    };
    let mut ticks = 0;
    let out = analyse_game(1, &record, &game, &limits, &mut engine, || ticks += 1);
    assert_eq!(ticks, game.moves().len() + 1);
    out
}

#[test]
fn every_move_gets_lines_from_its_own_position() {
    let game = analysed("1. 87(10) 87(10) 2. 22 99(22) *\n", 3);
    assert_eq!(game.moves.len(), 4);
    let mut pos = crate::Position::start(Variant::TOGYZ);
    for (mv, recorded) in game.moves.iter().zip(&game.record.moves) {
        assert_eq!(mv.played, recorded.text);
        assert_eq!(mv.lines.len(), 3, "{mv:?}");
        for line in &mv.lines {
            // Each line replays from the position before the move.
            let mut replay = pos;
            for text in &line.pv {
                let parsed = replay.parse_move(text).unwrap();
                replay.play(parsed);
            }
        }
        let firsts: Vec<&String> = mv.lines.iter().map(|line| &line.pv[0]).collect();
        let mut unique = firsts.clone();
        unique.dedup();
        assert_eq!(firsts.len(), unique.len());
        assert!((0.0..=1.0).contains(&mv.loss));
        let parsed = pos.parse_move(&mv.played).unwrap();
        pos.play(parsed);
    }
    assert_eq!(game.south_expectations().len(), 5);
}

#[test]
fn a_flagged_move_names_the_better_line() {
    let mv = AnalysedMove::blunder_sample(
        Side::South,
        "76".into(),
        vec![
            ShownLine {
                pv: vec!["87(10)".into(), "87(10)".into()],
                score: Eval::Search(Score::Cp(150)),
                wdl: [500, 200, 300],
                expectation: 0.6,
            },
            ShownLine {
                pv: vec!["76".into()],
                score: Eval::Search(Score::Cp(-500)),
                wdl: [100, 100, 800],
                expectation: 0.2,
            },
        ],
    );
    let text = comment(&mv);
    assert_eq!(
        text,
        "-5.00/9 blunder: 40% of winning chances lost; best was 87(10) (+1.50), line 87(10) 87(10)"
    );
}
