//! The real `tuzdik` binary: the `replay` and `perft` subcommands, and protocol sessions on
//! stdin/stdout. Every child runs under a timeout, so a hang fails the test instead of
//! blocking it.

mod common;

use std::path::PathBuf;
use std::process::ExitStatus;
use std::thread;
use std::time::{Duration, Instant};

use common::{Engine, assert_no_panic, run_binary};

use tuzdik::perft::perft;
use tuzdik::{Game, Position, Variant};

// ---------------------------------------------------------------------------------------------
// Running the binary

const TIMEOUT: Duration = Duration::from_secs(30);

fn manifest_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn data(name: &str) -> PathBuf {
    manifest_dir().join("tests").join("data").join(name)
}

/// What a finished run left behind.
struct Run {
    status: ExitStatus,
    stdout: String,
    stderr: String,
    elapsed: Duration,
}

impl Run {
    fn lines(&self) -> Vec<&str> {
        self.stdout.lines().collect()
    }

    /// Exit 0, nothing on stderr.
    fn assert_clean(&self) -> &Run {
        assert!(
            self.status.success(),
            "exit {:?}\nstdout:\n{}\nstderr:\n{}",
            self.status,
            self.stdout,
            self.stderr
        );
        assert_eq!(self.stderr, "", "stderr of a clean run");
        self
    }

    /// A non-zero exit with a message and no panic.
    fn assert_refused(&self) -> &Run {
        assert!(
            !self.status.success(),
            "expected a failure\nstdout:\n{}",
            self.stdout
        );
        assert!(!self.stderr.trim().is_empty(), "no message on stderr");
        assert_no_panic(&self.stderr);
        self
    }
}

/// Runs the binary with `args`, feeding `input` on stdin and then closing it.
fn run_with_input(args: &[&str], input: &[u8], timeout: Duration) -> Run {
    let started = Instant::now();
    let (status, stdout, stderr) = run_binary(args, input, timeout);
    Run {
        status,
        stdout,
        stderr,
        elapsed: started.elapsed(),
    }
}

fn run(args: &[&str]) -> Run {
    run_with_input(args, b"", TIMEOUT)
}

/// A protocol session fed a whole script at once.
fn session(script: &str) -> Run {
    run_with_input(&[], script.as_bytes(), TIMEOUT)
}

/// Splits a session's output at each `readyok`: the answer to each command of a script in
/// which every command is followed by `isready`.
fn answers(stdout: &str) -> Vec<Vec<&str>> {
    let mut out = vec![Vec::new()];
    for line in stdout.lines() {
        if line == "readyok" {
            out.push(Vec::new());
        } else {
            out.last_mut().unwrap().push(line);
        }
    }
    out
}

fn fen_line(lines: &[&str]) -> String {
    lines
        .iter()
        .find(|l| l.starts_with("Fen: "))
        .unwrap_or_else(|| panic!("no Fen line in {lines:?}"))
        .to_string()
}

// ---------------------------------------------------------------------------------------------
// The perft suite, to check counts against

/// The counts of `positions/perft.txt` for a variant spec and position string.
fn suite_counts(spec: &str, fen: &str) -> Vec<u64> {
    let path = manifest_dir().join("positions").join("perft.txt");
    let text = std::fs::read_to_string(&path).unwrap();
    for line in text.lines() {
        let fields: Vec<&str> = line.split(';').map(str::trim).collect();
        if line.starts_with('#') || fields.len() != 3 {
            continue;
        }
        if fields[0] == spec && fields[1] == fen {
            return fields[2]
                .split_whitespace()
                .map(|n| n.parse().unwrap())
                .collect();
        }
    }
    panic!("{spec} ; {fen} is not in positions/perft.txt")
}

fn suite_count(spec: &str, fen: &str, depth: usize) -> u64 {
    suite_counts(spec, fen)[depth - 1]
}

/// Parses perft output: the divide lines and the total.
fn parse_perft(lines: &[&str]) -> (Vec<(String, u64)>, u64) {
    let mut divide = Vec::new();
    let mut total = None;
    for line in lines {
        if let Some(n) = line.strip_prefix("Nodes searched: ") {
            total = Some(n.parse().unwrap());
        } else if let Some((mv, n)) = line.split_once(": ")
            && let Ok(n) = n.parse()
        {
            divide.push((mv.to_string(), n));
        }
    }
    (
        divide,
        total.unwrap_or_else(|| panic!("no total in {lines:?}")),
    )
}

const START: &str = "9,9,9,9,9,9,9,9,9/9,9,9,9,9,9,9,9,9 0 0 w 1";

// ---------------------------------------------------------------------------------------------
// tuzdik replay

#[test]
fn replay_of_the_sample_prints_the_summary() {
    let path = data("sample.pgn");
    let run = run(&["replay", path.to_str().unwrap()]);
    run.assert_clean();
    assert_eq!(
        run.stdout,
        "12 games, 11 finished, results agree (1244 moves)\n"
    );
}

#[test]
fn replay_of_each_bad_file_fails_naming_game_and_move() {
    // (file, what stderr must contain)
    let cases: [(&str, &[&str]); 11] = [
        (
            "wrong_landing.pgn",
            &[
                "game 2",
                "Event wrong landing hole",
                "move 1... '86'",
                "(line 13)",
                "lands in hole 7",
            ],
        ),
        (
            "wrong_kazan.pgn",
            &[
                "game 1",
                "move 2. '34(11)'",
                "(line 5)",
                "kazan is 11 afterwards, but it is 10",
            ],
        ),
        (
            "missing_tuzdik_mark.pgn",
            &[
                "game 1",
                "move 2... '11'",
                "(line 5)",
                "lacks a tuzdik mark",
            ],
        ),
        (
            "spurious_tuzdik_mark.pgn",
            &["game 2", "move 1... '76X'", "(line 12)", "makes no tuzdik"],
        ),
        (
            "illegal_move.pgn",
            &["game 1", "move 2. '7'", "(line 7)", "hole 7 is empty"],
        ),
        (
            "move_after_end.pgn",
            &["game 1", "move 1... '9'", "(line 7)", "the game is over"],
        ),
        (
            "wrong_result.pgn",
            &[
                "game 2",
                "(line 8",
                "result 0-1 is recorded, but the game ended 1-0",
            ],
        ),
        (
            "result_tag_mismatch.pgn",
            &["game 1", "the Result tag says * but the moves end with 1-0"],
        ),
        // Reading errors come before any game is replayed: they name the line.
        (
            "malformed_tag.pgn",
            &["line 8", "malformed tag '[Event \"malformed tag]'"],
        ),
        (
            "unclosed_comment.pgn",
            &["line 11", "comment is never closed"],
        ),
        (
            "garbage_token.pgn",
            &["line 11", "unexpected 'e4' in the moves"],
        ),
    ];
    for (name, parts) in cases {
        let path = data(&format!("bad/{name}"));
        let run = run(&["replay", path.to_str().unwrap()]);
        run.assert_refused();
        assert_eq!(run.stdout, "", "{name}: no summary for a bad file");
        let message = run.stderr.trim_end();
        assert_eq!(message.lines().count(), 1, "{name}: one line: {message}");
        assert!(message.starts_with("tuzdik: "), "{name}: {message}");
        assert!(
            message.contains(name),
            "{name}: the file is named: {message}"
        );
        for part in parts {
            assert!(
                message.contains(part),
                "{name}: '{part}' missing from: {message}"
            );
        }
    }
}

