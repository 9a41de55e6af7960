//! Mangala IV end to end: the protocol, the command line, games and records.

mod common;

use std::process::Command;

use common::run_script;
use proptest::prelude::*;
use tuzdik::record::{Outcome, Record};
use tuzdik::{Family, Game, MangalaMove, Move, Position, Side, Status, Termination, Variant};

fn play_out(mut game: Game) -> Game {
    while game.termination().is_none() {
        let mv = game.legal_moves()[0];
        game.try_play(mv).unwrap();
    }
    game
}

#[test]
fn random_setups_agree_between_the_protocol_and_the_command_line() {
    let setup = Command::new(env!("CARGO_BIN_EXE_tuzdik"))
        .args(["setup", "mangala4", "--seed", "7"])
        .output()
        .unwrap();
    assert!(setup.status.success());
    let fen = String::from_utf8(setup.stdout).unwrap().trim().to_string();
    assert_eq!(fen, Position::random_mangala(7).to_fen(1));
    let lines = run_script("setoption name UCI_Variant value mangala4\nposition random 7\nd\n");
    assert!(lines.contains(&format!("Fen: {fen}")), "{lines:#?}");
    assert!(
        lines
            .iter()
            .any(|l| l == "Legal: 1" || l.starts_with("Legal: "))
    );
    // Not for the Toguz family, and a failed command keeps the position.
    let lines = run_script("position random 7\nd\n");
    assert!(lines[0].starts_with("info string error: position random"));
    assert!(lines.iter().any(|l| l.starts_with("Fen: 9,9,9")));
}

#[test]
fn side_advice_is_exact_for_a_forced_game() {
    for seed in [1u64, 2, 3, 4] {
        let start = Position::random_mangala(seed);
        let expected = match play_out(Game::from_position(start, 1)).status() {
            Status::Won(Side::South) => "response p1",
            Status::Won(Side::North) => "response p2",
            _ => "response either",
        };
        let lines = run_script(&format!(
            "setoption name UCI_Variant value mangala4\nposition random {seed}\nquery side\n"
        ));
        assert_eq!(
            lines.last().map(String::as_str),
            Some(expected),
            "seed {seed}"
        );
    }
    let lines = run_script(
        "setoption name UCI_Variant value mangala4\nposition startpos moves 1\nquery side\n",
    );
    assert!(lines[0].starts_with("info string error: query side"));
}

#[test]
fn forced_moves_and_passes_are_answered_and_finished_games_get_0000() {
    let lines =
        run_script("setoption name UCI_Variant value mangala4\nposition startpos\ngo depth 30\n");
    // Every move of leftmost mode is forced; with a depth the search still goes that deep.
    assert_eq!(
        lines.last().map(String::as_str),
        Some("bestmove 1 ponder 1")
    );
    assert!(lines.iter().any(|line| line.starts_with("info depth 30 ")));
    // South's row is empty: the pass is the only move (and the search goes through passes).
    let lines = run_script(
        "setoption name UCI_Variant value mangala4\nsetoption name Mangala value free-choice\nposition fen 0,0,0,0,0,0,0/0,0,3,0,1,0,0 50 44 w\ngo depth 6\n",
    );
    assert_eq!(
        lines.last().map(String::as_str),
        Some("bestmove 0000 ponder 3")
    );
    // On a clock, a forced move is answered after one iteration.
    let lines = run_script(
        "setoption name UCI_Variant value mangala4\nposition startpos\ngo wtime 60000 btime 60000\n",
    );
    let depths: Vec<&String> = lines
        .iter()
        .filter(|l| l.starts_with("info depth"))
        .collect();
    assert_eq!(depths.len(), 1, "{lines:#?}");
    assert!(lines.last().is_some_and(|l| l.starts_with("bestmove 1")));
    let lines = run_script(
        "setoption name UCI_Variant value mangala4\nposition fen 0,0,0,0,0,0,0/0,0,0,0,0,0,0 50 48 w\ngo depth 6\nquery result\n",
    );
    // `query` does not wait for the search, so the two answers may come in either order.
    assert!(lines.contains(&"bestmove 0000".to_string()));
    assert!(lines.contains(&"response p1win".to_string()));
}

#[test]
fn switches_that_do_not_apply_are_refused() {
    let lines = run_script(
        "setoption name UCI_Variant value mangala4\nsetoption name Tuzdik value true\nsetoption name Capture value singleton\nsetoption name UCI_Variant value togyz\nsetoption name Mangala value free-choice\n",
    );
    assert_eq!(lines.len(), 3, "{lines:#?}");
    assert!(lines.iter().all(|l| l.starts_with("info string error: ")));
}

