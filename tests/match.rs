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
    let child = long_match(&good("B"), &path, 2);
    interrupt(&child);
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

/// A 200-game match of A against `b` writing `path`, returned once `games` games finished.
fn long_match(b: &str, path: &Path, games: usize) -> std::process::Child {
    let a = good("A");
    let mut command = tuzdik(&[
        "match",
        "--engine",
        &a,
        "--engine",
        b,
        "--games",
        "200",
        "--depth",
        "2",
        "--concurrency",
        "2",
        "--pgn",
        path.to_str().unwrap(),
        "--progress",
        "lines",
    ]);
    command.stdout(Stdio::piped()).stderr(Stdio::null());
    let child = command.spawn().unwrap();
    let started = Instant::now();
    while std::fs::read_to_string(path).map_or(0, |t| t.matches("[Event ").count()) < games {
        assert!(started.elapsed() < TIMEOUT, "no games finished");
        std::thread::sleep(Duration::from_millis(20));
    }
    child
}

/// Ctrl-C, as the terminal sends it.
fn interrupt(child: &std::process::Child) {
    let status = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(status.success());
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
            "give --engine at least twice (got 1)",
        ),
        (
            vec!["--engine", "name=X", "--engine", &a, "--depth", "1"],
            "--engine 1: cmd=\"<command line>\" is missing",
        ),
        (
            vec!["--engine", "./tuzdik", "--engine", &a, "--depth", "1"],
            "--engine 1: './tuzdik' is not key=value (to run it, write cmd=./tuzdik)",
        ),
        (
            vec!["--engine", &a, "--engine", "cmd=x tc=fast", "--depth", "1"],
            "--engine 2: tc=fast",
        ),
        (
            vec![
                "--engine",
                &a,
                "--engine",
                &a,
                "--engine",
                &a,
                "--depth",
                "1",
                "--sprt",
                "elo0=0,elo1=5",
            ],
            "--sprt needs exactly two engines (got 3)",
        ),
        (
            vec![
                "--engine", &a, "--engine", &a, "--each", "cmd=x", "--depth", "1",
            ],
            "--each: 'cmd=x' must be given per engine",
        ),
        (
            vec![
                "--engine",
                &a,
                "--engine",
                &a,
                "--depth",
                "1",
                "--resign",
                "movecount=2",
            ],
            "--resign: score= is missing",
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
                "file=x.pgn",
                "order=shuffled",
            ],
            "order=shuffled",
        ),
        (
            vec![
                "--engine",
                &a,
                "--engine",
                &a,
                "--depth",
                "1",
                "--tb",
                "/nonexistent",
            ],
            "--tb: the solved tables are for plain Bestemshchi",
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

// ---------------------------------------------------------------------------------------------
// Nothing outlives the match (issue 37.7)

/// Processes whose command line contains `marker` (zombies have none and do not count).
fn processes_with(marker: &str) -> usize {
    let Ok(entries) = std::fs::read_dir("/proc") else {
        return 0;
    };
    entries
        .filter_map(Result::ok)
        .filter(|e| e.file_name().to_string_lossy().parse::<u32>().is_ok())
        .filter_map(|e| std::fs::read(e.path().join("cmdline")).ok())
        .filter(|bytes| String::from_utf8_lossy(bytes).contains(marker))
        .count()
}

/// A `sleep` argument no other test uses.
fn marker(tag: u32) -> String {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.subsec_nanos())
        .unwrap_or(0);
    format!("{}.{}{}", 900 + tag, std::process::id(), nanos)
}

fn wait_until_none(marker: &str) -> usize {
    let started = Instant::now();
    while processes_with(marker) > 0 && started.elapsed() < Duration::from_secs(5) {
        std::thread::sleep(Duration::from_millis(50));
    }
    processes_with(marker)
}

#[test]
fn an_engines_own_children_die_with_it() {
    let sleep = marker(1);
    let b = format!("cmd='python3 tests/engines/misbehave.py spawn 1 {sleep}' name=Spawner");
    let (stdout, records) = against(&b, &["--games", "2", "--depth", "1"], "children.pgn");
    assert!(stdout.contains("Finished match: 2 games"), "{stdout}");
    assert_eq!(records.len(), 2);
    assert_eq!(
        wait_until_none(&sleep),
        0,
        "the engine's sleep children outlived the match"
    );
}