#[test]
fn replay_of_a_missing_file_fails_cleanly() {
    let path = data("no-such-file.pgn");
    let run = run(&["replay", path.to_str().unwrap()]);
    run.assert_refused();
    assert!(run.stderr.contains("no-such-file.pgn"), "{}", run.stderr);
    assert_eq!(run.stdout, "");
    // A directory is not a file either.
    let run = self::run(&["replay", data("bad").to_str().unwrap()]);
    run.assert_refused();
    assert!(!run.stderr.contains("line 0"), "{}", run.stderr);
    // No file at all is a usage error.
    let run = self::run(&["replay"]);
    run.assert_refused();
}

#[test]
fn replay_of_a_non_utf8_file_fails_cleanly() {
    let dir = std::env::temp_dir().join(format!("tuzdik-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("binary.pgn");
    std::fs::write(&path, [0x5b, 0xff, 0xfe, 0x00, 0x80, b'\n', 0xc3]).unwrap();
    let run = run(&["replay", path.to_str().unwrap()]);
    run.assert_refused();
    let _ = std::fs::remove_dir_all(&dir);
}

// ---------------------------------------------------------------------------------------------
// tuzdik bench

/// The node counts of a bench run: one per position (stderr) and the total (the last line of
/// stdout, `<N> nodes <M> nps`).
fn parse_bench(run: &Run) -> (Vec<u64>, u64) {
    assert!(run.status.success(), "{}", run.stderr);
    let per_position = run
        .stderr
        .lines()
        .filter_map(|line| line.strip_prefix("position "))
        .map(|rest| {
            let (_, nodes) = rest.split_once(": ").expect("position <i>: <n> nodes");
            nodes
                .trim_end_matches(" nodes")
                .parse()
                .expect("a node count")
        })
        .collect();
    let last = run.stdout.lines().last().expect("a last line");
    let words: Vec<&str> = last.split(' ').collect();
    assert_eq!(words.len(), 4, "{last}");
    assert_eq!((words[1], words[3]), ("nodes", "nps"), "{last}");
    assert!(words[2].parse::<u64>().is_ok(), "{last}");
    (per_position, words[0].parse().expect("a node total"))
}

#[test]
fn bench_reports_every_position_and_a_deterministic_total() {
    let positions = tuzdik::search::bench::positions().unwrap();
    let (each, total) = parse_bench(&run(&["bench", "4"]));
    assert_eq!(each.len(), positions.len());
    assert_eq!(each.iter().sum::<u64>(), total);
    assert_eq!(
        parse_bench(&run(&["bench", "4"])).1,
        total,
        "the signature repeats"
    );
}

#[test]
fn bare_bench_counts_the_libraries_bare_alpha_beta() {
    let (each, total) = parse_bench(&run(&["bench", "3", "--bare"]));
    let expected: Vec<u64> = tuzdik::search::bench::positions()
        .unwrap()
        .iter()
        .map(|game| tuzdik::search::bare::alpha_beta(game.position(), 3).1)
        .collect();
    assert_eq!(each, expected);
    assert_eq!(total, expected.iter().sum::<u64>());
}

#[test]
fn bench_depths_out_of_range_are_refused_by_name() {
    for (args, message) in [
        (vec!["bench", "0"], "bench depth 0 is outside 1..64"),
        (vec!["bench", "65"], "bench depth 65 is outside 1..64"),
        (
            vec!["bench", "13", "--bare"],
            "bare bench depth 13 is outside 1..12",
        ),
    ] {
        let run = run(&args);
        assert!(!run.status.success(), "{args:?}");
        assert!(run.stderr.contains(message), "{args:?}: {}", run.stderr);
        assert_eq!(run.stdout, "", "{args:?}");
    }
}

// ---------------------------------------------------------------------------------------------
// tuzdik perft

#[test]
fn perft_5_prints_nine_divide_lines_and_the_total() {
    let run = run(&["perft", "5"]);
    run.assert_clean();
    let lines = run.lines();
    let (divide, total) = parse_perft(&lines);
    assert_eq!(total, 43184);
    assert!(lines.contains(&"Nodes searched: 43184"));
    assert_eq!(divide.len(), 9, "{lines:?}");
    // Each line is `<hole>: <count>`, in hole order, and agrees with the library.
    let start = Position::start(Variant::TOGYZ);
    for (index, (mv, count)) in divide.iter().enumerate() {
        assert_eq!(mv, &(index + 1).to_string());
        let mut child = start;
        child.play(mv.parse().unwrap());
        assert_eq!(*count, perft(&child, 4), "divide of {mv}");
    }
    assert_eq!(
        &lines[..9].join(" "),
        "1: 5670 2: 4966 3: 4906 4: 4822 5: 4724 6: 4622 7: 4526 8: 4447 9: 4501"
    );
    assert_eq!(lines[9], "");
    assert_eq!(lines[10], "Nodes searched: 43184");
    assert!(lines[11].starts_with("Time: "), "{lines:?}");
    assert_eq!(lines.len(), 12);
}

#[test]
fn perft_options_give_the_suite_counts() {
    const KOZDATU: &str = "7,7,7,7,7,7,7/7,7,7,7,7,7,7 0 0 w 1";
    const BESTEMSHCHI: &str = "5,5,5,5,5/5,5,5,5,5 0 0 w 1";
    let fen_mid = "10,2,11,11,11,1,12,11,11/0,11,10,10,10,10,0,1,10 20 0 w 1";
    let fen_tuzdik = "12,11,1,12,3,2,3,13,3/14,14,2,0,15,14,X,12,12 19 0 b 1";
    let fen_kozdatu = "9,3,10,9,9,9,1/1,8,8,2,1,10,10 8 0 w 1";
    let fen_after_5 = "9,9,9,9,1,10,10,10,10/10,10,10,0,9,9,9,9,9 10 0 b 1";
    let fen_over = "0,X,0,2,0,1,3,8,1/1,3,0,10,1,1,1,2,0 46 82 b 1";
    // (arguments, the suite line (spec, position) whose counts apply)
    let cases: Vec<(Vec<&str>, (&str, &str))> = vec![
        (
            vec!["perft", "5", "--variant", "kozdatu"],
            ("kozdatu", KOZDATU),
        ),
        (
            vec!["perft", "5", "--variant", "bestemshchi"],
            ("bestemshchi", BESTEMSHCHI),
        ),
        (
            vec!["perft", "5", "--variant", "bestemshchi", "--tuzdik", "on"],
            ("bestemshchi tuzdik=on", BESTEMSHCHI),
        ),
        (
            vec!["perft", "5", "--variant", "kozdatu", "--tuzdik", "on"],
            ("kozdatu tuzdik=on", KOZDATU),
        ),
        (
            vec!["perft", "5", "--tuzdik", "off"],
            ("togyz tuzdik=off", START),
        ),
        (
            vec!["perft", "5", "--sowing", "skip-origin"],
            ("togyz sowing=skip-origin", START),
        ),
        (
            vec![
                "perft",
                "4",
                "--variant",
                "kozdatu",
                "--capture",
                "singleton",
            ],
            ("kozdatu capture=singleton", KOZDATU),
        ),
        (
            vec![
                "perft",
                "4",
                "--sowing",
                "skip-origin",
                "--capture",
                "singleton",
                "--tuzdik",
                "off",
            ],
            (
                "togyz tuzdik=off sowing=skip-origin capture=singleton",
                START,
            ),
        ),
        (vec!["perft", "4", "--fen", fen_mid], ("togyz", fen_mid)),
        (
            vec!["perft", "4", "--fen", fen_tuzdik],
            ("togyz", fen_tuzdik),
        ),
        (
            vec!["perft", "4", "--variant", "kozdatu", "--fen", fen_kozdatu],
            ("kozdatu", fen_kozdatu),
        ),
        (vec!["perft", "3", "--moves", "5"], ("togyz", fen_after_5)),
        (vec!["perft", "5", "--threads", "2"], ("togyz", START)),
        (vec!["perft", "5", "--hash", "16"], ("togyz", START)),
        (
            vec!["perft", "5", "--hash", "16", "--threads", "2"],
            ("togyz", START),
        ),
        (
            vec![
                "perft",
                "4",
                "--fen",
                fen_tuzdik,
                "--threads",
                "2",
                "--hash",
                "1",
            ],
            ("togyz", fen_tuzdik),
        ),
        (vec!["perft", "1"], ("togyz", START)),
        // A finished position has no moves: 0 at every depth from 1.
        (vec!["perft", "3", "--fen", fen_over], ("togyz", fen_over)),
    ];
    for (args, (spec, fen)) in cases {
        let depth: usize = args[1].parse().unwrap();
        let counts = suite_counts(spec, fen);
        let run = run(&args);
        run.assert_clean();
        let lines = run.lines();
        let (divide, total) = parse_perft(&lines);
        assert_eq!(total, counts[depth - 1], "{args:?}");
        // One line per legal move (perft 1 of the position), adding up to the total.
        assert_eq!(divide.len() as u64, counts[0], "{args:?}: {lines:?}");
        assert_eq!(
            divide.iter().map(|(_, n)| n).sum::<u64>(),
            total,
            "{args:?}"
        );
    }
    // Depth 0 counts the position itself and lists no moves.
    let run = run(&["perft", "0"]);
    run.assert_clean();
    assert_eq!(parse_perft(&run.lines()), (Vec::new(), 1));
}

#[test]
fn perft_refuses_bad_arguments() {
    let cases: [&[&str]; 16] = [
        &["perft", "3", "--variant", "chess"],
        &["perft", "3", "--fen", "garbage"],
        &[
            "perft",
            "3",
            "--fen",
            "9,9,9,9,9,9,9,9,9/9,9,9,9,9,9,9,9,9 0 0 x",
        ],
        &[
            "perft",
            "3",
            "--fen",
            "9,9,9,9,9,9,9,9,9/9,9,9,9,9,9,9,9,8 0 0 w",
        ],
        &["perft", "3", "--variant", "kozdatu", "--fen", START],
        &["perft", "3", "--threads", "0"],
        &["perft", "3", "--threads", "100000"],
        &["perft", "99"],
        &["perft", "31"],
        &["perft", "99999999999999999999"],
        &["perft", "-1"],
        &["perft", "three"],
        &["perft"],
        &["perft", "3", "--tuzdik", "maybe"],
        &["perft", "3", "--sowing", "sideways"],
        &["perft", "3", "--moves", "86"],
    ];
    for args in cases {
        let run = run(args);
        run.assert_refused();
        assert!(
            !run.stdout.contains("Nodes searched"),
            "{args:?}: {}",
            run.stdout
        );
        assert!(
            run.elapsed < Duration::from_secs(10),
            "{args:?} took {:?}",
            run.elapsed
        );
    }
    // The messages say what is wrong.
    let said = |args: &[&str]| run(args).stderr;
    assert!(said(&["perft", "3", "--variant", "chess"]).contains("unknown variant 'chess'"));
    assert!(said(&["perft", "3", "--fen", "garbage"]).contains("--fen"));
    assert!(said(&["perft", "3", "--threads", "0"]).contains("--threads 0"));
    assert!(said(&["perft", "99"]).contains("depth 99 is beyond the limit"));
}

#[test]
fn unknown_subcommands_and_flags_are_usage_errors() {
    for args in [
        &["jump"][..],
        &["perft", "3", "--colour", "red"],
        &["--frobnicate"],
    ] {
        let run = run(args);
        run.assert_refused();
        assert_eq!(run.status.code(), Some(2), "{args:?}");
    }
    let help = run(&["--help"]);
    help.assert_clean();
    assert!(help.stdout.contains("perft") && help.stdout.contains("replay"));
}

// ---------------------------------------------------------------------------------------------
// The protocol: handshakes and simple answers

fn option_names(lines: &[&str]) -> Vec<String> {
    lines
        .iter()
        .filter_map(|l| l.strip_prefix("option name "))
        .map(|rest| rest.split(" type ").next().unwrap().to_string())
        .collect()
}

#[test]
fn uci_handshake() {
    let run = session("uci\n");
    run.assert_clean();
    let lines = run.lines();
    assert!(
        lines[0].starts_with("id name ") && lines[0].len() > "id name ".len(),
        "{lines:?}"
    );
    assert!(lines[0].contains(env!("CARGO_PKG_VERSION")), "{lines:?}");
    assert!(lines[1].starts_with("id author ") && lines[1].len() > "id author ".len());
    assert_eq!(lines.last(), Some(&"uciok"));
    // Nothing but option lines between the ids and uciok.
    assert!(
        lines[2..lines.len() - 1]
            .iter()
            .all(|l| l.starts_with("option name ")),
        "{lines:?}"
    );
    let names = option_names(&lines);
    for wanted in [
        "UCI_Variant",
        "Tuzdik",
        "Sowing",
        "Capture",
        "Mangala",
        "Threads",
        "LongMoves",
        "Hash",
        "Clear Hash",
        "MultiPV",
        "Ponder",
        "Move Overhead",
    ] {
        assert!(
            names.iter().any(|n| n == wanted),
            "no option {wanted}: {names:?}"
        );
    }
    assert!(lines.contains(
        &"option name UCI_Variant type combo default togyz var togyz var kozdatu var bestemshchi var mangala4"
    ));
    assert!(lines.contains(&"option name Tuzdik type check default true"));
    assert!(
        lines.contains(
            &"option name Sowing type combo default standard var standard var skip-origin"
        )
    );
    assert!(
        lines.contains(
            &"option name Capture type combo default standard var standard var singleton"
        )
    );
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("option name Threads type spin default 1 min 1 max "))
    );
    assert!(lines.contains(&"option name LongMoves type check default false"));
}

