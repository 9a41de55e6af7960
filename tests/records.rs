//! Game records (`tuzdik::record`): the project's sample file replays, reading and writing
//! round-trip, every defective file is refused with an error that names the problem, and no
//! text at all makes the reader or the replay panic.
//!
//! `tests/data/sample.pgn` is written by the ignored test `regenerate_sample_pgn` (seeded
//! pseudo-random legal games); regenerate it with
//!   cargo test --test records -- --ignored regenerate_sample_pgn

use std::path::PathBuf;

use proptest::prelude::*;
use tuzdik::game::GameError;
use tuzdik::record::{Outcome, Record, RecordError, RecordReader, replay_all, replay_reader};
use tuzdik::{Capture, Family, Game, MoveError, PlayError, Side, Sowing, Termination, Variant};

// ---------------------------------------------------------------------------------------------
// Helpers

fn data_path(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests")
        .join("data")
        .join(name)
}

fn read_data(name: &str) -> String {
    let path = data_path(name);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// A small deterministic generator (SplitMix64), so that generated games never change.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// Plays uniformly random legal moves until the game ends or `max_plies` have been played.
fn play_random(game: &mut Game, rng: &mut Rng, max_plies: usize) {
    for _ in 0..max_plies {
        let moves = game.legal_moves();
        if moves.is_empty() {
            break;
        }
        let mv = moves[rng.below(moves.len())];
        game.try_play(mv).expect("a legal move plays");
    }
}

/// Every rule set of the Toguz family: 3 families x tuzdik x sowing x capture.
fn all_variants() -> Vec<Variant> {
    let mut out = Vec::new();
    for family in Family::ALL {
        for tuzdik in [false, true] {
            for sowing in [Sowing::Standard, Sowing::SkipOrigin] {
                for capture in [Capture::Standard, Capture::Singleton] {
                    out.push(
                        Variant::new(family)
                            .with_tuzdik(tuzdik)
                            .with_sowing(sowing)
                            .with_capture(capture),
                    );
                }
            }
        }
    }
    out
}

fn made_a_tuzdik(game: &Game) -> bool {
    game.positions()
        .iter()
        .zip(game.moves())
        .any(|(pos, &mv)| pos.effect_of(mv).made_tuzdik)
}

// ---------------------------------------------------------------------------------------------
// The sample file

/// One game of the sample: its description (the Event tag), how to build it, what it must show.
struct SampleSpec {
    event: &'static str,
    variant: &'static str,
    /// A start position string, or the variant's start.
    fen: Option<&'static str>,
    /// Random plies played from the start position before the game's FEN is taken (for a game
    /// that starts in the middle).
    prelude_plies: usize,
    /// Fullmove number of that FEN.
    fen_fullmove: u32,
    max_plies: usize,
    /// What the finished game must satisfy; seeds are tried in order until one does.
    wanted: fn(&Game) -> bool,
    /// Comments: (ply index, text).
    comments: &'static [(usize, &'static str)],
    leading_comment: Option<&'static str>,
}

fn ended_by(game: &Game, end: Termination) -> bool {
    game.termination() == Some(end)
}