#[test]
fn a_second_ctrl_c_leaves_no_engine_running() {
    let sleep = marker(2);
    let path = temp("twice.pgn");
    let b = format!("cmd='python3 tests/engines/misbehave.py stubborn 1 {sleep}' name=Stubborn");
    let started = Instant::now();
    let mut child = long_match(&b, &path, 1);
    assert!(
        processes_with(&sleep) > 0,
        "the stubborn engines are not running"
    );
    for _ in 0..2 {
        interrupt(&child);
        std::thread::sleep(Duration::from_millis(30));
    }
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        assert!(started.elapsed() < TIMEOUT, "the match did not exit");
        std::thread::sleep(Duration::from_millis(20));
    };
    assert_eq!(status.code(), Some(130), "a second Ctrl-C exits at once");
    assert_eq!(
        wait_until_none(&sleep),
        0,
        "engines or their children outlived the match"
    );
    let _ = std::fs::remove_file(&path);
}

// ---------------------------------------------------------------------------------------------
// Statistics on small samples

#[test]
fn a_small_match_has_no_zero_width_interval_and_sprt_prints_like_fastchess() {
    let b = good("B");
    let (stdout, _) = against(&b, &["--games", "4", "--depth", "1"], "small.pgn");
    assert!(
        stdout.contains("Elo difference: too few games for an interval (4 of at least 10)"),
        "{stdout}"
    );
    assert!(!stdout.contains("+/- 0.0"), "{stdout}");
    assert!(
        stdout.contains("too few pairs for an interval (2 of at least 5)"),
        "{stdout}"
    );
    let (stdout, _) = against(
        &fake("crash", 1, "Crash"),
        &["--depth", "1", "--sprt", "elo0=0,elo1=300"],
        "llr.pgn",
    );
    let llr = stdout
        .lines()
        .find(|l| l.starts_with("LLR: "))
        .unwrap_or_else(|| panic!("no LLR line in {stdout}"));
    assert!(llr.ends_with(" (-2.94, 2.94) [0.00, 300.00]"), "{llr}");
    let value: f64 = llr[5..].split_whitespace().next().unwrap().parse().unwrap();
    assert!(value >= 2.94, "{llr}");
}

// ---------------------------------------------------------------------------------------------
// cutechess-cli / fastchess parity

/// The `go` lines an engine named `name` was sent (from --debug's log).
fn go_lines<'a>(stderr: &'a str, name: &str) -> Vec<&'a str> {
    stderr
        .lines()
        .filter(|l| l.starts_with(&format!("{name}#")) && l.contains(" > go "))
        .collect()
}

#[test]
fn time_odds_give_each_engine_its_own_clock() {
    let path = temp("odds.pgn");
    let a = format!("{} tc=3+0.2", good("Slow"));
    let b = format!("{} tc=1.5+0.05", good("Fast"));
    let (ok, stdout, stderr) = run(&[
        "match",
        "--engine",
        &a,
        "--engine",
        &b,
        "--games",
        "2",
        "--max-plies",
        "12",
        "--debug",
        "--pgn",
        path.to_str().unwrap(),
        "--progress",
        "lines",
    ]);
    assert!(ok, "{stdout}{stderr}");
    // Each engine hears its own increment and the other's, wherever it sits.
    for name in ["Slow", "Fast"] {
        let lines = go_lines(&stderr, name);
        assert!(!lines.is_empty(), "no go for {name}");
        for line in lines {
            assert!(
                (line.contains("winc 200 binc 50") || line.contains("winc 50 binc 200")),
                "{line}"
            );
        }
    }
    let records = pgn(&path);
    assert_eq!(records.len(), 2);
    for record in &records {
        assert_eq!(record.tag("TimeControl"), None);
        let white = record.tag("White").unwrap();
        let expect = |n: &str| if n == "Slow" { "3+0.2" } else { "1.5+0.05" };
        assert_eq!(record.tag("WhiteTimeControl"), Some(expect(white)));
        assert_eq!(
            record.tag("BlackTimeControl"),
            Some(expect(record.tag("Black").unwrap()))
        );
    }
    let _ = std::fs::remove_file(&path);
}