#[test]
fn ugi_handshake_and_isready() {
    let run = session("ugi\nisready\n");
    run.assert_clean();
    let lines = run.lines();
    assert!(lines[0].starts_with("id name "));
    assert!(lines[1].starts_with("id author "));
    let ok = lines.iter().position(|l| *l == "ugiok").expect("ugiok");
    assert_eq!(&lines[ok + 1..], ["readyok"]);
    assert!(!lines.contains(&"uciok"));
    assert_eq!(
        option_names(&lines),
        option_names(&session("uci\n").lines())
    );

    let run = session("isready\n");
    run.assert_clean();
    assert_eq!(run.stdout, "readyok\n");
}

#[test]
fn handshake_advertises_the_current_variant() {
    let run = session("setoption name UCI_Variant value kozdatu\nuci\n");
    run.assert_clean();
    let lines = run.lines();
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("option name UCI_Variant type combo default kozdatu")),
        "{lines:?}"
    );
    assert!(
        lines.contains(&"option name Tuzdik type check default false"),
        "{lines:?}"
    );
}

#[test]
fn position_and_d() {
    let run = session("position startpos moves 8 87(10)\nd\n");
    run.assert_clean();
    let lines = run.lines();
    assert!(
        lines.contains(&"Fen: 10,10,10,10,10,10,0,1,10/10,10,10,10,10,10,0,1,10 10 10 w 2"),
        "{lines:?}"
    );
    let key = lines
        .iter()
        .find_map(|l| l.strip_prefix("Key: "))
        .expect("a Key line");
    assert_eq!(key.len(), 16, "{key}");
    assert!(key.bytes().all(|b| b.is_ascii_hexdigit()), "{key}");
    let mut game = Game::new(Variant::TOGYZ);
    game.play_text("8").unwrap();
    game.play_text("87(10)").unwrap();
    assert_eq!(u64::from_str_radix(key, 16).unwrap(), game.position().key());
    assert!(lines.contains(&"Legal: 1 2 3 4 5 6 8 9"), "{lines:?}");
    // The three lines come last, in this order, after the drawing.
    let n = lines.len();
    assert!(
        lines[n - 3].starts_with("Fen: ")
            && lines[n - 2].starts_with("Key: ")
            && lines[n - 1].starts_with("Legal: ")
    );
    assert!(
        lines[..n - 3].iter().any(|l| l.contains("kazan")),
        "a board drawing: {lines:?}"
    );

    // Another position, another key; the start position from a FEN is the start position.
    let a = session(&format!(
        "position fen {START}\nd\nposition startpos\nd\nposition startpos moves 1\nd\n"
    ));
    let keys: Vec<&str> = a
        .lines()
        .into_iter()
        .filter(|l| l.starts_with("Key: "))
        .collect();
    assert_eq!(keys.len(), 3);
    assert_eq!(keys[0], keys[1]);
    assert_ne!(keys[0], keys[2]);
    assert_eq!(
        keys[0],
        format!("Key: {:016X}", Position::start(Variant::TOGYZ).key())
    );
}