fn sample_specs() -> Vec<SampleSpec> {
    vec![
        SampleSpec {
            event: "togyz, kazan majority with a tuzdik",
            variant: "togyz",
            fen: None,
            prelude_plies: 0,
            fen_fullmove: 1,
            max_plies: 1000,
            wanted: |g| ended_by(g, Termination::KazanMajority) && made_a_tuzdik(g),
            comments: &[(0, "a random game, seeded"), (9, "still level")],
            leading_comment: Some("South moves first"),
        },
        SampleSpec {
            event: "togyz, empty row",
            variant: "togyz",
            fen: None,
            prelude_plies: 0,
            fen_fullmove: 1,
            max_plies: 1000,
            wanted: |g| ended_by(g, Termination::NoStones),
            comments: &[],
            leading_comment: None,
        },
        SampleSpec {
            event: "togyz, both tuzdiks",
            variant: "togyz",
            fen: None,
            prelude_plies: 0,
            fen_fullmove: 1,
            max_plies: 1000,
            wanted: |g| {
                g.termination().is_some()
                    && g.position().tuzdik(Side::South).is_some()
                    && g.position().tuzdik(Side::North).is_some()
            },
            comments: &[(4, "an early capture")],
            leading_comment: None,
        },
        SampleSpec {
            event: "togyz, a draw",
            variant: "togyz",
            fen: None,
            prelude_plies: 0,
            fen_fullmove: 1,
            max_plies: 1000,
            wanted: |g| g.status() == tuzdik::Status::Drawn,
            comments: &[],
            leading_comment: None,
        },
        SampleSpec {
            event: "togyz from a position, North to move",
            variant: "togyz",
            fen: None,
            prelude_plies: 41,
            fen_fullmove: 21,
            max_plies: 1000,
            wanted: |g| g.termination().is_some(),
            comments: &[(0, "North to move at move 21")],
            leading_comment: Some("set up from a position string"),
        },
        SampleSpec {
            event: "togyz, unfinished",
            variant: "togyz",
            fen: None,
            prelude_plies: 0,
            fen_fullmove: 1,
            max_plies: 30,
            wanted: |g| g.termination().is_none() && g.moves().len() == 30,
            comments: &[(29, "adjourned")],
            leading_comment: None,
        },
        SampleSpec {
            event: "togyz, historical sowing",
            variant: "togyz sowing=skip-origin",
            fen: None,
            prelude_plies: 0,
            fen_fullmove: 1,
            max_plies: 1000,
            wanted: |g| g.termination().is_some(),
            comments: &[(0, "the first stone goes into the next hole")],
            leading_comment: None,
        },
        SampleSpec {
            event: "togyz, singleton captures",
            variant: "togyz capture=singleton",
            fen: None,
            prelude_plies: 0,
            fen_fullmove: 1,
            max_plies: 1000,
            wanted: |g| g.termination().is_some(),
            comments: &[],
            leading_comment: None,
        },
        SampleSpec {
            event: "kozdatu",
            variant: "kozdatu",
            fen: None,
            prelude_plies: 0,
            fen_fullmove: 1,
            max_plies: 1000,
            wanted: |g| g.termination().is_some(),
            comments: &[(2, "no tuzdik in kozdatu")],
            leading_comment: None,
        },
        SampleSpec {
            event: "kozdatu with tuzdiks",
            variant: "kozdatu tuzdik=on",
            fen: None,
            prelude_plies: 0,
            fen_fullmove: 1,
            max_plies: 1000,
            wanted: |g| g.termination().is_some() && made_a_tuzdik(g),
            comments: &[],
            leading_comment: None,
        },
        SampleSpec {
            event: "bestemshchi",
            variant: "bestemshchi",
            fen: None,
            prelude_plies: 0,
            fen_fullmove: 1,
            max_plies: 1000,
            wanted: |g| g.termination().is_some(),
            comments: &[],
            leading_comment: None,
        },
        SampleSpec {
            event: "bestemshchi, repetition",
            variant: "bestemshchi",
            fen: Some("1,0,0,0,0/1,0,0,0,0 24 24 w"),
            prelude_plies: 0,
            fen_fullmove: 1,
            max_plies: 1000,
            wanted: |g| ended_by(g, Termination::Repetition),
            comments: &[(9, "the board is as it was: shared 25-25")],
            leading_comment: Some("two lone stones chase each other"),
        },
    ]
}

/// Builds the sample's games (deterministically) and writes them as one file.
fn build_sample() -> String {
    let mut games = Vec::new();
    for (index, spec) in sample_specs().iter().enumerate() {
        let variant: Variant = spec.variant.parse().expect("a known variant");
        let mut found = None;
        for seed in 1..10_000u64 {
            let mut rng = Rng(seed.wrapping_mul(1000).wrapping_add(index as u64));
            let mut game = match spec.fen {
                Some(fen) => Game::from_fen(fen, variant).expect("a valid FEN"),
                None if spec.prelude_plies > 0 => {
                    let mut prelude = Game::new(variant);
                    play_random(&mut prelude, &mut rng, spec.prelude_plies);
                    if prelude.termination().is_some() {
                        continue;
                    }
                    let fen = prelude.position().to_fen(spec.fen_fullmove);
                    Game::from_fen(&fen, variant).expect("a written FEN reads back")
                }
                None => Game::new(variant),
            };
            play_random(&mut game, &mut rng, spec.max_plies);
            if (spec.wanted)(&game) {
                found = Some((seed, game));
                break;
            }
        }
        let (seed, game) = found.unwrap_or_else(|| panic!("no seed gives '{}'", spec.event));
        let tags = [
            ("Event", spec.event.to_string()),
            ("Site", "tuzdik tests/records.rs".to_string()),
            ("Round", (index + 1).to_string()),
            ("South", format!("random mover, seed {seed}")),
            ("North", format!("random mover, seed {seed}")),
        ];
        let mut record = Record::from_game(&game, &tags, None);
        record.leading_comment = spec.leading_comment.map(str::to_string);
        for &(ply, text) in spec.comments {
            record.moves[ply].comment = Some(text.to_string());
        }
        games.push(record.to_string());
    }
    games.join("\n")
}