/// A three-engine tournament; returns stdout and the records.
fn three_engines(kind: &str, pgn_name: &str) -> (String, Vec<Record>) {
    let path = temp(pgn_name);
    let (a, b, c) = (
        format!("cmd='{BIN}' name=D1 depth=1"),
        format!("cmd='{BIN}' name=D2 depth=2"),
        format!("cmd='{BIN}' name=N2k nodes=2000"),
    );
    let (ok, stdout, stderr) = run(&[
        "match",
        "--engine",
        &a,
        "--engine",
        &b,
        "--engine",
        &c,
        "--tournament",
        kind,
        "--games",
        "2",
        "--rounds",
        "1",
        "--concurrency",
        "2",
        "--pgn",
        path.to_str().unwrap(),
        "--progress",
        "lines",
    ]);
    assert!(ok, "{stdout}{stderr}");
    let records = pgn(&path);
    let _ = std::fs::remove_file(&path);
    (stdout, records)
}

fn meetings(records: &[Record]) -> Vec<(String, String)> {
    let mut pairs: Vec<(String, String)> = records
        .iter()
        .map(|r| {
            let mut two = [r.tag("White").unwrap(), r.tag("Black").unwrap()];
            two.sort();
            (two[0].to_string(), two[1].to_string())
        })
        .collect();
    pairs.sort();
    pairs
}

fn check_ranking(stdout: &str, games_each: &[(&str, u64)]) {
    let header = stdout
        .lines()
        .position(|l| l.trim_start().starts_with("Rank Name"))
        .unwrap_or_else(|| panic!("no ranking table in {stdout}"));
    let rows: Vec<&str> = stdout.lines().skip(header + 1).take(3).collect();
    let mut points = 0.0;
    for (name, games) in games_each {
        let row = rows
            .iter()
            .find(|r| r.split_whitespace().nth(1) == Some(name))
            .unwrap_or_else(|| panic!("{name} not ranked: {rows:?}"));
        let words: Vec<&str> = row.split_whitespace().collect();
        assert_eq!(words[4].parse::<u64>().unwrap(), *games, "{row}");
        points += words[5].parse::<f64>().unwrap();
    }
    let total: u64 = games_each.iter().map(|(_, g)| g).sum();
    assert_eq!(
        points,
        total as f64 / 2.0,
        "every game gives one point: {rows:?}"
    );
}

#[test]
fn a_gauntlet_puts_the_first_engine_against_each_other() {
    let (stdout, records) = three_engines("gauntlet", "gauntlet.pgn");
    assert_eq!(records.len(), 4);
    assert_eq!(
        meetings(&records),
        [("D1", "D2"), ("D1", "D2"), ("D1", "N2k"), ("D1", "N2k")]
            .map(|(a, b)| (a.to_string(), b.to_string()))
    );
    assert!(stdout.contains("Score of D1 vs D2: "), "{stdout}");
    assert!(stdout.contains("Score of D1 vs N2k: "), "{stdout}");
    check_ranking(&stdout, &[("D1", 4), ("D2", 2), ("N2k", 2)]);
}

#[test]
fn a_round_robin_plays_every_pair_with_colours_swapped() {
    let (stdout, records) = three_engines("round-robin", "robin.pgn");
    assert_eq!(records.len(), 6);
    let met = meetings(&records);
    for pair in [("D1", "D2"), ("D1", "N2k"), ("D2", "N2k")] {
        let pair = (pair.0.to_string(), pair.1.to_string());
        assert_eq!(met.iter().filter(|m| **m == pair).count(), 2, "{met:?}");
    }
    // Games 2k+1 and 2k+2 are one opening with the colours swapped.
    let by_round = |n: u64| {
        records
            .iter()
            .find(|r| r.tag("Round") == Some(n.to_string().as_str()))
            .unwrap()
    };
    for k in 0..3 {
        let (x, y) = (by_round(2 * k + 1), by_round(2 * k + 2));
        assert_eq!(x.tag("FEN"), y.tag("FEN"));
        assert_eq!(x.tag("White"), y.tag("Black"));
    }
    check_ranking(&stdout, &[("D1", 4), ("D2", 4), ("N2k", 4)]);
}