#[test]
fn position_with_north_to_move_and_a_fullmove_number() {
    let fen = "12,11,1,12,3,2,3,13,3/14,14,2,0,15,14,X,12,12 19 0 b 17";
    let run = session(&format!(
        "position fen {fen}\nd\nquery p1turn\nposition fen {fen} moves 1\nd\nquery p1turn\n"
    ));
    run.assert_clean();
    let lines = run.lines();
    let fens: Vec<&str> = lines
        .iter()
        .copied()
        .filter(|l| l.starts_with("Fen: "))
        .collect();
    assert_eq!(fens[0], format!("Fen: {fen}"));
    assert!(fens[1].ends_with(" w 18"), "{fens:?}");
    let turns: Vec<&str> = lines
        .iter()
        .copied()
        .filter(|l| l.starts_with("response"))
        .collect();
    assert_eq!(turns, ["response false", "response true"]);
}

#[test]
fn every_bad_command_gives_one_error_and_keeps_the_position() {
    let bad = [
        "foo",
        "foo bar baz",
        "position startpos moves 8 86",
        "position startpos moves 8 87(10) 7",
        "position startpos moves 8 87(11)",
        "position startpos moves 1 2 x",
        "position fen garbage",
        "position fen 9,9/9 0 0 w",
        "position fen 9,9,9,9,9,9,9,9,9/9,9,9,9,9,9,9,9,9 0 0 x",
        "position fen 9,9,9,9,9,9,9,9,9/9,9,9,9,9,9,9,9,8 0 0 w",
        "position fen 7,7,7,7,7,7,7/7,7,7,7,7,7,7 0 0 w",
        "position fen X,9,9,9,9,9,9,9,9/X,9,9,9,9,9,9,9,9 0 0 w",
        "position",
        "position startpos 7",
        "position fen",
        "setoption name Colour value red",
        "setoption name Threads value 0",
        "setoption name Threads value many",
        "setoption name UCI_Variant value chess",
        "setoption name Tuzdik value maybe",
        "setoption name Sowing value sideways",
        "setoption name Capture value all",
        "setoption name Hash value 0",
        "setoption name Hash value lots",
        "setoption name MultiPV value 10",
        "setoption name Move Overhead value -1",
        "setoption name Clear Hash value now",
        "setoption name LongMoves",
        "setoption Hash 3",
        "setoption name",
        "perft",
        "perft x",
        "perft -1",
        "perft 1 2",
        "perft 31",
        "query",
        "query colour",
        "isready now",
        "uci please",
        "d d",
        "bench x",
    ];
    let mut script = String::from("position startpos moves 8 87(10)\nd\nisready\n");
    for line in bad {
        script.push_str(line);
        script.push_str("\nisready\n");
    }
    script.push_str("d\n");
    let run = session(&script);
    run.assert_clean();
    let answers = answers(&run.stdout);
    assert_eq!(answers.len(), bad.len() + 2, "{}", run.stdout);
    let before = fen_line(&answers[0]);
    assert_eq!(
        before,
        "Fen: 10,10,10,10,10,10,0,1,10/10,10,10,10,10,10,0,1,10 10 10 w 2"
    );
    for (line, answer) in bad.iter().zip(&answers[1..]) {
        assert_eq!(answer.len(), 1, "'{line}' answered {answer:?}");
        assert!(
            answer[0].starts_with("info string error: "),
            "'{line}' answered {answer:?}"
        );
    }
    assert_eq!(fen_line(&answers[bad.len() + 1]), before);
    // The messages say what went wrong.
    let said = |i: usize| answers[i + 1][0];
    assert!(said(0).contains("unknown command 'foo'"), "{}", said(0));
    assert!(said(2).contains("86"), "{}", said(2));
    assert!(said(3).contains("hole 7 is empty"), "{}", said(3));
    assert!(said(6).contains("garbage"), "{}", said(6));
    assert!(said(15).contains("Colour"), "{}", said(15));
    assert!(said(16).contains("Threads"), "{}", said(16));
}