#[test]
#[ignore = "writes tests/data/sample.pgn"]
fn regenerate_sample_pgn() {
    let text = build_sample();
    std::fs::write(data_path("sample.pgn"), &text).unwrap();
    println!("{}", replay_all(&text).unwrap());
}

#[test]
fn sample_matches_its_generator() {
    // The file is generated, never edited by hand: regenerate it rather than patch it.
    assert_eq!(
        read_data("sample.pgn"),
        build_sample(),
        "tests/data/sample.pgn is stale: run the ignored test regenerate_sample_pgn"
    );
}

#[test]
fn sample_replays_with_the_expected_summary() {
    let summary = replay_all(&read_data("sample.pgn")).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(
        summary.to_string(),
        "12 games, 11 finished, results agree (1244 moves)"
    );
    assert_eq!(
        (summary.games, summary.finished, summary.moves),
        (12, 11, 1244)
    );
}

#[test]
fn sample_covers_every_kind_of_game() {
    let text = read_data("sample.pgn");
    let records = Record::parse_all(&text).unwrap();
    assert_eq!(records.len(), 12);
    let games: Vec<Game> = records.iter().map(|r| r.replay().unwrap()).collect();
    let ends: Vec<Option<Termination>> = games.iter().map(Game::termination).collect();
    use Termination::*;
    assert_eq!(
        ends,
        [
            Some(KazanMajority),
            Some(NoStones),
            Some(NoStones),
            Some(NoStones),
            Some(NoStones),
            None,
            Some(KazanMajority),
            Some(KazanMajority),
            Some(KazanMajority),
            Some(KazanMajority),
            Some(KazanMajority),
            Some(Repetition),
        ]
    );
    let results: Vec<Option<Outcome>> = records.iter().map(|r| r.result).collect();
    use Outcome::*;
    assert_eq!(
        results,
        [
            NorthWins, SouthWins, NorthWins, Draw, NorthWins, Unknown, NorthWins, NorthWins,
            SouthWins, SouthWins, SouthWins, Draw
        ]
        .map(Some)
    );
    for (record, game) in records.iter().zip(&games) {
        assert_eq!(record.tag("Result"), record.result.map(Outcome::token));
        if game.termination().is_some() {
            assert_eq!(record.result, Some(Outcome::from_status(game.status())));
        }
    }
    // Tuzdiks show as X; the first game makes one.
    assert!(made_a_tuzdik(&games[0]));
    assert!(records[0].moves.iter().any(|m| m.text.ends_with('X')));
    assert!(games[2].position().tuzdik(Side::South).is_some());
    assert!(games[2].position().tuzdik(Side::North).is_some());
    // Variants and switches.
    let variants: Vec<String> = games.iter().map(|g| g.variant().to_string()).collect();
    assert_eq!(
        variants,
        [
            "togyz",
            "togyz",
            "togyz",
            "togyz",
            "togyz",
            "togyz",
            "togyz sowing=skip-origin",
            "togyz capture=singleton",
            "kozdatu",
            "kozdatu tuzdik=on",
            "bestemshchi",
            "bestemshchi",
        ]
    );
    assert!(made_a_tuzdik(&games[9]), "kozdatu tuzdik=on makes a tuzdik");
    // The game set up with North to move: SetUp/FEN tags and `21...` numbering.
    let setup = &records[4];
    assert_eq!(setup.tag("SetUp"), Some("1"));
    assert!(setup.tag("FEN").unwrap().ends_with(" b 21"));
    assert_eq!(games[4].start().side_to_move(), Side::North);
    assert_eq!(games[4].start_fullmove(), 21);
    assert!(text.contains("{set up from a position string} 21... "));
    // The repetition: ten plies, shared 25-25.
    assert_eq!(games[11].moves().len(), 10);
    assert_eq!(games[11].final_scores(), Some([25, 25]));
    // Comments, before the first move and after moves.
    assert_eq!(
        records[0].leading_comment.as_deref(),
        Some("South moves first")
    );
    assert_eq!(
        records[0].moves[0].comment.as_deref(),
        Some("a random game, seeded")
    );
    assert_eq!(records[5].moves[29].comment.as_deref(), Some("adjourned"));
    let comments = records
        .iter()
        .flat_map(|r| &r.moves)
        .filter(|m| m.comment.is_some())
        .count();
    assert_eq!(comments, 8);
}