#[test]
fn resign_and_draw_adjudications_are_named_in_the_pgn() {
    let b = good("B");
    let (stdout, records) = against(
        &b,
        &[
            "--games",
            "2",
            "--depth",
            "2",
            "--resign",
            "movecount=1",
            "score=0",
        ],
        "resign.pgn",
    );
    assert!(stdout.contains("Adjudicated by resign: 2"), "{stdout}");
    for record in &records {
        assert_eq!(record.tag("Termination"), Some("adjudication"));
        let comment = last_comment(record);
        assert!(comment.contains("wins by resign adjudication"), "{comment}");
        let winner = if comment.contains("South wins") {
            Outcome::SouthWins
        } else {
            Outcome::NorthWins
        };
        assert_eq!(record.result, Some(winner), "{comment}");
        // One move of each engine is all the rule needs.
        assert_eq!(record.moves.len(), 2, "{record}");
    }
    let (stdout, records) = against(
        &b,
        &[
            "--games",
            "2",
            "--depth",
            "2",
            "--draw",
            "movenumber=3",
            "movecount=2",
            "score=100000",
        ],
        "draw.pgn",
    );
    assert!(stdout.contains("Adjudicated by draw: 2"), "{stdout}");
    for record in &records {
        assert_eq!(record.tag("Termination"), Some("adjudication"));
        assert_eq!(record.result, Some(Outcome::Draw));
        assert!(last_comment(record).contains("Draw by draw adjudication"));
        assert_eq!(record.moves.len(), 6, "from move 3 on: {record}");
    }
}