#[test]
fn a_bad_option_value_keeps_the_old_rules() {
    // A refused UCI_Variant leaves togyz (and the position) alone; a good one resets to the
    // variant's start.
    let run = session(concat!(
        "position startpos moves 1\n",
        "setoption name UCI_Variant value chess\n",
        "d\n",
        "setoption name uci_variant value BESTEMSHCHI\n",
        "d\n",
        "setoption name Sowing value skip-origin\n",
        "perft 3\n",
    ));
    run.assert_clean();
    let lines = run.lines();
    let fens: Vec<&str> = lines
        .iter()
        .copied()
        .filter(|l| l.starts_with("Fen: "))
        .collect();
    assert_eq!(
        fens,
        [
            "Fen: 1,10,10,10,10,10,10,10,10/9,9,9,9,9,9,9,9,9 0 0 b 1",
            "Fen: 5,5,5,5,5/5,5,5,5,5 0 0 w 1"
        ]
    );
    assert_eq!(
        parse_perft(&lines).1,
        suite_count(
            "bestemshchi sowing=skip-origin",
            "5,5,5,5,5/5,5,5,5,5 0 0 w 1",
            3
        )
    );
}

#[test]
fn perft_4_in_a_session() {
    // End of input lets a running perft finish.
    let run = session("perft 4\n");
    run.assert_clean();
    let lines = run.lines();
    let (divide, total) = parse_perft(&lines);
    assert_eq!(total, 5199);
    assert_eq!(lines.last(), Some(&"Nodes searched: 5199"));
    assert_eq!(lines.len(), 11, "{lines:?}");
    assert_eq!(lines[9], "");
    let start = Position::start(Variant::TOGYZ);
    for (index, (mv, count)) in divide.iter().enumerate() {
        assert_eq!(mv, &(index + 1).to_string());
        let mut child = start;
        child.play(mv.parse().unwrap());
        assert_eq!(*count, perft(&child, 3), "{mv}");
    }
}

#[test]
fn perft_follows_the_position_and_the_threads_option() {
    let fen = "15,5,16,3,14,1,1,3,2/4,X,14,1,2,16,2,15,6 26 16 w 1";
    let mut engine = Engine::start();
    for (setup, depth, expected) in [
        (
            format!("position fen {fen}"),
            4,
            suite_count("togyz", fen, 4),
        ),
        (
            "setoption name Threads value 2".to_string(),
            4,
            suite_count("togyz", fen, 4),
        ),
        ("position startpos moves 5".to_string(), 3, 568),
        (
            "setoption name UCI_Variant value kozdatu".to_string(),
            5,
            11262,
        ),
        ("setoption name Tuzdik value on".to_string(), 5, 11158),
    ] {
        engine.send(&setup);
        engine.send(&format!("perft {depth}"));
        let lines = engine.read_until(|l| l.starts_with("Nodes searched: "), TIMEOUT);
        let refs: Vec<&str> = lines.iter().map(String::as_str).collect();
        assert_eq!(parse_perft(&refs).1, expected, "{setup}: {refs:?}");
    }
    engine.send("quit");
    let (status, rest) = engine.finish(TIMEOUT);
    assert!(status.success());
    assert!(rest.is_empty(), "{rest:?}");
}