#[test]
fn sample_reads_writes_and_reads_back_the_same() {
    let text = read_data("sample.pgn");
    let records = Record::parse_all(&text).unwrap();
    // Writing every record again gives the file, byte for byte.
    let written: Vec<String> = records.iter().map(Record::to_string).collect();
    assert_eq!(written.join("\n"), text);
    for (record, again) in records.iter().zip(&written) {
        let back = Record::parse_all(again).unwrap();
        assert_eq!(back.len(), 1);
        let back = &back[0];
        assert_eq!(back.tags, record.tags);
        assert_eq!(back.leading_comment, record.leading_comment);
        assert_eq!(back.result, record.result);
        let texts = |r: &Record| -> Vec<(String, Option<String>)> {
            r.moves
                .iter()
                .map(|m| (m.text.clone(), m.comment.clone()))
                .collect()
        };
        assert_eq!(texts(back), texts(record));
        let (a, b) = (record.replay().unwrap(), back.replay().unwrap());
        assert_eq!(a.positions(), b.positions());
        assert_eq!(a.moves(), b.moves());
        assert_eq!(a.start_fullmove(), b.start_fullmove());
        // A record written from the replayed game gives the same game too.
        let fresh = Record::from_game(&a, &[], None);
        let c = Record::parse_all(&fresh.to_string()).unwrap()[0]
            .replay()
            .unwrap();
        assert_eq!(c.positions(), a.positions());
    }
}

#[test]
fn sample_with_crlf_and_reflowed_moves_replays_the_same() {
    let text = read_data("sample.pgn");
    let expected = replay_all(&text).unwrap();
    assert_eq!(replay_all(&text.replace('\n', "\r\n")).unwrap(), expected);
    // Moves one per line, numbers glued to their moves (`12.87`).
    let reflowed: String = text
        .lines()
        .map(|line| {
            if line.starts_with('[') {
                format!("{line}\n")
            } else {
                line.replace(". ", ".").replace(' ', "\n") + "\n"
            }
        })
        .collect();
    let records = Record::parse_all(&reflowed).unwrap();
    let original = Record::parse_all(&text).unwrap();
    assert_eq!(records.len(), original.len());
    for (a, b) in records.iter().zip(&original) {
        assert_eq!(
            a.replay().unwrap().positions(),
            b.replay().unwrap().positions()
        );
    }
}