#[test]
fn a_resumed_match_counts_the_pgn_and_plays_the_rest() {
    let path = temp("resume.pgn");
    let json = temp("resume.json");
    let (a, b) = (good("A"), good("B"));
    let base = [
        "match",
        "--engine",
        &a,
        "--engine",
        &b,
        "--nodes",
        "2000",
        "--progress",
        "lines",
    ];
    let mut first = base.to_vec();
    first.extend(["--games", "4", "--pgn", path.to_str().unwrap()]);
    let (ok, stdout, stderr) = run(&first);
    assert!(ok, "{stdout}{stderr}");
    let before = final_score(&stdout);
    let mut again = base.to_vec();
    let json_text = json.to_str().unwrap().to_string();
    again.extend([
        "--games",
        "6",
        "--resume",
        path.to_str().unwrap(),
        "--json",
        &json_text,
    ]);
    let (ok, stdout, stderr) = run(&again);
    assert!(ok, "{stdout}{stderr}");
    assert!(
        stdout.contains("Resumed: 4 games from the PGN counted."),
        "{stdout}"
    );
    assert_eq!(stdout.matches("Finished game ").count(), 2, "{stdout}");
    assert!(stdout.contains("Finished game 5 ") && stdout.contains("Finished game 6 "));
    let after = final_score(&stdout);
    assert_eq!(after.0 + after.1 + after.2, 6);
    assert!(after.0 >= before.0 && after.1 >= before.1 && after.2 >= before.2);
    let records = pgn(&path);
    let rounds: HashSet<&str> = records.iter().filter_map(|r| r.tag("Round")).collect();
    assert_eq!(rounds, HashSet::from(["1", "2", "3", "4", "5", "6"]));
    // The JSON agrees with the output: read by Python's own parser.
    let check = format!(
        "import json; d = json.load(open('{json_text}')); e = d['encounters'][0]; \
         assert len(d['games']) == 6, d; assert d['finished']; \
         assert (e['wins'], e['losses'], e['draws']) == {after:?}, e; \
         assert sum(e['pentanomial']) == 3, e; assert d['sprt'] is None; \
         assert sorted(g['round'] for g in d['games']) == [1, 2, 3, 4, 5, 6]; print('ok')"
    );
    let output = Command::new("python3")
        .args(["-c", &check])
        .output()
        .unwrap();
    assert_eq!(
        String::from_utf8_lossy(&output.stdout).trim(),
        "ok",
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    // Another engine line-up is refused, naming the game.
    let c = good("C");
    let (ok, _, stderr) = run(&[
        "match",
        "--engine",
        &a,
        "--engine",
        &c,
        "--nodes",
        "2000",
        "--games",
        "8",
        "--resume",
        path.to_str().unwrap(),
    ]);
    assert!(!ok);
    assert!(
        stderr.contains("game 1: A vs B, but this match's game 1 is A vs C"),
        "{stderr}"
    );
    let _ = std::fs::remove_file(&path);
    let _ = std::fs::remove_file(&json);
}

#[test]
fn pgn_openings_each_settings_and_worker_json() {
    // A PGN of two games to take openings from.
    let source = temp("source.pgn");
    let (a, b) = (good("A"), good("B"));
    let (ok, stdout, stderr) = run(&[
        "match",
        "--engine",
        &a,
        "--engine",
        &b,
        "--depth",
        "1",
        "--games",
        "2",
        "--pgn",
        source.to_str().unwrap(),
        "--progress",
        "lines",
    ]);
    assert!(ok, "{stdout}{stderr}");
    let book = format!("file={}", source.display());
    let out = temp("from-pgn.pgn");
    // Settings for both engines through --each; engines given by cmd= only.
    let (ok, stdout, stderr) = run(&[
        "match",
        "--engine",
        &format!("cmd='{BIN}'"),
        "--engine",
        &format!("cmd='{BIN}'"),
        "--each",
        "nodes=2000",
        "option.Hash=4",
        "--openings",
        &book,
        "plies=3",
        "order=sequential",
        "start=2",
        "--games",
        "2",
        "--pgn",
        out.to_str().unwrap(),
        "--progress",
        "lines",
        "--debug",
    ]);
    assert!(ok, "{stdout}{stderr}");
    assert!(stderr.contains("setoption name Hash value 4"), "{stderr}");
    assert!(
        go_lines(&stderr, "tuzdik")
            .iter()
            .all(|l| l.ends_with("go nodes 2000"))
    );
    let records = pgn(&out);
    let sources = Record::parse_all(&std::fs::read_to_string(&source).unwrap()).unwrap();
    // start=2: the second game's first three moves, played as book moves.
    let second: Vec<&str> = sources[1]
        .moves
        .iter()
        .take(3)
        .map(|m| m.text.as_str())
        .collect();
    for record in &records {
        let moves: Vec<&str> = record
            .moves
            .iter()
            .take(3)
            .map(|m| m.text.as_str())
            .collect();
        assert_eq!(moves, second);
        assert!(
            record.moves[..3]
                .iter()
                .all(|m| m.comment.as_deref() == Some("book"))
        );
    }
    // A worker plays just the games it is given and prints them as JSON lines.
    let (ok, stdout, stderr) = run(&[
        "match",
        "--engine",
        &a,
        "--engine",
        &b,
        "--nodes",
        "2000",
        "--games",
        "40",
        "--only-games",
        "6,7",
        "--worker-json",
    ]);
    assert!(ok, "{stdout}{stderr}");
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines.len(), 2, "{stdout}");
    let mut indices: Vec<&str> = lines
        .iter()
        .map(|l| {
            l.split("\"index\": ")
                .nth(1)
                .unwrap()
                .split(',')
                .next()
                .unwrap()
        })
        .collect();
    indices.sort();
    assert_eq!(indices, ["6", "7"]);
    assert!(
        lines
            .iter()
            .all(|l| l.contains("\"pair\": 3,") && l.contains("[Round "))
    );
    for path in [source, out] {
        let _ = std::fs::remove_file(&path);
    }
}