#[test]
fn long_moves_in_perft_and_d() {
    // LongMoves prints moves as PlayOK long forms without the (k) annotation.
    let run = session(
        "setoption name LongMoves value true\nposition startpos moves 8 87(10)\nd\nperft 1\n",
    );
    run.assert_clean();
    let lines = run.lines();
    assert!(
        lines.contains(&"Legal: 11 22 33 44 55 66 89 99"),
        "{lines:?}"
    );
    let (divide, total) = parse_perft(&lines);
    let moves: Vec<&str> = divide.iter().map(|(m, _)| m.as_str()).collect();
    assert_eq!(moves, ["11", "22", "33", "44", "55", "66", "89", "99"]);
    assert_eq!(total, 8);
    // The drawing marks holes with ( ) and names the last move as records write it; the
    // move lists after it are long forms without (k).
    let mut after_drawing = lines.iter().skip_while(|l| !l.starts_with("Fen: "));
    assert!(
        !after_drawing.any(|l| l.contains('(')),
        "no (k) in long moves: {lines:?}"
    );

    // A move that makes a tuzdik shows X: after 19 32 23, North's hole 1 makes one on
    // South's hole 1.
    let run = session(
        "setoption name LongMoves value on\nposition startpos moves 19 32 23(2)\nperft 2\n",
    );
    run.assert_clean();
    let lines = run.lines();
    let (divide, _) = parse_perft(&lines);
    assert_eq!(divide[0].0, "11X", "{lines:?}");
    let mut game = Game::new(Variant::TOGYZ);
    for mv in ["19", "32", "23(2)"] {
        game.play_text(mv).unwrap();
    }
    let pos = *game.position();
    let expected: Vec<String> = pos
        .legal_moves()
        .iter()
        .map(|&m| pos.long_notation(m, false))
        .collect();
    assert_eq!(
        divide.iter().map(|(m, _)| m.clone()).collect::<Vec<_>>(),
        expected
    );
    for (mv, count) in &divide {
        let child = pos.after(pos.parse_move(mv).unwrap()).unwrap();
        assert_eq!(*count, perft(&child, 1), "{mv}");
    }

    // Off again: short forms.
    let run =
        session("setoption name LongMoves value true\nsetoption name LongMoves value false\nd\n");
    assert!(
        run.lines().contains(&"Legal: 1 2 3 4 5 6 7 8 9"),
        "{}",
        run.stdout
    );
}

#[test]
fn queries() {
    let script = concat!(
        "query gameover\nquery p1turn\nquery result\n",
        "position startpos moves 8\nquery p1turn\nquery gameover\n",
        // South reaches 82: South wins.
        "position fen 0,0,0,0,0,0,0,0,2/1,0,0,0,0,0,0,0,5 80 74 w 1 moves 91(82)\n",
        "query gameover\nquery result\nquery p1turn\n",
        // South to move with an empty row: North takes its own stone, 82.
        "position fen 0,0,0,0,0,0,0,0,0/1,0,0,0,0,0,0,0,0 80 81 w\n",
        "query gameover\nquery result\n",
        // North is left without stones: 81-81.
        "position fen 1,0,0,0,0,0,0,0,0/0,0,0,0,0,0,0,0,0 80 81 w moves 12\n",
        "query gameover\nquery result\n",
        // Bestemshchi: two lone stones go round until the board repeats: shared 25-25.
        "setoption name UCI_Variant value bestemshchi\n",
        "position fen 1,0,0,0,0/1,0,0,0,0 24 24 w moves 12 12 23 23 34 34 45 45 51\n",
        "query gameover\nquery result\n",
        "position fen 1,0,0,0,0/1,0,0,0,0 24 24 w moves 12 12 23 23 34 34 45 45 51 51\n",
        "query gameover\nquery result\nd\n",
        "QUERY GameOver\n",
    );
    let run = session(script);
    run.assert_clean();
    let lines = run.lines();
    let responses: Vec<&str> = lines
        .iter()
        .copied()
        .filter(|l| l.starts_with("response "))
        .collect();
    assert_eq!(
        responses,
        [
            "response false",
            "response true",
            "response none",
            "response false",
            "response false",
            "response true",
            "response p1win",
            "response false",
            "response true",
            "response p2win",
            "response true",
            "response draw",
            "response false",
            "response none",
            "response true",
            "response draw",
            "response true",
        ]
    );
    // A game over by repetition has no legal moves, though the bare position has.
    assert!(lines.contains(&"Legal: "), "{lines:?}");
    assert!(
        !lines.iter().any(|l| l.starts_with("info string error")),
        "{lines:?}"
    );
}

#[test]
fn a_finished_game_refuses_further_moves() {
    let run = session(concat!(
        "position fen 0,0,0,0,0,0,0,0,2/1,0,0,0,0,0,0,0,5 80 74 w 1 moves 91(82)\n",
        "isready\n",
        "position fen 0,0,0,0,0,0,0,0,2/1,0,0,0,0,0,0,0,5 80 74 w 1 moves 91(82) 9\n",
        "isready\n",
        "d\n",
        "perft 2\n",
    ));
    run.assert_clean();
    let answers = answers(&run.stdout);
    assert!(answers[0].is_empty());
    assert_eq!(answers[1].len(), 1);
    assert!(
        answers[1][0].starts_with("info string error: ") && answers[1][0].contains("over"),
        "{:?}",
        answers[1]
    );
    let rest = &answers[2];
    assert!(rest.contains(&"Legal: "), "{rest:?}");
    assert!(rest.contains(&"Nodes searched: 0"), "{rest:?}");
}

// ---------------------------------------------------------------------------------------------
// The protocol: running jobs, stop, quit, end of input

fn is_perft_end(line: &str) -> bool {
    line.starts_with("Nodes searched: ") || line.starts_with("info string perft stopped")
}

#[test]
fn isready_is_answered_during_perft_11_and_stop_ends_it() {
    let started = Instant::now();
    let mut engine = Engine::start();
    // perft 11 from the start is about 1.6e10 nodes: minutes even optimised.
    engine.send("perft 11");
    engine.send("isready");
    let before = engine.read_until(|l| l == "readyok", Duration::from_secs(2));
    assert!(!before.iter().any(|l| is_perft_end(l)), "{before:?}");
    // `d` and `query` answer too, and see the position the perft runs on.
    engine.send("d");
    let drawing = engine.read_until(|l| l.starts_with("Legal: "), Duration::from_secs(2));
    assert!(
        drawing.iter().any(|l| l == &format!("Fen: {START}")),
        "{drawing:?}"
    );
    engine.send("query p1turn");
    engine.read_until(|l| l == "response true", Duration::from_secs(2));
    thread::sleep(Duration::from_millis(200));
    let stop_sent = Instant::now();
    engine.send("stop");
    let end = engine.read_until(is_perft_end, Duration::from_secs(10));
    let latency = stop_sent.elapsed();
    assert!(
        latency < Duration::from_millis(2500),
        "stop took {latency:?}: {end:?}"
    );
    // The engine is idle and answers as before; a second stop is ignored.
    engine.send("stop");
    assert_eq!(engine.sync(), Vec::<String>::new());
    engine.send("perft 2");
    let lines = engine.read_until(|l| l.starts_with("Nodes searched: "), TIMEOUT);
    assert_eq!(lines.last().map(String::as_str), Some("Nodes searched: 73"));
    engine.send("quit");
    let (status, rest) = engine.finish(Duration::from_secs(5));
    assert!(status.success());
    assert!(rest.is_empty(), "{rest:?}");
    assert!(
        started.elapsed() < Duration::from_secs(5),
        "session took {:?}",
        started.elapsed()
    );
}

