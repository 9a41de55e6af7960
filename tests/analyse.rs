//! `tuzdik analyse` through the real binary: the JSON against its documented schema and the
//! PGN, bad games skipped, the SVG pictures, and progress kept off the outputs.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use serde_json::Value;
use tuzdik::Variant;
use tuzdik::record::Record;

const BIN: &str = env!("CARGO_BIN_EXE_tuzdik");

/// Two short games with ratings; the second has a comment to keep.
const GAMES: &str = "[Event \"first\"]\n[White \"Ann\"]\n[Black \"Bob\"]\n[WhiteElo \"1450\"]\n\
[BlackElo \"1180\"]\n[Result \"*\"]\n\n1. 87(10) 87(10) 2. 22 {a note} 99(22) 3. 1 *\n\n\
[Event \"second\"]\n[Result \"*\"]\n\n1. 76 *\n";

fn run(args: &[&str]) -> (bool, String, String) {
    let output = Command::new(BIN)
        .args(args)
        .stdin(Stdio::null())
        .output()
        .expect("run tuzdik");
    (
        output.status.success(),
        String::from_utf8_lossy(&output.stdout).into_owned(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

/// A fresh directory for one test.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("tuzdik-analyse-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn path(dir: &Path, name: &str) -> String {
    dir.join(name).to_str().unwrap().to_string()
}

fn number(value: &Value) -> f64 {
    value
        .as_f64()
        .unwrap_or_else(|| panic!("not a number: {value}"))
}

/// A score object's South-view value in stones, as the PGN comments show it.
fn shown_score(score: &Value) -> String {
    let object = score.as_object().unwrap();
    assert_eq!(object.len(), 1, "{score}");
    let (kind, value) = object.iter().next().unwrap();
    let value = value.as_i64().unwrap();
    let stones = |cp: i64| {
        let sign = if cp < 0 { '-' } else { '+' };
        format!("{sign}{}.{:02}", cp.abs() / 100, cp.abs() % 100)
    };
    match kind.as_str() {
        "cp" => stones(value),
        "final" => format!("{} final", stones(value)),
        "mate" => format!("{}M{}", if value < 0 { '-' } else { '+' }, value.abs()),
        other => panic!("unknown score kind {other}"),
    }
}

fn check_wdl(wdl: &Value) {
    let parts: Vec<u64> = wdl
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_u64().unwrap())
        .collect();
    assert_eq!(parts.len(), 3);
    assert_eq!(parts.iter().sum::<u64>(), 1000, "{wdl}");
}

#[test]
fn the_json_follows_its_schema_and_agrees_with_the_pgn() {
    let dir = scratch("schema");
    let input = path(&dir, "in.pgn");
    std::fs::write(&input, GAMES).unwrap();
    let (json, pgn) = (path(&dir, "out.json"), path(&dir, "out.pgn"));
    let (ok, stdout, stderr) = run(&[
        "analyse", &input, "--depth", "4", "--lines", "3", "--json", &json, "--out", &pgn,
    ]);
    assert!(ok, "{stdout}{stderr}");
    assert!(stdout.is_empty(), "the outputs went to files: {stdout}");
    let document: Value = serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    assert_eq!(document["format"], "tuzdik-analyse");
    assert_eq!(document["version"], 1);
    assert_eq!(document["settings"]["depth"], 4);
    assert_eq!(document["settings"]["lines"], 3);
    assert_eq!(document["settings"]["nodes"], Value::Null);
    assert_eq!(document["skipped"].as_array().unwrap().len(), 0);
    let records = Record::parse_all(&std::fs::read_to_string(&pgn).unwrap()).unwrap();
    let games = document["games"].as_array().unwrap();
    assert_eq!(games.len(), 2);
    assert_eq!(records.len(), 2);
    for (game, record) in games.iter().zip(&records) {
        assert_eq!(game["tags"]["Event"], record.tag("Event").unwrap());
        assert_eq!(game["variant"], "togyz");
        let moves = game["moves"].as_array().unwrap();
        assert_eq!(moves.len(), record.moves.len());
        for side in ["south", "north"] {
            let player = &game["players"][side];
            let own: Vec<&Value> = moves.iter().filter(|mv| mv["side"] == side).collect();
            assert_eq!(player["moves"].as_u64().unwrap() as usize, own.len());
            if own.is_empty() {
                continue;
            }
            let mean = |field: &str| {
                own.iter().map(|mv| number(&mv[field])).sum::<f64>() / own.len() as f64
            };
            assert!((number(&player["accuracy"]) - mean("accuracy")).abs() < 1e-3);
            assert!((number(&player["average_loss"]) - mean("loss")).abs() < 1e-3);
            for (class, field) in [("blunder", "blunders"), ("mistake", "mistakes")] {
                let count = own.iter().filter(|mv| mv["class"] == class).count();
                assert_eq!(player[field].as_u64().unwrap() as usize, count);
            }
        }
        let replayed = record.replay().unwrap();
        for (index, (mv, recorded)) in moves.iter().zip(&record.moves).enumerate() {
            assert_eq!(mv["ply"].as_u64().unwrap() as usize, index + 1);
            // The JSON writes PlayOK's long form of the recorded move.
            let before = replayed.positions()[index];
            let parsed = before.parse_move(mv["move"].as_str().unwrap()).unwrap();
            assert_eq!(parsed, replayed.moves()[index], "{}", recorded.text);
            assert_eq!(mv["side"], ["south", "north"][index % 2]);
            check_wdl(&mv["wdl"]);
            // The PGN's comment starts with the same score at the same depth.
            let comment = recorded.comment.as_deref().unwrap();
            let comment = comment.rsplit('[').next().unwrap();
            assert!(
                comment.starts_with(&shown_score(&mv["score"])),
                "{comment} vs {mv}"
            );
            let (before, after) = (
                number(&mv["expectation_before"]),
                number(&mv["expectation_after"]),
            );
            let loss = number(&mv["loss"]);
            let lines = mv["lines"].as_array().unwrap();
            assert!(!lines.is_empty() && lines.len() <= 3, "{mv}");
            assert_eq!(mv["best"], lines[0]);
            if lines[0]["move"] == mv["move"] {
                assert_eq!(loss, 0.0);
            } else {
                assert!((loss - (before - after).max(0.0)).abs() < 2e-4, "{mv}");
            }
            let expected_class = if loss >= 0.15 {
                "blunder"
            } else if loss >= 0.10 {
                "mistake"
            } else if loss >= 0.05 {
                "inaccuracy"
            } else {
                ""
            };
            assert_eq!(mv["class"].as_str().unwrap_or(""), expected_class);
            let accuracy = (103.1668 * (-0.04354 * loss * 100.0).exp() - 3.1669).clamp(0.0, 100.0);
            assert!((number(&mv["accuracy"]) - accuracy).abs() < 0.01, "{mv}");
            for line in lines {
                check_wdl(&line["wdl"]);
                assert_eq!(line["move"], line["pv"][0]);
            }
        }
    }
    let first = &games[0];
    assert_eq!(first["players"]["south"]["name"], "Ann");
    assert_eq!(first["players"]["south"]["elo"], 1450);
    assert_eq!(first["players"]["north"]["elo"], 1180);
    assert_eq!(games[1]["players"]["north"]["elo"], Value::Null);
    assert!(
        records[0].moves[2]
            .comment
            .as_deref()
            .unwrap()
            .starts_with("a note [")
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_bad_game_is_reported_and_skipped_and_the_exit_status_says_so() {
    let dir = scratch("bad");
    let input = path(&dir, "in.pgn");
    let text = format!(
        "{GAMES}\n[Event \"unreadable\"]\n\n1. 87(10) zz *\n\n[Event \"illegal\"]\n\n1. 87(10) 87(10) 2. 87(10) *\n\n{GAMES}"
    );
    std::fs::write(&input, text).unwrap();
    let (json, pgn) = (path(&dir, "out.json"), path(&dir, "out.pgn"));
    let (ok, stdout, stderr) = run(&[
        "analyse", &input, "--nodes", "2000", "--json", &json, "--out", &pgn,
    ]);
    assert!(!ok, "the exit status tells of the skipped games: {stderr}");
    assert!(stdout.is_empty(), "{stdout}");
    assert!(
        stderr.contains("game 3 (line 15): line 17: unexpected 'zz' in the moves: skipped"),
        "{stderr}"
    );
    assert!(stderr.contains("game 4 (line 19): "), "{stderr}");
    assert!(
        stderr.contains("2 of 6 games skipped (game 3, game 4)"),
        "{stderr}"
    );
    for game in [1, 2, 5, 6] {
        assert!(
            stderr.contains(&format!("game {game}: South accuracy")),
            "{stderr}"
        );
    }
    let records = Record::parse_all(&std::fs::read_to_string(&pgn).unwrap()).unwrap();
    let events: Vec<&str> = records.iter().map(|r| r.tag("Event").unwrap()).collect();
    assert_eq!(events, ["first", "second", "first", "second"]);
    let document: Value = serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    let numbers: Vec<u64> = document["games"]
        .as_array()
        .unwrap()
        .iter()
        .map(|game| game["game"].as_u64().unwrap())
        .collect();
    assert_eq!(numbers, [1, 2, 5, 6]);
    let skipped = document["skipped"].as_array().unwrap();
    assert_eq!(skipped.len(), 2);
    assert_eq!(skipped[0]["game"], 3);
    assert_eq!(skipped[0]["line"], 15);
    assert_eq!(skipped[1]["game"], 4);
    assert!(
        skipped[1]["error"]
            .as_str()
            .unwrap()
            .contains("says the last stone lands in hole 7"),
        "{skipped:?}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn progress_goes_to_stderr_and_stdout_holds_only_the_output() {
    let dir = scratch("stdout");
    let input = path(&dir, "in.pgn");
    std::fs::write(&input, GAMES).unwrap();
    let (ok, stdout, stderr) = run(&["analyse", &input, "--nodes", "2000"]);
    assert!(ok, "{stderr}");
    let records = Record::parse_all(&stdout).unwrap();
    assert_eq!(records.len(), 2);
    assert!(!stdout.contains("positions"), "{stdout}");
    // Not a terminal: plain lines, with the positions done.
    assert!(stderr.contains("game 2: South accuracy"), "{stderr}");
    assert!(stderr.contains("[8/8 positions, "), "{stderr}");
    // `--json -`: stdout is the JSON alone, the PGN written nowhere unless --out says so.
    let (ok, stdout, stderr) = run(&["analyse", &input, "--nodes", "2000", "--json", "-"]);
    assert!(ok, "{stderr}");
    let document: Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(document["games"].as_array().unwrap().len(), 2);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn svg_pictures_are_written_for_each_game_and_flagged_move_of_every_variant() {
    let dir = scratch("svg");
    let input = path(&dir, "in.pgn");
    // Random games of each variant, long enough to hold slips at a shallow depth.
    let mut text = String::new();
    let variants = [
        Variant::TOGYZ,
        "kozdatu tuzdik=on".parse().unwrap(),
        "bestemshchi tuzdik=on".parse().unwrap(),
        "mangala4".parse().unwrap(),
    ];
    let mut rng = tuzdik::rng::SplitMix::new(7);
    for variant in variants {
        let mut game = tuzdik::Game::new(variant);
        while game.termination().is_none() && game.moves().len() < 30 {
            let moves = game.legal_moves();
            game.try_play(moves[rng.below(moves.len())]).unwrap();
        }
        let record = Record::from_game(&game, &[("Event", variant.to_string())], None);
        text.push_str(&format!("{record}\n"));
    }
    std::fs::write(&input, text).unwrap();
    let (json, pictures) = (path(&dir, "out.json"), dir.join("pictures"));
    let (ok, _, stderr) = run(&[
        "analyse",
        &input,
        "--depth",
        "3",
        "--json",
        &json,
        "--out",
        &path(&dir, "out.pgn"),
        "--svg",
        pictures.to_str().unwrap(),
    ]);
    assert!(ok, "{stderr}");
    let document: Value = serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    let mut boards = 0;
    for game in document["games"].as_array().unwrap() {
        let number = game["game"].as_u64().unwrap();
        let graph = pictures.join(format!("game-{number:03}-graph.svg"));
        let svg = std::fs::read_to_string(&graph).unwrap();
        roxmltree::Document::parse(&svg).unwrap_or_else(|e| panic!("{graph:?}: {e}"));
        for mv in game["moves"].as_array().unwrap() {
            let ply = mv["ply"].as_u64().unwrap();
            let board = pictures.join(format!("game-{number:03}-ply-{ply:03}.svg"));
            assert_eq!(board.exists(), !mv["class"].is_null(), "{board:?}");
            if board.exists() {
                let svg = std::fs::read_to_string(&board).unwrap();
                roxmltree::Document::parse(&svg).unwrap_or_else(|e| panic!("{board:?}: {e}"));
                assert!(svg.contains(mv["move"].as_str().unwrap()), "{board:?}");
                boards += 1;
            }
        }
    }
    assert!(boards > 0, "random moves make slips: {stderr}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn bad_settings_are_refused_before_any_analysis() {
    for (flag, value, says) in [
        ("--nodes", "0", "--nodes must be at least 1"),
        ("--lines", "0", "--lines must be at least 1"),
        ("--threads", "0", "--threads 0"),
        ("--hash", "0", "--hash 0"),
        ("--movetime", "0", "--movetime must be at least 1 ms"),
        (
            "--svg",
            "/proc/nonexistent/pictures",
            "--svg /proc/nonexistent/pictures",
        ),
        (
            "--json",
            "/proc/nonexistent/x.json",
            "--json /proc/nonexistent/x.json",
        ),
    ] {
        let (ok, _, stderr) = run(&["analyse", "tests/data/sample.pgn", flag, value]);
        assert!(!ok, "{flag} {value}");
        assert!(stderr.contains(says), "{flag} {value}: {stderr}");
        assert!(!stderr.contains("game 1:"), "it analysed first: {stderr}");
    }
}

/// On a terminal (a pseudo-terminal from util-linux's `script`) the bar is drawn on stderr and
/// cleared before the PGN is written to stdout, which then reads whole.
#[test]
fn on_a_terminal_a_bar_is_drawn_and_cleared_before_the_output() {
    let dir = scratch("terminal");
    let input = path(&dir, "in.pgn");
    std::fs::write(&input, GAMES).unwrap();
    let command = format!("{BIN} analyse {input} --nodes 2000");
    let output = Command::new("script")
        .args(["-qec", &command, "/dev/null"])
        .stdin(Stdio::null())
        .output()
        .expect("util-linux's script");
    assert!(output.status.success(), "{output:?}");
    let screen = String::from_utf8_lossy(&output.stdout).replace("\r\n", "\n");
    assert!(screen.contains("/8 positions, game 1/2"), "{screen}");
    assert!(screen.contains("game 2: South accuracy"), "{screen}");
    let pgn_start = screen.find("[Event \"first\"]").expect("the PGN");
    let pgn = &screen[pgn_start..];
    assert!(
        !pgn.contains("positions"),
        "the bar ran into the PGN: {pgn}"
    );
    let records = Record::parse_all(pgn).unwrap();
    assert_eq!(records.len(), 2);
    let _ = std::fs::remove_dir_all(&dir);
}