#[test]
fn the_line_of_every_move_is_its_line_in_the_file() {
    let text = read_data("sample.pgn");
    let lines: Vec<&str> = text.lines().collect();
    for record in Record::parse_all(&text).unwrap() {
        assert!(lines[record.line - 1].starts_with("[Event "));
        for mv in &record.moves {
            let line = lines[mv.line - 1];
            assert!(
                line.split_whitespace().any(|word| word == mv.text),
                "'{}' is not on line {}: {line}",
                mv.text,
                mv.line
            );
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Defective files: each has one defect, and the error names it.

/// Replays a file of `tests/data/bad/` and returns the failure (the file must fail).
fn bad(name: &str) -> tuzdik::record::ReplayFailure {
    let text = read_data(&format!("bad/{name}"));
    match replay_all(&text) {
        Ok(summary) => panic!("{name} replays ({summary})"),
        Err(failure) => failure,
    }
}

fn assert_message(failure: &tuzdik::record::ReplayFailure, parts: &[&str]) {
    let message = failure.to_string();
    for part in parts {
        assert!(message.contains(part), "'{part}' missing from: {message}");
    }
}

#[test]
fn bad_wrong_landing_hole() {
    let f = bad("wrong_landing.pgn");
    assert_eq!((f.game, f.line), (2, 8));
    assert_eq!(f.event.as_deref(), Some("wrong landing hole"));
    assert!(
        matches!(
            &f.error,
            RecordError::Move {
                number: 1,
                side: Side::North,
                line: 13,
                error: GameError::Move(MoveError::Landing {
                    written: 6,
                    actual: 7,
                    ..
                }),
                ..
            }
        ),
        "{:?}",
        f.error
    );
    assert_message(
        &f,
        &["game 2", "move 1... '86'", "line 13", "hole 6", "hole 7"],
    );
}

#[test]
fn bad_wrong_kazan() {
    let f = bad("wrong_kazan.pgn");
    assert_eq!(f.game, 1);
    assert!(
        matches!(
            &f.error,
            RecordError::Move {
                number: 2,
                side: Side::South,
                line: 5,
                error: GameError::Move(MoveError::Kazan {
                    written: 11,
                    actual: 10,
                    ..
                }),
                ..
            }
        ),
        "{:?}",
        f.error
    );
    assert_message(&f, &["game 1", "move 2. '34(11)'", "line 5", "11", "10"]);
}

#[test]
fn bad_missing_tuzdik_mark() {
    let f = bad("missing_tuzdik_mark.pgn");
    assert_eq!(f.game, 1);
    assert!(
        matches!(
            &f.error,
            RecordError::Move {
                number: 2,
                side: Side::North,
                line: 5,
                error: GameError::Move(MoveError::TuzdikMark { written: false, .. }),
                ..
            }
        ),
        "{:?}",
        f.error
    );
    assert_message(
        &f,
        &["game 1", "move 2... '11'", "line 5", "lacks a tuzdik mark"],
    );
}

#[test]
fn bad_spurious_tuzdik_mark() {
    let f = bad("spurious_tuzdik_mark.pgn");
    assert_eq!((f.game, f.line), (2, 8));
    assert!(
        matches!(
            &f.error,
            RecordError::Move {
                number: 1,
                side: Side::North,
                line: 12,
                error: GameError::Move(MoveError::TuzdikMark { written: true, .. }),
                ..
            }
        ),
        "{:?}",
        f.error
    );
    assert_message(
        &f,
        &["game 2", "move 1... '76X'", "line 12", "makes no tuzdik"],
    );
}

#[test]
fn bad_illegal_move_from_an_empty_hole() {
    let f = bad("illegal_move.pgn");
    assert_eq!(f.game, 1);
    assert!(
        matches!(
            &f.error,
            RecordError::Move {
                number: 2,
                side: Side::South,
                line: 7,
                error: GameError::Move(MoveError::Illegal {
                    reason: PlayError::Empty { hole: 7 },
                    ..
                }),
                ..
            }
        ),
        "{:?}",
        f.error
    );
    assert_message(&f, &["game 1", "move 2. '7'", "line 7", "hole 7 is empty"]);
}

#[test]
fn bad_move_after_the_end() {
    let f = bad("move_after_end.pgn");
    assert_eq!(f.game, 1);
    assert!(
        matches!(
            &f.error,
            RecordError::Move {
                number: 1,
                side: Side::North,
                line: 7,
                error: GameError::Over(Termination::KazanMajority),
                ..
            }
        ),
        "{:?}",
        f.error
    );
    assert_message(
        &f,
        &["game 1", "move 1... '9'", "line 7", "the game is over"],
    );
}

#[test]
fn bad_result_against_the_rules() {
    let f = bad("wrong_result.pgn");
    assert_eq!((f.game, f.line), (2, 8));
    assert_eq!(
        f.error,
        RecordError::Result {
            written: Outcome::NorthWins,
            actual: Outcome::SouthWins,
            end: Termination::KazanMajority,
        }
    );
    assert_message(
        &f,
        &["game 2", "line 8", "result 0-1 is recorded", "ended 1-0"],
    );
}

#[test]
fn bad_result_tag_against_the_final_token() {
    let f = bad("result_tag_mismatch.pgn");
    assert_eq!(f.game, 1);
    assert_eq!(
        f.error,
        RecordError::ResultMismatch {
            tag: Outcome::Unknown,
            token: Outcome::SouthWins,
        }
    );
    assert_message(&f, &["game 1", "Result tag says *", "end with 1-0"]);
}

// Reading errors stop the whole file before any game is replayed, so they name the line only.

#[test]
fn bad_malformed_tag() {
    let f = bad("malformed_tag.pgn");
    assert!(
        matches!(&f.error, RecordError::Tag { line: 8, text } if text == "[Event \"malformed tag]"),
        "{:?}",
        f.error
    );
    assert_message(&f, &["line 8", "malformed tag"]);
    assert!(matches!(
        Record::parse_all(&read_data("bad/malformed_tag.pgn")),
        Err(RecordError::Tag { line: 8, .. })
    ));
}

#[test]
fn bad_unclosed_comment() {
    let f = bad("unclosed_comment.pgn");
    assert_eq!(f.error, RecordError::OpenComment { line: 11 });
    assert_message(&f, &["line 11", "comment is never closed"]);
}

#[test]
fn bad_garbage_token() {
    let f = bad("garbage_token.pgn");
    assert_eq!(
        f.error,
        RecordError::Token {
            line: 11,
            text: "e4".to_string()
        }
    );
    assert_message(&f, &["line 11", "'e4'"]);
}

/// `[Result "2-0"]` was taken as no Result tag at all.
#[test]
fn bad_result_tag_value() {
    let f = bad("result_tag_not_a_result.pgn");
    assert_eq!((f.game, f.line), (2, 7));
    assert_eq!(
        f.error,
        RecordError::ResultTag {
            line: 9,
            value: "2-0".to_string()
        }
    );
    assert_message(&f, &["game 2", "line 9", "Result tag '2-0'"]);
}

/// A `1-0` in the middle of the moves was skipped, and the moves after it replayed.
#[test]
fn bad_moves_after_the_result() {
    let f = bad("moves_after_the_result.pgn");
    assert_eq!(f.game, 1);
    assert_eq!(
        f.error,
        RecordError::AfterResult {
            line: 5,
            text: "2.".to_string(),
            result: Outcome::SouthWins
        }
    );
    assert_message(&f, &["game 1", "line 5", "'2.' after the result 1-0"]);
}

/// An unclosed `{` swallowed the next game's tags and moves up to a `}` in it, silently.
#[test]
fn bad_comment_running_into_the_next_game() {
    let f = bad("comment_runs_into_next_game.pgn");
    assert_eq!(f.game, 1);
    assert_eq!(
        f.error,
        RecordError::CommentIntoTag {
            line: 5,
            tag_line: 7
        }
    );
    assert_message(&f, &["game 1", "line 5", "before the tag on line 7"]);
}

/// A file that starts with a UTF-8 byte order mark (as some Windows editors write) was
/// refused at its first tag.
#[test]
fn a_byte_order_mark_is_skipped() {
    let text = read_data("sample.pgn");
    let expected = replay_all(&text).unwrap();
    let marked = format!("\u{feff}{text}");
    assert_eq!(replay_all(&marked).unwrap(), expected);
    // Only at the start of the file: elsewhere it is a stray character.
    let inside = text.replacen("\n1.", "\n\u{feff}1.", 1);
    assert!(replay_all(&inside).is_err());
}

/// Reading went through the whole file before the first game replayed (872 MB for a 51 MB
/// file). A reader that fails after the first game shows the first game comes out before the
/// rest is read.
#[test]
fn records_are_read_one_game_at_a_time() {
    struct Broken;
    impl std::io::Read for Broken {
        fn read(&mut self, _: &mut [u8]) -> std::io::Result<usize> {
            Err(std::io::Error::other("the disk is gone"))
        }
    }
    let first = "[Event \"one\"]\n\n1. 87(10) 87(10) *\n\n[Event \"two\"]\n";
    let input = std::io::BufReader::new(std::io::Read::chain(first.as_bytes(), Broken));
    let mut reader = RecordReader::new(input);
    let record = reader.next().unwrap().unwrap();
    assert_eq!(record.tag("Event"), Some("one"));
    assert_eq!(record.replay().unwrap().moves().len(), 2);
    let failure = reader.next().unwrap().unwrap_err();
    assert_eq!(failure.game, 2);
    assert_eq!(failure.event.as_deref(), Some("two"));
    assert!(
        matches!(&failure.error, RecordError::Read { line: 6, error } if error.contains("the disk is gone")),
        "{failure}"
    );
    assert!(reader.next().is_none());
    // The same through `replay_reader`: the failure names the game it was reading.
    let input = std::io::BufReader::new(std::io::Read::chain(first.as_bytes(), Broken));
    let failure = replay_reader(input).unwrap_err();
    assert_eq!((failure.game, failure.line), (2, 5));
}

/// A line that is not UTF-8 is named by its line, in the game being read when it came.
#[test]
fn a_line_that_is_not_utf8_is_named() {
    let mut bytes = read_data("sample.pgn").into_bytes();
    let games = replay_all(&String::from_utf8(bytes.clone()).unwrap())
        .unwrap()
        .games;
    let lines = bytes.iter().filter(|&&b| b == b'\n').count();
    bytes.extend_from_slice(b"[Event \"\xff\"]\n");
    let failure = replay_reader(bytes.as_slice()).unwrap_err();
    assert_eq!(failure.game, games);
    assert_eq!(failure.error, RecordError::NotUtf8 { line: lines + 1 });
}

#[test]
fn every_bad_file_is_tested_and_has_a_good_twin() {
    // Each bad file has one defect: the games before it replay, and the same file with the
    // defect repaired replays completely.
    let fixes: [(&str, &str, &str); 14] = [
        ("wrong_landing.pgn", " 86 ", " 87(10) "),
        ("wrong_kazan.pgn", "34(11)", "34(10)"),
        ("missing_tuzdik_mark.pgn", "34(10) 11 ", "34(10) 11X "),
        ("spurious_tuzdik_mark.pgn", "76X", "76"),
        ("illegal_move.pgn", "2. 7 *", "2. 6 *"),
        ("move_after_end.pgn", "} 9 1-0", "} 1-0"),
        ("wrong_result.pgn", "0-1", "1-0"),
        (
            "result_tag_mismatch.pgn",
            "[Result \"*\"]",
            "[Result \"1-0\"]",
        ),
        ("malformed_tag.pgn", "malformed tag]", "malformed tag\"]"),
        ("unclosed_comment.pgn", "never ends ", "never ends} "),
        ("garbage_token.pgn", "e4", "22"),
        ("result_tag_not_a_result.pgn", "\"2-0\"", "\"*\""),
        ("moves_after_the_result.pgn", " 1-0 ", " "),
        (
            "comment_runs_into_next_game.pgn",
            "left open ",
            "left open} ",
        ),
    ];
    let mut names: Vec<String> = std::fs::read_dir(data_path("bad"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    let mut listed: Vec<String> = fixes.iter().map(|(n, _, _)| n.to_string()).collect();
    listed.sort();
    assert_eq!(names, listed);
    for (name, from, to) in fixes {
        let text = read_data(&format!("bad/{name}"));
        assert!(replay_all(&text).is_err(), "{name}");
        assert!(text.contains(from), "{name}: '{from}'");
        let repaired = text.replace(from, to);
        replay_all(&repaired).unwrap_or_else(|e| panic!("{name} repaired: {e}"));
    }
}

// ---------------------------------------------------------------------------------------------
// Properties

/// A random game of `variant`: from the start, or (with `setup`) from the position reached
/// after some random plies, taken as a FEN with the given fullmove number.
fn random_game(variant: Variant, seed: u64, plies: usize, setup: Option<(usize, u32)>) -> Game {
    let mut rng = Rng(seed);
    let mut game = match setup {
        None => Game::new(variant),
        Some((prelude_plies, fullmove)) => {
            let mut prelude = Game::new(variant);
            play_random(&mut prelude, &mut rng, prelude_plies);
            let fen = prelude.position().to_fen(fullmove);
            Game::from_fen(&fen, variant).unwrap_or_else(|e| panic!("{fen}: {e}"))
        }
    };
    play_random(&mut game, &mut rng, plies);
    game
}

fn comment_text() -> impl Strategy<Value = String> {
    "[a-zA-Z0-9 ,.!?'()-]{0,30}".prop_map(|s| s.trim().to_string())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn written_random_games_replay_to_the_same_positions(
        variant in prop::sample::select(all_variants()),
        seed in any::<u64>(),
        plies in 0..400usize,
        setup in proptest::option::of((0..80usize, 1..300u32)),
        event in "[ -~]{0,24}",
        comments in proptest::collection::vec((any::<prop::sample::Index>(), comment_text()), 0..4),
        leading in proptest::option::of(comment_text()),
    ) {
        let game = random_game(variant, seed, plies, setup);
        let mut record = Record::from_game(&game, &[("Event", event.clone())], None);
        record.leading_comment = leading;
        if !record.moves.is_empty() {
            for (index, text) in comments {
                let at = index.index(record.moves.len());
                record.moves[at].comment = Some(text);
            }
        }
        let text = record.to_string();
        let back = Record::parse_all(&text).map_err(|e| TestCaseError::fail(format!("{e}\n{text}")))?;
        prop_assert_eq!(back.len(), 1, "{}", text);
        let back = &back[0];
        prop_assert_eq!(back.tag("Event"), Some(event.as_str()));
        prop_assert_eq!(&back.tags, &record.tags);
        prop_assert_eq!(&back.leading_comment, &record.leading_comment);
        prop_assert_eq!(back.result, record.result);
        let comments_of = |r: &Record| r.moves.iter().map(|m| m.comment.clone()).collect::<Vec<_>>();
        prop_assert_eq!(comments_of(back), comments_of(&record));
        let replayed = back.replay().map_err(|e| TestCaseError::fail(format!("{e}\n{text}")))?;
        prop_assert_eq!(replayed.positions(), game.positions());
        prop_assert_eq!(replayed.moves(), game.moves());
        prop_assert_eq!(replayed.start_fullmove(), game.start_fullmove());
        prop_assert_eq!(replayed.variant(), variant);
        prop_assert_eq!(back.result, Some(Outcome::from_status(game.status())));
        // Writing the read record again gives the same text.
        prop_assert_eq!(back.to_string(), text);
    }

    #[test]
    fn files_of_several_games_summarise_correctly(
        games in proptest::collection::vec(
            (
                prop::sample::select(all_variants()),
                any::<u64>(),
                0..300usize,
                proptest::option::of((0..40usize, 1..50u32)),
            ),
            1..5,
        ),
    ) {
        let games: Vec<Game> = games
            .into_iter()
            .map(|(variant, seed, plies, setup)| random_game(variant, seed, plies, setup))
            .collect();
        let text: Vec<String> = games
            .iter()
            .enumerate()
            .map(|(i, g)| Record::from_game(g, &[("Event", format!("game {}", i + 1))], None).to_string())
            .collect();
        let text = text.join("\n");
        let summary = replay_all(&text).map_err(|e| TestCaseError::fail(format!("{e}\n{text}")))?;
        prop_assert_eq!(summary.games, games.len());
        prop_assert_eq!(summary.moves, games.iter().map(|g| g.moves().len()).sum::<usize>());
        prop_assert_eq!(
            summary.finished,
            games.iter().filter(|g| g.termination().is_some()).count()
        );
    }

    #[test]
    fn any_text_reads_and_replays_without_panicking(text in "\\PC{0,400}") {
        exercise(&text);
    }

    #[test]
    fn any_bytes_read_and_replay_without_panicking(bytes in proptest::collection::vec(any::<u8>(), 0..400)) {
        exercise(&String::from_utf8_lossy(&bytes));
    }

    #[test]
    fn record_like_soup_reads_and_replays_without_panicking(
        tags in proptest::collection::vec(
            (
                prop::sample::select(vec!["Event", "Result", "Variant", "FEN", "SetUp", "X y"]),
                "[ -~]{0,40}",
            ),
            0..4,
        ),
        fen in "[0-9X,/ wb]{0,60}",
        variant in "(togyz|kozdatu|bestemshchi|chess)( (tuzdik|sowing|capture)=(on|off|skip-origin|singleton|x)){0,2}",
        moves in "[0-9Xx(){}.*/ \n-]{0,300}",
    ) {
        let mut text = String::new();
        for (name, value) in &tags {
            text.push_str(&format!("[{name} \"{value}\"]\n"));
        }
        text.push_str(&format!("[Variant \"{variant}\"]\n[FEN \"{fen}\"]\n\n{moves}\n"));
        exercise(&text);
        // The same moves from the real start positions of every family.
        for family in ["togyz", "kozdatu", "bestemshchi"] {
            exercise(&format!("[Variant \"{family}\"]\n\n{moves}\n"));
        }
    }

    #[test]
    fn damaged_sample_reads_and_replays_without_panicking(
        edits in proptest::collection::vec(
            (any::<prop::sample::Index>(), 0..3u8, prop::sample::select(
                "0123456789Xx(){}[].*\"/- \nab".chars().collect::<Vec<_>>(),
            )),
            1..8,
        ),
    ) {
        let mut chars: Vec<char> = read_data("sample.pgn").chars().collect();
        for (index, kind, c) in edits {
            let at = index.index(chars.len());
            match kind {
                0 => { chars.remove(at); }
                1 => chars.insert(at, c),
                _ => chars[at] = c,
            }
        }
        exercise(&chars.into_iter().collect::<String>());
    }
}

/// Reads, replays and writes `text` every way the library allows; only panics count.
fn exercise(text: &str) {
    let _ = replay_all(text);
    if let Ok(records) = Record::parse_all(text) {
        for record in records {
            let _ = record.replay();
            let _ = record.played_moves();
            let _ = record.to_string();
        }
    }
}