#[test]
fn perft_from_the_command_line_and_the_protocol_agree() {
    let cli = Command::new(env!("CARGO_BIN_EXE_tuzdik"))
        .args([
            "perft",
            "6",
            "--variant",
            "mangala4",
            "--mangala",
            "free-choice",
        ])
        .output()
        .unwrap();
    let cli = String::from_utf8(cli.stdout).unwrap();
    assert!(cli.contains("Nodes searched: 44058"), "{cli}");
    let lines = run_script(
        "setoption name UCI_Variant value mangala4\nsetoption name Mangala value free-choice\nperft 6\n",
    );
    assert_eq!(
        lines.last().map(String::as_str),
        Some("Nodes searched: 44058")
    );
}

#[test]
fn the_forced_start_game_is_a_cycle_ended_by_repetition() {
    let game = play_out(Game::new(Variant::new(Family::Mangala4)));
    assert_eq!(game.termination(), Some(Termination::Repetition));
    let record = Record::from_game(&game, &[("Event", "cycle".to_string())], None);
    let text = record.to_string();
    assert!(text.contains("[Variant \"mangala4\"]"));
    let back = Record::parse_all(&text).unwrap();
    let replayed = back[0].replay().unwrap();
    assert_eq!(replayed.positions(), game.positions());
}

#[test]
fn a_game_that_never_repeats_ends_at_the_ply_limit() {
    // Free choice lets a player avoid repetition for a long time; with a fixed, cycling
    // choice rule the limit or a repetition must come. Either way the game ends.
    let variant = Variant::new(Family::Mangala4).with_mangala_move(MangalaMove::FreeChoice);
    let mut game = Game::new(variant);
    let mut turn = 0usize;
    while game.termination().is_none() {
        let moves = game.legal_moves();
        game.try_play(moves[turn % moves.len()]).unwrap();
        turn += 1;
        assert!(turn <= 1000);
    }
    assert!(game.final_scores().is_some());
    assert!(matches!(
        game.try_play(Move::hole(1)),
        Err(tuzdik::GameError::Over(_))
    ));
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    /// Every Mangala IV game ends (by an empty board, a repetition or the ply limit), counters
    /// are conserved, and a written record replays to the same positions and result.
    #[test]
    fn games_always_end_and_records_replay(seed in 0u64..10_000, free in any::<bool>(), choices in prop::collection::vec(0usize..7, 1000)) {
        let choice = if free { MangalaMove::FreeChoice } else { MangalaMove::Leftmost };
        let variant = Variant::new(Family::Mangala4).with_mangala_move(choice);
        let start = Position::parse_with(&Position::random_mangala(seed).to_string(), variant).unwrap();
        let mut game = Game::from_position(start, 1);
        for pick in choices {
            if game.termination().is_some() {
                break;
            }
            let moves = game.legal_moves();
            game.try_play(moves[pick % moves.len()]).unwrap();
            let pos = game.position();
            prop_assert_eq!(pos.stones_on_board() + pos.kazan(Side::South) + pos.kazan(Side::North), 98);
        }
        prop_assert!(game.termination().is_some(), "no end after 1000 plies");
        let record = Record::from_game(&game, &[], None);
        prop_assert_eq!(record.result, Some(Outcome::from_status(game.status())));
        let back = Record::parse_all(&record.to_string()).unwrap();
        let replayed = back[0].replay().unwrap();
        prop_assert_eq!(replayed.positions(), game.positions());
    }
}

#[test]
fn a_free_choice_match_tells_the_engines_its_rules_and_its_records_replay() {
    let bin = env!("CARGO_BIN_EXE_tuzdik");
    let dir = std::env::temp_dir().join(format!("tuzdik-mangala-match-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let pgn = dir.join("games.pgn");
    let output = Command::new(bin)
        .args([
            "match",
            "--engine",
            &format!("cmd={bin}"),
            "--engine",
            &format!("cmd={bin}"),
            "--games",
            "2",
            "--variant",
            "mangala4",
            "--mangala",
            "free-choice",
            "--depth",
            "3",
            "--debug",
            "--pgn",
        ])
        .arg(&pgn)
        .output()
        .unwrap();
    assert!(output.status.success());
    let log = String::from_utf8_lossy(&output.stderr);
    assert!(
        log.contains("setoption name Mangala value free-choice"),
        "{log}"
    );
    let text = std::fs::read_to_string(&pgn).unwrap();
    assert!(text.contains("[Variant \"mangala4 mangala=free-choice\"]"));
    let summary = tuzdik::record::replay_all(&text).unwrap();
    assert_eq!(summary.games, 2);
    let _ = std::fs::remove_dir_all(&dir);
}