#[test]
fn a_new_command_ends_a_running_perft_first() {
    // Commands that change state stop the job; the new perft then runs to the end.
    let mut engine = Engine::start();
    engine.send("perft 11");
    engine.sync();
    engine.send("position startpos moves 1");
    engine.send("perft 3");
    let lines = engine.read_until(
        |l| l.starts_with("Nodes searched: "),
        Duration::from_secs(10),
    );
    let mut after_1 = Position::start(Variant::TOGYZ);
    after_1.play("1".parse().unwrap());
    assert_eq!(
        lines.last().unwrap(),
        &format!("Nodes searched: {}", perft(&after_1, 3))
    );
    assert_eq!(
        lines.iter().filter(|l| is_perft_end(l)).count(),
        2,
        "{lines:?}"
    );
    engine.send("quit");
    let (status, _) = engine.finish(Duration::from_secs(5));
    assert!(status.success());
}

#[test]
fn quit_exits_at_once_and_ignores_the_rest() {
    let run = session("isready\nquit\nisready\nuci\n");
    run.assert_clean();
    assert_eq!(run.stdout, "readyok\n");
    let run = session("QUIT\n");
    run.assert_clean();
    assert_eq!(run.stdout, "");
}

#[test]
fn quit_during_a_perft_exits_0() {
    let mut engine = Engine::start();
    engine.send("perft 11");
    engine.sync();
    let quit_sent = Instant::now();
    engine.send("quit");
    let (status, _) = engine.finish(Duration::from_secs(10));
    assert!(status.success());
    assert!(
        quit_sent.elapsed() < Duration::from_secs(4),
        "quit took {:?}",
        quit_sent.elapsed()
    );
}

#[test]
fn end_of_input_exits_0() {
    for script in ["", "isready\n", "isready", "\n\n\n", "uci\nisready\n"] {
        let run = session(script);
        run.assert_clean();
        if script.contains("isready") {
            assert!(
                run.stdout.ends_with("readyok\n"),
                "{script:?}: {}",
                run.stdout
            );
        } else if script.trim().is_empty() {
            assert_eq!(run.stdout, "", "{script:?}");
        }
    }
}

// ---------------------------------------------------------------------------------------------
// The protocol: hostile input

/// Deterministic junk: SplitMix64 bytes.
fn junk(seed: u64, len: usize) -> Vec<u8> {
    let mut state = seed;
    (0..len)
        .map(|_| {
            state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
            let mut z = state;
            z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
            (z ^ (z >> 31)) as u8
        })
        .collect()
}

/// After the hostile `input`: exit 0, no panic, an `isready` still answered, and the position
/// as it was.
fn survives(input: &[u8]) -> Run {
    let mut script = b"position startpos moves 8 87(10)\n".to_vec();
    script.extend_from_slice(input);
    script.extend_from_slice(b"\nisready\nd\n");
    let run = run_with_input(&[], &script, TIMEOUT);
    assert!(
        run.status.success(),
        "exit {:?}: {}",
        run.status,
        run.stderr
    );
    let lines = run.lines();
    assert!(lines.contains(&"readyok"), "no readyok");
    assert_eq!(
        fen_line(&lines),
        "Fen: 10,10,10,10,10,10,0,1,10/10,10,10,10,10,10,0,1,10 10 10 w 2"
    );
    run
}

#[test]
fn binary_garbage_never_crashes() {
    // High bytes only (never valid UTF-8, never a command word), with line breaks, NULs and
    // spaces between them.
    let mut input = Vec::new();
    for (i, byte) in junk(7, 200_000).into_iter().enumerate() {
        input.push(match byte % 16 {
            0 => b'\n',
            1 => b'\r',
            2 => 0,
            3 => b' ',
            _ => byte | 0x80,
        });
        if i % 50_000 == 0 {
            input.extend_from_slice(b"\nisready\n");
        }
    }
    let run = survives(&input);
    // Every garbage line that is not blank is one error; the output stays valid UTF-8.
    let lines = run.lines();
    let tail = lines
        .iter()
        .position(|l| l.starts_with("  "))
        .unwrap_or(lines.len());
    for line in &lines[..tail] {
        assert!(
            *line == "readyok" || line.starts_with("info string error: "),
            "unexpected line {line:?}"
        );
    }
    assert_eq!(lines.iter().filter(|l| **l == "readyok").count(), 5);

    // Fully random bytes too, including ASCII.
    for seed in 1..4 {
        let mut bytes = junk(seed, 100_000);
        // A random "quit" would end the session early, which is allowed but not tested here.
        for window in 0..bytes.len().saturating_sub(3) {
            if bytes[window..window + 4].eq_ignore_ascii_case(b"quit") {
                bytes[window] = b'#';
            }
        }
        survives(&bytes);
    }
}

#[test]
fn a_2_mib_line_is_refused_whole() {
    let mut input = vec![b'x'; 2 << 20];
    input.extend_from_slice(b"\nisready\n");
    // A long `position` line, refused whole: the position stays.
    input.extend_from_slice(b"position startpos moves");
    while input.len() < (5 << 20) {
        input.extend_from_slice(b" 1");
    }
    input.push(b'\n');
    // 2 MiB of spaces, then a 2 MiB line with no newline before the end of a chunk.
    input.extend(std::iter::repeat_n(b' ', 2 << 20));
    input.push(b'\n');
    let run = survives(&input);
    let lines = run.lines();
    let errors: Vec<&str> = lines
        .iter()
        .copied()
        .filter(|l| l.starts_with("info string error: "))
        .collect();
    assert_eq!(errors.len(), 3, "{errors:?}");
    assert!(errors[0].contains("2097152 bytes ignored"), "{errors:?}");
    assert!(errors.iter().all(|e| e.len() < 200), "errors stay short");
    assert!(run.elapsed < Duration::from_secs(20), "{:?}", run.elapsed);
}