#[test]
fn noswap_gives_each_game_a_new_opening_and_ratinginterval_prints_tables() {
    let b = good("B");
    let (stdout, records) = against(
        &b,
        &[
            "--games",
            "4",
            "--depth",
            "1",
            "--noswap",
            "--ratinginterval",
            "2",
        ],
        "noswap.pgn",
    );
    assert_eq!(records.len(), 4);
    assert!(records.iter().all(|r| r.tag("White") == Some("A")));
    let fens: HashSet<&str> = records.iter().filter_map(|r| r.tag("FEN")).collect();
    assert_eq!(fens.len(), 4, "four openings");
    // After games 2 and 4, and in the summary.
    assert_eq!(stdout.matches("Elo difference: ").count(), 3, "{stdout}");
    assert!(
        !stdout.contains("Ptnml"),
        "no pairs without a colour swap: {stdout}"
    );
}

#[test]
fn solved_tables_adjudicate_with_their_result() {
    let dir = temp("tables");
    let _ = std::fs::remove_dir_all(&dir);
    let (ok, stdout, stderr) = run(&[
        "solve",
        "bestemshchi",
        "--max-stones",
        "8",
        "--out",
        dir.to_str().unwrap(),
        "--threads",
        "1",
    ]);
    assert!(ok, "{stdout}{stderr}");
    // Eight stones left, North one stone ahead in the kazans: the table decides.
    let positions = ["2,0,1,0,1/0,1,0,2,1 20 22 w", "0,0,0,1,3/1,0,2,1,0 22 20 b"];
    let book = temp("tb-book.txt");
    std::fs::write(&book, positions.join("\n") + "\n").unwrap();
    let variant = Variant::new(tuzdik::Family::Bestemshchi);
    let table = tuzdik::solve::Tablebase::load(&dir, None).unwrap();
    let b = good("B");
    let (stdout, records) = against(
        &b,
        &[
            "--variant",
            "bestemshchi",
            "--depth",
            "2",
            "--openings",
            book.to_str().unwrap(),
            "--tb",
            dir.to_str().unwrap(),
        ],
        "tb.pgn",
    );
    assert!(stdout.contains("Adjudicated by tablebase: 4"), "{stdout}");
    for record in &records {
        assert_eq!(record.tag("Termination"), Some("adjudication"));
        assert!(record.moves.is_empty(), "decided before the first move");
        let game = record.start().unwrap();
        let position = game.position();
        let mover = position.side_to_move();
        let margin = table.probe(position).expect("in the table");
        let lead = position.kazan(mover) as i32 - position.kazan(mover.opponent()) as i32 + margin;
        let expected = match (lead.signum(), mover) {
            (0, _) => Outcome::Draw,
            (1, tuzdik::Side::South) | (-1, tuzdik::Side::North) => Outcome::SouthWins,
            _ => Outcome::NorthWins,
        };
        assert_eq!(record.result, Some(expected), "{record}");
        assert!(last_comment(record).contains("by tablebase adjudication"));
        assert_eq!(game.variant(), variant);
    }
    let _ = std::fs::remove_dir_all(&dir);
    let _ = std::fs::remove_file(&book);
}

#[test]
fn a_resumed_match_recounts_adjudications_by_kind() {
    let path = temp("resume-resign.pgn");
    let (a, b) = (good("A"), good("B"));
    let args = |games: &'static str, flag: &'static str| {
        vec![
            "match".to_string(),
            "--engine".into(),
            a.clone(),
            "--engine".into(),
            b.clone(),
            "--depth".into(),
            "2".into(),
            "--resign".into(),
            "movecount=1".into(),
            "score=0".into(),
            "--games".into(),
            games.into(),
            flag.into(),
            path.to_str().unwrap().to_string(),
            "--progress".into(),
            "lines".into(),
        ]
    };
    let first = args("2", "--pgn");
    let (ok, stdout, stderr) = run(&first.iter().map(String::as_str).collect::<Vec<_>>());
    assert!(ok, "{stdout}{stderr}");
    let again = args("2", "--resume");
    let (ok, stdout, stderr) = run(&again.iter().map(String::as_str).collect::<Vec<_>>());
    assert!(ok, "{stdout}{stderr}");
    assert!(
        !stdout.contains("Finished game"),
        "nothing left to play: {stdout}"
    );
    assert!(stdout.contains("Adjudicated by resign: 2"), "{stdout}");
    let _ = std::fs::remove_file(&path);
}
