//! `tuzdik match`, `play` and `analyse` through the real binary, with misbehaving engines
//! (tests/engines/misbehave.py wraps the real engine and crashes, plays illegal moves, goes
//! silent, answers late or prints garbage at a chosen move). Every child runs under a
//! timeout, so a hang fails the test instead of blocking it.

use std::collections::HashSet;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use tuzdik::record::{Outcome, Record};
use tuzdik::search::{Engine, Limits, Score};
use tuzdik::{Game, Variant};

const BIN: &str = env!("CARGO_BIN_EXE_tuzdik");
const TIMEOUT: Duration = Duration::from_secs(120);

fn tuzdik(args: &[&str]) -> Command {
    let mut command = Command::new(BIN);
    command
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .env("TUZDIK_ENGINE", BIN)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    command
}

/// Runs to the end (killed after [`TIMEOUT`]); the output is read while it runs.
fn finish(mut command: Command) -> Output {
    let mut child = command.spawn().expect("tuzdik runs");
    let drain = |pipe: Option<Box<dyn Read + Send>>| {
        std::thread::spawn(move || {
            let mut bytes = Vec::new();
            if let Some(mut pipe) = pipe {
                let _ = pipe.read_to_end(&mut bytes);
            }
            bytes
        })
    };
    let stdout = drain(
        child
            .stdout
            .take()
            .map(|p| Box::new(p) as Box<dyn Read + Send>),
    );
    let stderr = drain(
        child
            .stderr
            .take()
            .map(|p| Box::new(p) as Box<dyn Read + Send>),
    );
    let started = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().expect("wait") {
            break status;
        }
        if started.elapsed() > TIMEOUT {
            let _ = child.kill();
            let _ = child.wait();
            panic!(
                "timed out; stdout:\n{}\nstderr:\n{}",
                String::from_utf8_lossy(&stdout.join().unwrap_or_default()),
                String::from_utf8_lossy(&stderr.join().unwrap_or_default())
            );
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    Output {
        status,
        stdout: stdout.join().unwrap_or_default(),
        stderr: stderr.join().unwrap_or_default(),
    }
}

fn run(args: &[&str]) -> (bool, String, String) {
    let output = finish(tuzdik(args));
    (
        output.status.success(),
        String::from_utf8_lossy(&output.stdout).into_owned(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

fn good(name: &str) -> String {
    format!("cmd='{BIN}' name={name}")
}

fn fake(mode: &str, at: u32, name: &str) -> String {
    format!("cmd='python3 tests/engines/misbehave.py {mode} {at}' name={name}")
}

fn temp(name: &str) -> PathBuf {
    let path = std::env::temp_dir().join(format!("tuzdik-match-{}-{name}", std::process::id()));
    let _ = std::fs::remove_file(&path);
    path
}

/// The final `Score of A vs B: W - L - D` figures.
fn final_score(stdout: &str) -> (u64, u64, u64) {
    let line = stdout
        .lines()
        .rfind(|l| l.starts_with("Score of "))
        .unwrap_or_else(|| panic!("no score line in\n{stdout}"));
    let numbers: Vec<u64> = line
        .split(':')
        .nth(1)
        .unwrap()
        .split('[')
        .next()
        .unwrap()
        .split('-')
        .map(|n| n.trim().parse().unwrap())
        .collect();
    (numbers[0], numbers[1], numbers[2])
}

/// Reads the PGN, checks that `tuzdik replay` accepts it, and returns its records.
fn pgn(path: &Path) -> Vec<Record> {
    let text = std::fs::read_to_string(path).expect("the PGN exists");
    let (ok, stdout, stderr) = run(&["replay", path.to_str().unwrap()]);
    assert!(ok, "replay failed: {stdout}{stderr}\n{text}");
    Record::parse_all(&text).expect("the PGN parses")
}

/// The comment on the last move (or before the moves), where the termination reason is.
fn last_comment(record: &Record) -> String {
    record
        .moves
        .last()
        .and_then(|m| m.comment.clone())
        .or_else(|| record.leading_comment.clone())
        .unwrap_or_default()
}

/// A match between a good engine A and a misbehaving B; returns stdout and the records.
fn against(b: &str, extra: &[&str], pgn_name: &str) -> (String, Vec<Record>) {
    let path = temp(pgn_name);
    let a = good("A");
    let mut args = vec![
        "match",
        "--engine",
        &a,
        "--engine",
        b,
        "--progress",
        "lines",
    ];
    args.extend_from_slice(extra);
    let path_text = path.to_str().unwrap().to_string();
    args.extend_from_slice(&["--pgn", &path_text]);
    let (ok, stdout, stderr) = run(&args);
    assert!(ok, "match failed:\n{stdout}\n{stderr}");
    let records = pgn(&path);
    let _ = std::fs::remove_file(&path);
    (stdout, records)
}

// ---------------------------------------------------------------------------------------------
// Good engines

#[test]
fn good_engines_play_a_match_and_the_pgn_replays() {
    let b = good("B");
    let (stdout, records) = against(
        &b,
        &["--games", "4", "--depth", "2", "--concurrency", "2"],
        "good.pgn",
    );
    let (w, l, d) = final_score(&stdout);
    assert_eq!(w + l + d, 4, "{stdout}");
    assert_eq!(stdout.matches("Finished game ").count(), 4, "{stdout}");
    assert!(stdout.contains("Elo difference: "), "{stdout}");
    assert!(stdout.contains("Ptnml(0-2): ["), "{stdout}");
    assert!(stdout.contains("Finished match: 4 games"), "{stdout}");
    assert_eq!(records.len(), 4);
    let rounds: HashSet<&str> = records.iter().filter_map(|r| r.tag("Round")).collect();
    assert_eq!(rounds, HashSet::from(["1", "2", "3", "4"]));
    let book = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/positions/openings.txt"
    ))
    .unwrap();
    for record in &records {
        for tag in [
            "Event",
            "Site",
            "Date",
            "Round",
            "White",
            "Black",
            "Result",
            "TimeControl",
            "Variant",
            "SetUp",
            "FEN",
            "Termination",
        ] {
            assert!(record.tag(tag).is_some(), "no {tag} tag in {record}");
        }
        assert_eq!(record.tag("Termination"), Some("normal"));
        assert_eq!(record.tag("TimeControl"), Some("-"));
        let fen = record.tag("FEN").unwrap();
        assert!(book.contains(fen), "{fen} is not from the book");
        let game = record.replay().unwrap();
        assert!(game.termination().is_some(), "the rules ended every game");
        assert_eq!(record.result, Some(Outcome::from_status(game.status())));
        assert!(
            last_comment(record).contains("South ") && last_comment(record).contains(" - North ")
        );
    }
    // Colours alternate over the same opening.
    let by_round = |n: &str| records.iter().find(|r| r.tag("Round") == Some(n)).unwrap();
    assert_eq!(by_round("1").tag("FEN"), by_round("2").tag("FEN"));
    assert_eq!(by_round("1").tag("White"), Some("A"));
    assert_eq!(by_round("2").tag("White"), Some("B"));
    // PlayOK long moves with (k) somewhere.
    assert!(
        records
            .iter()
            .any(|r| r.moves.iter().any(|m| m.text.contains('(')))
    );
}

#[test]
fn ugi_engines_get_ugi_commands_and_max_plies_adjudicates() {
    let book = temp("book.txt");
    std::fs::write(&book, "# one opening\nstartpos\n").unwrap();
    let path = temp("ugi.pgn");
    let a = format!("{} proto=ugi option.Hash=8", good("A"));
    let b = good("B");
    let (ok, stdout, stderr) = run(&[
        "match",
        "--engine",
        &a,
        "--engine",
        &b,
        "--tc",
        "20+0.5",
        "--depth",
        "3",
        "--max-plies",
        "10",
        "--openings",
        book.to_str().unwrap(),
        "--pgn",
        path.to_str().unwrap(),
        "--debug",
        "--progress",
        "lines",
    ]);
    assert!(ok, "{stdout}\n{stderr}");
    assert!(stderr.contains("A#1 > ugi"), "{stderr}");
    assert!(stderr.contains("A#1 > uginewgame"), "{stderr}");
    assert!(
        stderr.contains("A#1 > setoption name Hash value 8"),
        "{stderr}"
    );
    assert!(stderr.contains("A#1 > go p1time "), "{stderr}");
    assert!(stderr.contains("B#1 > ucinewgame"), "{stderr}");
    assert!(stderr.contains("B#1 > go wtime "), "{stderr}");
    assert!(stderr.contains(" winc 500 binc 500 depth 3"), "{stderr}");
    assert!(stderr.contains("> position startpos moves "), "{stderr}");
    assert!(stdout.contains("Adjudicated at --max-plies: 2"), "{stdout}");
    let records = pgn(&path);
    assert_eq!(records.len(), 2);
    for record in &records {
        assert_eq!(record.moves.len(), 10);
        assert_eq!(record.tag("Termination"), Some("adjudication"));
        assert_eq!(record.tag("TimeControl"), Some("20+0.5"));
        assert_eq!(record.tag("FEN"), None, "the start position needs no FEN");
        let game = record.replay().unwrap();
        let shared = game.position().shared_scores();
        assert_eq!(
            record.result,
            Some(Outcome::from_status(tuzdik::Status::from_scores(shared)))
        );
        assert!(last_comment(record).contains("Adjudicated after 10 plies"));
    }
    let _ = std::fs::remove_file(&path);
    let _ = std::fs::remove_file(&book);
}

// ---------------------------------------------------------------------------------------------
// Misbehaving engines

#[test]
fn a_crashing_engine_loses_and_is_restarted_for_its_next_game() {
    let (stdout, records) = against(
        &fake("crash", 3, "Crash"),
        &["--games", "4", "--depth", "2"],
        "crash.pgn",
    );
    assert_eq!(final_score(&stdout), (4, 0, 0), "{stdout}");
    assert!(stdout.contains("Forfeits by Crash: crash 4"), "{stdout}");
    assert_eq!(records.len(), 4);
    for record in &records {
        assert!(
            last_comment(record).contains("(Crash) loses by a crash (exit status 3)"),
            "{record}"
        );
        assert_eq!(record.tag("Termination"), Some("abandoned"));
        // It crashed at its third move every game: it was restarted each time.
        let crash_moves = record.moves.len() / 2;
        assert!((2..=3).contains(&crash_moves), "{record}");
        assert!(record.replay().unwrap().termination().is_none());
    }
}

#[test]
fn an_illegal_move_loses() {
    let (stdout, records) = against(
        &fake("illegal", 2, "Cheat"),
        &["--games", "2", "--depth", "2"],
        "illegal.pgn",
    );
    assert_eq!(final_score(&stdout), (2, 0, 0), "{stdout}");
    for record in &records {
        let comment = last_comment(record);
        assert!(
            comment.contains("(Cheat) loses by an illegal move '0000'"),
            "{comment}"
        );
        assert_eq!(record.tag("Termination"), Some("rules infraction"));
    }
}

#[test]
fn garbage_output_and_a_bare_bestmove_lose() {
    let (stdout, records) = against(
        &fake("garbage", 1, "Junk"),
        &["--games", "2", "--depth", "2"],
        "garbage.pgn",
    );
    assert_eq!(final_score(&stdout), (2, 0, 0), "{stdout}");
    for record in &records {
        assert!(
            last_comment(record).contains("(Junk) loses by an unparsable move 'banana'"),
            "{record}"
        );
    }
    // Where Junk moved first (the book's first opening has North to move) it lost before
    // any move: the reason stands before the result.
    let first = records
        .iter()
        .find(|r| r.tag("Black") == Some("Junk"))
        .unwrap();
    assert!(first.moves.is_empty(), "{first}");
    assert!(
        first
            .leading_comment
            .as_deref()
            .unwrap_or_default()
            .contains("unparsable"),
        "{first}"
    );
    let (stdout, records) = against(
        &fake("bare", 2, "Bare"),
        &["--games", "2", "--depth", "2"],
        "bare.pgn",
    );
    assert_eq!(final_score(&stdout), (2, 0, 0), "{stdout}");
    assert!(last_comment(&records[0]).contains("'bestmove' without a move"));
}

#[test]
fn silence_loses_on_time_with_a_clock_and_as_no_answer_without() {
    let started = Instant::now();
    let (stdout, records) = against(
        &fake("silent", 2, "Mute"),
        &["--games", "2", "--tc", "0.5+0"],
        "silent.pgn",
    );
    assert_eq!(final_score(&stdout), (2, 0, 0), "{stdout}");
    for record in &records {
        let comment = last_comment(record);
        assert!(
            comment.contains("(Mute) loses on time: no move within"),
            "{comment}"
        );
        assert_eq!(record.tag("Termination"), Some("time forfeit"));
        assert_eq!(record.tag("TimeControl"), Some("0.5"));
    }
    let (stdout, records) = against(
        &fake("silent", 1, "Mute"),
        &["--games", "2", "--depth", "2", "--move-timeout", "300"],
        "silent2.pgn",
    );
    assert_eq!(final_score(&stdout), (2, 0, 0), "{stdout}");
    assert!(last_comment(&records[0]).contains("loses by not answering: no bestmove within"));
    assert!(started.elapsed() < Duration::from_secs(30));
}

#[test]
fn a_late_answer_loses_on_time_beyond_the_grace_and_not_within_it() {
    let (stdout, records) = against(
        "cmd='python3 tests/engines/misbehave.py slow 2 400' name=Slow",
        &["--games", "2", "--movetime", "50", "--timemargin", "100"],
        "slow.pgn",
    );
    assert_eq!(final_score(&stdout), (2, 0, 0), "{stdout}");
    for record in &records {
        let comment = last_comment(record);
        assert!(comment.contains("(Slow) loses on time: "), "{comment}");
        assert!(comment.contains("grace of 100 ms"), "{comment}");
        assert_eq!(record.tag("TimeControl"), Some("0.05/move"));
    }
    let (stdout, records) = against(
        "cmd='python3 tests/engines/misbehave.py slow 2 300' name=Slow",
        &[
            "--games",
            "2",
            "--movetime",
            "50",
            "--timemargin",
            "1000",
            "--max-plies",
            "6",
        ],
        "slow2.pgn",
    );
    assert!(!stdout.contains("Forfeits"), "{stdout}");
    assert!(
        records
            .iter()
            .all(|r| r.tag("Termination") == Some("adjudication"))
    );
}

#[test]
fn sprt_stops_when_a_bound_is_crossed() {
    let (stdout, records) = against(
        &fake("crash", 1, "Crash"),
        &[
            "--depth",
            "2",
            "--sprt",
            "elo0=0,elo1=300",
            "--concurrency",
            "2",
        ],
        "sprt.pgn",
    );
    assert!(stdout.contains("- H1 accepted"), "{stdout}");
    let (w, l, d) = final_score(&stdout);
    assert_eq!((l, d), (0, 0));
    assert!((4..=40).contains(&w), "{stdout}");
    assert_eq!(records.len() as u64, w);
}

#[test]
fn ctrl_c_prints_the_summary_and_leaves_a_complete_pgn() {
    let path = temp("interrupt.pgn");
    let a = good("A");
    let b = good("B");
    let mut command = tuzdik(&[
        "match",
        "--engine",
        &a,
        "--engine",
        &b,
        "--games",
        "200",
        "--depth",
        "2",
        "--pgn",
        path.to_str().unwrap(),
        "--progress",
        "lines",
    ]);
    command.stdout(Stdio::piped());
    let child = command.spawn().unwrap();
    // Wait for a finished game or two, then interrupt.
    let started = Instant::now();
    while std::fs::read_to_string(&path).map_or(0, |t| t.matches("[Event ").count()) < 2 {
        assert!(started.elapsed() < TIMEOUT, "no games finished");
        std::thread::sleep(Duration::from_millis(20));
    }
    let status = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(status.success());
    let output = child.wait_with_output().unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(output.status.success(), "{stdout}");
    assert!(stdout.contains("Interrupted"), "{stdout}");
    let (w, l, d) = final_score(&stdout);
    let records = pgn(&path);
    assert_eq!(records.len() as u64, w + l + d);
    assert!(w + l + d < 200);
    let _ = std::fs::remove_file(&path);
}

// ---------------------------------------------------------------------------------------------
// Errors

#[test]
fn bad_specs_files_and_flags_give_clear_errors() {
    let book = temp("badbook.txt");
    std::fs::write(&book, "startpos\n1,2,3/4,5,6 0 0 w\n").unwrap();
    let book_text = book.to_str().unwrap().to_string();
    let a = good("A");
    let cases: Vec<(Vec<&str>, &str)> = vec![
        (
            vec!["--engine", &a, "--depth", "1"],
            "give --engine exactly twice (got 1)",
        ),
        (
            vec!["--engine", "name=X", "--engine", &a, "--depth", "1"],
            "--engine 1: cmd=\"<command line>\" is missing",
        ),
        (
            vec![
                "--engine",
                &a,
                "--engine",
                "cmd=x colour=red",
                "--depth",
                "1",
            ],
            "--engine 2: unknown key 'colour'",
        ),
        (
            vec![
                "--engine",
                &a,
                "--engine",
                "cmd=x proto=xboard",
                "--depth",
                "1",
            ],
            "proto=xboard",
        ),
        (
            vec!["--engine", &a, "--engine", "cmd=\"x", "--depth", "1"],
            "unclosed",
        ),
        (vec!["--engine", &a, "--engine", &a], "give a time control"),
        (
            vec!["--engine", &a, "--engine", &a, "--tc", "fast"],
            "--tc: base time 'fast'",
        ),
        (
            vec![
                "--engine",
                &a,
                "--engine",
                &a,
                "--tc",
                "1+0",
                "--movetime",
                "5",
            ],
            "not both",
        ),
        (
            vec![
                "--engine",
                &a,
                "--engine",
                &a,
                "--depth",
                "1",
                "--sprt",
                "elo0=5,elo1=0",
            ],
            "elo1 (0) must be above",
        ),
        (
            vec![
                "--engine",
                &a,
                "--engine",
                &a,
                "--depth",
                "1",
                "--openings",
                &book_text,
            ],
            ":2: '1,2,3/4,5,6 0 0 w'",
        ),
        (
            vec![
                "--engine",
                &a,
                "--engine",
                &a,
                "--depth",
                "1",
                "--openings",
                "/nonexistent/book",
            ],
            "--openings /nonexistent/book",
        ),
        (
            vec![
                "--engine",
                &a,
                "--engine",
                &a,
                "--depth",
                "1",
                "--variant",
                "chess",
            ],
            "--variant",
        ),
        (
            vec![
                "--engine",
                &a,
                "--engine",
                "cmd=/nonexistent/engine",
                "--depth",
                "1",
            ],
            "cannot run '/nonexistent/engine'",
        ),
        (
            vec![
                "--engine",
                &a,
                "--engine",
                "cmd='python3 tests/engines/misbehave.py nostart'",
                "--depth",
                "1",
            ],
            "no uciok within",
        ),
    ];
    for (args, says) in cases {
        let mut full = vec!["match"];
        full.extend(args.iter());
        let (ok, stdout, stderr) = run(&full);
        assert!(!ok, "{full:?} succeeded: {stdout}");
        assert!(
            stderr.contains(says),
            "{full:?}: expected '{says}' in: {stderr}"
        );
    }
    let _ = std::fs::remove_file(&book);
}

// ---------------------------------------------------------------------------------------------
// For people

#[test]
fn analyse_annotates_every_move_and_the_result_replays() {
    let input = temp("to-analyse.pgn");
    let out = temp("analysed.pgn");
    std::fs::write(
        &input,
        "[Event \"x\"]\n[Result \"*\"]\n\n1. 87(10) 87(10) 2. 22 {a note} 99(22) 3. 1 *\n",
    )
    .unwrap();
    let (ok, stdout, stderr) = run(&[
        "analyse",
        input.to_str().unwrap(),
        "--depth",
        "3",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(ok, "{stdout}{stderr}");
    assert!(stderr.contains("game 1: South "), "{stderr}");
    let records = pgn(&out);
    let record = &records[0];
    assert_eq!(record.moves.len(), 5);
    for mv in &record.moves {
        let comment = mv.comment.as_deref().unwrap_or_default();
        assert!(comment.contains("/3") || comment.contains('M'), "{comment}");
    }
    assert!(
        record.moves[2]
            .comment
            .as_deref()
            .unwrap()
            .starts_with("a note [")
    );
    assert!(record.tag("Annotator").unwrap().contains("depth 3"));
    let _ = std::fs::remove_file(&input);
    let _ = std::fs::remove_file(&out);
    let (ok, _, stderr) = run(&["analyse", "/nonexistent.pgn"]);
    assert!(!ok && stderr.contains("/nonexistent.pgn"), "{stderr}");
}

#[test]
fn play_takes_moves_in_either_notation_and_undo() {
    let mut command = tuzdik(&["play", "--movetime", "20", "--side", "north"]);
    command.stdin(Stdio::piped());
    let mut child = command.spawn().unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(b"help\nundo\nfen\nquit\n")
        .unwrap();
    let output = child.wait_with_output().unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(output.status.success(), "{stdout}");
    assert!(stdout.contains("You play North"), "{stdout}");
    assert!(stdout.contains("Engine (South)"), "{stdout}");
    assert!(stdout.contains("The engine plays"), "{stdout}");
    assert!(stdout.contains("kazan"), "{stdout}");
    assert!(
        stdout.contains(" b 1"),
        "the fen after the engine's first move: {stdout}"
    );
}

// ---------------------------------------------------------------------------------------------
// The opening book

/// Makes the built-in opening book: every position 2, 3 or 4 plies from the start, searched
/// to depth 10; of those within half a stone of 0 for the side to move, the closest to 0,
/// at most 5 per first move, 40 in all. Run with
/// `cargo test --release --test match -- --ignored generate_openings --nocapture`.
#[test]
#[ignore]
fn generate_openings() {
    let mut engine = Engine::new();
    engine.set_hash_mib(64).unwrap();
    let mut seen = HashSet::new();
    let mut candidates = Vec::new();
    let mut frontier = vec![Game::new(Variant::TOGYZ)];
    for plies in 1..=4 {
        let mut next = Vec::new();
        for game in &frontier {
            for &mv in game.legal_moves().iter() {
                let mut child = game.clone();
                child.try_play(mv).unwrap();
                if child.termination().is_some() || !seen.insert(*child.position()) {
                    continue;
                }
                next.push(child);
            }
        }
        if plies >= 2 {
            for game in &next {
                let limits = Limits {
                    depth: Some(10),
                    ..Limits::default()
                };
                engine.clear();
                let outcome = engine.search(game, &limits, |_| {});
                let cp = match outcome.last.map(|r| r.score) {
                    Some(Score::Cp(cp)) => cp,
                    _ => continue,
                };
                candidates.push((cp.abs(), plies, cp, game.clone()));
            }
        }
        frontier = next;
    }
    candidates.sort_by_key(|c| (c.0, c.1));
    let mut per_first = std::collections::HashMap::new();
    let mut per_plies = std::collections::HashMap::new();
    let mut chosen = Vec::new();
    for (_, plies, cp, game) in candidates {
        let first = game.moves()[0];
        let n = per_first.entry(first).or_insert(0);
        let p = per_plies.entry(plies).or_insert(0);
        if *n >= 5 || cp.abs() > 50 {
            continue;
        }
        *n += 1;
        *p += 1;
        let _ = plies;
        let moves: Vec<String> = game.moves().iter().map(|m| m.to_string()).collect();
        chosen.push((plies, moves.join(" "), cp, game.fen()));
        if chosen.len() == 40 {
            break;
        }
    }
    chosen.sort();
    for (_, moves, cp, fen) in chosen {
        println!("{fen}    # {moves} ({cp:+} cp)");
    }
}