#[test]
fn a_long_but_allowed_position_line_is_played() {
    // A long game in one line, under the 1 MiB limit: 10 plies that repeat, so the rest of
    // the moves are refused with one error (the game is over) and the position stays.
    let mut line = String::from(
        "setoption name UCI_Variant value bestemshchi\nposition fen 1,0,0,0,0/1,0,0,0,0 24 24 w moves",
    );
    for _ in 0..2 {
        line.push_str(" 12 12 23 23 34 34 45 45 51 51");
    }
    line.push_str(
        "\nd\nposition fen 1,0,0,0,0/1,0,0,0,0 24 24 w moves 12 12 23 23 34 34 45 45 51 51\nd\n",
    );
    let run = session(&line);
    run.assert_clean();
    let lines = run.lines();
    let errors: Vec<&str> = lines
        .iter()
        .copied()
        .filter(|l| l.starts_with("info string error: "))
        .collect();
    assert_eq!(errors.len(), 1, "{lines:?}");
    assert!(errors[0].contains("move 11 '12'"), "{errors:?}");
    let fens: Vec<&str> = lines
        .iter()
        .copied()
        .filter(|l| l.starts_with("Fen: "))
        .collect();
    assert_eq!(
        fens,
        [
            "Fen: 5,5,5,5,5/5,5,5,5,5 0 0 w 1",
            "Fen: 1,0,0,0,0/1,0,0,0,0 24 24 w 6"
        ]
    );
}

#[test]
fn blank_lines_are_ignored() {
    let run = session("   \n\t\t\n \r\n\r\n\n        \t \nisready\n");
    run.assert_clean();
    assert_eq!(run.stdout, "readyok\n");
    // CRLF line ends work for commands too.
    let run = session("isready\r\nposition startpos moves 1\r\nquery p1turn\r\n");
    run.assert_clean();
    assert_eq!(run.stdout, "readyok\nresponse false\n");
}

#[test]
fn huge_numbers_never_crash() {
    let lines = [
        "perft 99999999999999999999",
        "perft 18446744073709551615",
        "perft 4294967296",
        "bench 99999999999999999999",
        "setoption name Threads value 99999999999999999999",
        "setoption name Threads value -1",
        "position fen 9,9,9,9,9,9,9,9,9/9,9,9,9,9,9,9,9,9 0 0 w 99999999999999999999",
        "position fen 9,9,9,9,9,9,9,9,9/9,9,9,9,9,9,9,9,99999999999999999999999 0 0 w",
        "position fen 9,9,9,9,9,9,9,9,9/9,9,9,9,9,9,9,9,9 99999999999999999999 0 w",
        "position fen 9,9,9,9,9,9,9,9,9/9,9,9,9,9,9,9,9,9 4294967296 0 w",
        "position fen 9,9,9,9,9,9,9,9,264/9,9,9,9,9,9,9,9,9 0 0 w",
        "position startpos moves 99999999999999999999",
        "position startpos moves 1(99999999999999999999)",
        "position startpos moves 11(4294967306)",
        "query 99999999999999999999",
    ];
    let mut script = String::new();
    for line in lines {
        script.push_str(line);
        script.push_str("\nisready\n");
    }
    let run = survives(script.as_bytes());
    let answers = answers(&run.stdout);
    // The position line comes first and answers nothing; then one error per huge line.
    for (line, answer) in lines.iter().zip(&answers) {
        assert_eq!(answer.len(), 1, "'{line}' answered {answer:?}");
        assert!(
            answer[0].starts_with("info string error: "),
            "'{line}' answered {answer:?}"
        );
    }
}

#[test]
fn go_bench_and_eval_do_not_crash_the_session() {
    // A search is being written: only check that the session survives and still answers.
    let commands = [
        "go",
        "go depth 3",
        "go depth 99999999999999999999999",
        "go nodes 99999999999999999999",
        "go movetime 10",
        "go wtime -5 btime -5",
        "go wtime 100000 btime 1 winc 100 binc 99999999999999999999 movestogo 0",
        "go depth 0",
        "go nodes 0",
        "go movetime 0",
        "go mate 0",
        "go depth 2 searchmoves 86 7 x",
        "go p1time 100 p2time 100",
        "go infinite",
        "go ponder",
        "go searchmoves 1 2 3",
        "go searchmoves",
        "go mate 99999999999999999999",
        "go depth",
        "go wibble",
        "ponderhit",
        "bench",
        "bench 1",
        "eval",
        "ucinewgame",
        "uginewgame",
    ];
    let mut engine = Engine::start();
    engine.send("position startpos moves 8 87(10)");
    for command in commands {
        engine.send(command);
        engine.send("stop");
        engine.sync();
    }
    // The same on a finished game.
    engine.send("position fen 0,0,0,0,0,0,0,0,2/1,0,0,0,0,0,0,0,5 80 74 w 1 moves 91(82)");
    for command in ["go", "go depth 5", "eval", "bench 1"] {
        engine.send(command);
        engine.send("stop");
        engine.sync();
    }
    engine.send("quit");
    let (status, _) = engine.finish(TIMEOUT);
    assert!(status.success());
}

// ---------------------------------------------------------------------------------------------
// Regression tests for bugs found by driving the binary.

/// Clock values at the edge of `i64` once overflowed in the time planner (a panic unoptimised,
/// a wrapped-around budget optimised). A huge clock is a long think, which `stop` ends; a
/// hugely negative move time is an instant answer.
#[test]
fn huge_clock_values_do_not_break_the_search() {
    for go in [
        "go wtime 99999999999999999999",
        "go wtime 9223372036854775807 btime 1000",
        "go wtime 1000 winc 99999999999999999999",
        "go movetime -99999999999999999999",
    ] {
        let mut engine = Engine::start();
        engine.send(go);
        std::thread::sleep(Duration::from_millis(200));
        engine.send("stop");
        let lines = engine.read_until(|l| l.starts_with("bestmove "), Duration::from_secs(10));
        assert!(lines.last().unwrap().starts_with("bestmove "), "{go}");
        engine.send("quit");
        let (status, _) = engine.finish(Duration::from_secs(5));
        assert!(status.success(), "{go}");
    }
}

/// End of input stops an unbounded search, which answers its bestmove, and the engine exits.
#[test]
fn end_of_input_stops_an_unbounded_search() {
    for script in ["go infinite\n", "go ponder\n", "go\n", "go mate 1\n"] {
        let run = run_with_input(&[], script.as_bytes(), Duration::from_secs(10));
        assert!(run.status.success(), "{script:?}");
        assert!(run.stdout.contains("bestmove "), "{script:?}");
    }
}
