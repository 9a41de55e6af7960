//! The real binary driven through stdin/stdout: searches, their limits and their answers.

mod common;

use std::time::{Duration, Instant};

use common::{Engine, field, last_info, last_line};

const LONG: Duration = Duration::from_secs(60);

#[test]
fn go_depth_reports_every_iteration_and_one_bestmove() {
    let mut engine = Engine::start();
    engine.send("position startpos");
    engine.send("go depth 6");
    let lines = engine.until("bestmove", LONG);
    let infos: Vec<&String> = lines
        .iter()
        .filter(|l| l.starts_with("info depth") && !l.contains("bound") && l.contains(" pv "))
        .collect();
    let depths: Vec<u32> = infos
        .iter()
        .map(|l| field(l, "depth").unwrap().parse().unwrap())
        .collect();
    assert_eq!(depths, (1..=6).collect::<Vec<_>>(), "{lines:#?}");
    let last = last_info(&lines);
    assert_eq!(field(last, "depth"), Some("6"));
    for key in [
        "seldepth", "multipv", "score", "nodes", "nps", "hashfull", "time", "pv",
    ] {
        assert!(field(last, key).is_some(), "{key} missing in {last}");
    }
    let best = lines.last().unwrap();
    let best_move = field(best, "bestmove").unwrap();
    assert!(("1"..="9").contains(&best_move), "{best}");
    assert_eq!(field(last, "pv"), Some(best_move));
    // Exactly one bestmove: nothing more arrives.
    assert!(engine.drain(Duration::from_millis(200)).is_empty());
    engine.quit();
}

#[test]
fn nodes_limit_is_exact_on_one_thread_and_reproducible() {
    let run = || {
        let mut engine = Engine::start();
        engine.send("position startpos moves 7 8");
        engine.send("go nodes 20000");
        let lines = engine.until("bestmove", LONG);
        engine.quit();
        lines
    };
    let first = run();
    let second = run();
    let nodes = |lines: &[String]| -> u64 {
        let last = last_info(lines);
        field(last, "nodes").unwrap().parse().unwrap()
    };
    let n = nodes(&first);
    assert!((19_000..=21_000).contains(&n), "nodes {n}");
    assert_eq!(first.last(), second.last());
    assert_eq!(n, nodes(&second));
}

#[test]
fn isready_is_answered_during_infinite_search_and_stop_ends_it() {
    let mut engine = Engine::start();
    engine.send("position startpos");
    engine.send("go infinite");
    std::thread::sleep(Duration::from_millis(300));
    engine.send("isready");
    let lines = engine.until("readyok", Duration::from_secs(2));
    assert!(!lines.iter().any(|l| l.starts_with("bestmove")));
    std::thread::sleep(Duration::from_millis(200));
    let asked = Instant::now();
    engine.send("stop");
    let lines = engine.until("bestmove", Duration::from_secs(2));
    assert!(
        asked.elapsed() < Duration::from_millis(500),
        "stop took {:?}",
        asked.elapsed()
    );
    assert!(lines.iter().any(|l| l.starts_with("info depth")));
    assert!(engine.drain(Duration::from_millis(200)).is_empty());
    engine.quit();
}

/// Lets the running `go ponder` search for `pondering`, checks it gave no `bestmove`, sends
/// `ponderhit` and returns when.
fn ponder_then_hit(engine: &mut Engine, pondering: Duration) -> Instant {
    let early = engine.drain(pondering);
    assert!(
        !early.iter().any(|l| l.starts_with("bestmove")),
        "{early:#?}"
    );
    let hit = Instant::now();
    engine.send("ponderhit");
    hit
}

#[test]
fn ponder_waits_for_ponderhit_then_keeps_the_clock() {
    let mut engine = Engine::start();
    engine.send("position startpos moves 7");
    engine.send("go ponder wtime 1000 btime 1000");
    let hit = ponder_then_hit(&mut engine, Duration::from_millis(400));
    engine.until("bestmove", Duration::from_secs(2));
    assert!(hit.elapsed() < Duration::from_millis(900));
    engine.quit();
}

#[test]
fn a_pondered_forced_move_is_played_at_ponderhit() {
    let mut engine = Engine::start();
    // South's one move; ten minutes each, so the ponder search is deep in a long iteration.
    engine.send("position fen 0,0,0,0,0,0,0,0,20/9,9,9,9,9,9,9,9,9 30 31 w 1");
    engine.send("go ponder wtime 600000 btime 600000");
    let hit = ponder_then_hit(&mut engine, Duration::from_millis(1500));
    let lines = engine.until("bestmove", Duration::from_secs(30));
    // Not the rest of an iteration (a second or more here): the move is forced.
    assert!(hit.elapsed() < Duration::from_millis(500), "{lines:#?}");
    assert_eq!(field(lines.last().unwrap(), "bestmove"), Some("9"));
    assert_eq!(field(last_info(&lines), "pv"), Some("9"));
    engine.quit();
}

#[test]
fn movetime_and_clocks_are_respected() {
    let mut engine = Engine::start();
    engine.send("setoption name Move Overhead value 20");
    engine.send("position startpos");
    let started = Instant::now();
    engine.send("go movetime 300");
    let lines = engine.until("bestmove", LONG);
    let took = started.elapsed();
    assert!(
        took < Duration::from_millis(1000),
        "movetime 300 took {took:?}"
    );
    // The move time is used to its end (less Move Overhead), not stopped at a soft budget.
    let searched: u64 = field(last_info(&lines), "time").unwrap().parse().unwrap();
    assert!(searched >= 270, "movetime 300 searched {searched} ms");
    let started = Instant::now();
    engine.send("go wtime 500 btime 500 winc 0 binc 0");
    engine.until("bestmove", LONG);
    // The clock had 500 ms: the answer must come before it runs out.
    assert!(started.elapsed() < Duration::from_millis(500));
    // An overdrawn clock still answers at once.
    let started = Instant::now();
    engine.send("go wtime -100 btime 100");
    engine.until("bestmove", LONG);
    assert!(started.elapsed() < Duration::from_millis(300));
    engine.quit();
}

#[test]
fn finished_games_answer_bestmove_0000() {
    let mut engine = Engine::start();
    engine.send("position fen 0,0,0,0,0,0,0,0,0/1,0,0,0,0,0,0,0,0 80 81 w");
    engine.send("go depth 5");
    let lines = engine.until("bestmove", LONG);
    assert_eq!(lines.last().map(String::as_str), Some("bestmove 0000"));
    engine.quit();
}

#[test]
fn proven_wins_are_mate_scores_in_moves_for_uci_and_plies_for_ugi() {
    // South to move wins at once: hole 9's two stones land on North's hole 1 (now 4).
    let fen = "0,0,0,0,0,0,0,0,2/3,1,0,0,0,0,0,0,0 78 78 w";
    for (hello, expected) in [("uci", "1"), ("ugi", "1")] {
        let mut engine = Engine::start();
        engine.send(hello);
        engine.until(if hello == "uci" { "uciok" } else { "ugiok" }, LONG);
        engine.send(&format!("position fen {fen}"));
        engine.send("go depth 4");
        let lines = engine.until("bestmove", LONG);
        let last = last_info(&lines);
        assert_eq!(field(last, "mate"), Some(expected), "{last}");
        assert_eq!(lines.last().map(String::as_str), Some("bestmove 9"));
        engine.quit();
    }
}

#[test]
fn ugi_bestmove_has_no_ponder_and_uci_may() {
    let mut engine = Engine::start();
    engine.send("ugi");
    engine.until("ugiok", LONG);
    engine.send("position startpos");
    engine.send("go depth 5");
    let lines = engine.until("bestmove", LONG);
    assert_eq!(lines.last().unwrap().split_whitespace().count(), 2);
    engine.quit();
}

#[test]
fn multipv_reports_distinct_lines() {
    let mut engine = Engine::start();
    engine.send("setoption name MultiPV value 3");
    engine.send("position startpos");
    engine.send("go depth 5");
    let lines = engine.until("bestmove", LONG);
    // The three lines of depth 5, then the first again as the last before `bestmove`.
    let final_lines: Vec<&String> = lines
        .iter()
        .filter(|l| l.starts_with("info depth 5 ") && !l.contains("bound"))
        .collect();
    let firsts: std::collections::HashSet<&str> = final_lines
        .iter()
        .map(|l| field(l, "pv").unwrap())
        .collect();
    assert_eq!(final_lines.len(), 4, "{lines:#?}");
    assert_eq!(firsts.len(), 3);
    assert_eq!(field(final_lines[0], "multipv"), Some("1"));
    assert_eq!(field(final_lines[3], "multipv"), Some("1"));
    engine.quit();
}

#[test]
fn searchmoves_restricts_the_root_and_long_moves_print_landings() {
    let mut engine = Engine::start();
    engine.send("setoption name LongMoves value true");
    engine.send("position startpos");
    engine.send("go depth 4 searchmoves 1 76(10)");
    let lines = engine.until("bestmove", LONG);
    let best = field(lines.last().unwrap(), "bestmove").unwrap();
    assert!(best == "19" || best == "76", "{best}");
    engine.quit();
}

#[test]
fn bench_ends_with_the_signature_line_and_is_deterministic() {
    let mut signature = None;
    for _ in 0..2 {
        let mut engine = Engine::start();
        engine.send("bench 5");
        let lines = engine.until("", LONG);
        let mut all = lines;
        while !all.last().unwrap().ends_with(" nps") {
            all.extend(engine.until("", LONG));
        }
        let last = all.last().unwrap().clone();
        let words: Vec<&str> = last.split_whitespace().collect();
        assert_eq!(words.len(), 4);
        assert_eq!(words[1], "nodes");
        let nodes: u64 = words[0].parse().unwrap();
        if let Some(previous) = signature {
            assert_eq!(previous, nodes);
        }
        signature = Some(nodes);
        engine.quit();
    }
}

#[test]
fn eval_prints_its_terms() {
    let mut engine = Engine::start();
    engine.send("position startpos moves 8");
    engine.send("eval");
    let lines = engine.until("Total:", LONG);
    assert!(lines.iter().any(|l| l.contains("kazan")));
    assert!(lines.iter().any(|l| l.contains("tuzdik")));
    engine.quit();
}

#[test]
fn commands_during_a_search_do_not_lose_it_or_the_position() {
    let mut engine = Engine::start();
    engine.send("position startpos moves 7");
    engine.send("go infinite");
    engine.send("d");
    engine.send("nonsense");
    engine.send("query p1turn");
    let lines = engine.until("response", Duration::from_secs(5));
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("Fen: 9,9,9,9,9,9,1,10,10/"))
    );
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("info string error: unknown command"))
    );
    assert_eq!(lines.last().map(String::as_str), Some("response false"));
    // A new position stops the search first (its bestmove comes out), then applies.
    engine.send("position startpos");
    engine.until("bestmove", Duration::from_secs(2));
    engine.send("d");
    let lines = engine.until("Fen:", Duration::from_secs(2));
    assert!(
        lines
            .last()
            .unwrap()
            .starts_with("Fen: 9,9,9,9,9,9,9,9,9/9,9,9,9,9,9,9,9,9 0 0 w 1")
    );
    engine.quit();
}

#[test]
fn two_threads_search_and_stop_cleanly() {
    let mut engine = Engine::start();
    engine.send("setoption name Threads value 2");
    engine.send("setoption name Hash value 8");
    engine.send("position startpos");
    engine.send("go depth 10");
    let lines = engine.until("bestmove", LONG);
    assert!(lines.iter().any(|l| l.starts_with("info depth 10 ")));
    engine.send("go infinite");
    std::thread::sleep(Duration::from_millis(200));
    engine.send("stop");
    engine.until("bestmove", Duration::from_secs(2));
    engine.quit();
}

#[test]
fn two_threads_prove_what_one_thread_proves() {
    // Few stones: the search proves the result within the depth, whatever order the threads
    // take (deferral of busy moves reorders, never drops, a move).
    let fen = "0,0,1,1,0,X,1,0,0/X,0,0,0,0,0,1,2,0 79 77 b";
    let mut proofs = Vec::new();
    for threads in [1, 2] {
        let mut engine = Engine::start();
        engine.send(&format!("setoption name Threads value {threads}"));
        engine.send(&format!("position fen {fen}"));
        engine.send("go depth 18");
        let lines = engine.until("bestmove", LONG);
        let last = last_line(&lines, |l| {
            l.starts_with("info depth") && !l.contains("bound")
        });
        proofs.push(field(last, "mate").map(str::to_string));
        engine.quit();
    }
    assert_eq!(proofs[0], Some("-7".to_string()));
    assert_eq!(proofs[0], proofs[1]);
}

#[test]
fn refused_commands_leave_a_running_search_alone() {
    let mut engine = Engine::start();
    engine.send("position startpos");
    engine.send("go infinite");
    std::thread::sleep(Duration::from_millis(100));
    let refused = [
        "setoption name Hash value 0",
        "setoption name Foo value 1",
        "setoption name UCI_Variant value chess",
        "position fen garbage",
        "position startpos moves 99",
        "position random 3",
        "perft 99",
        "bench 0",
        "query side",
        "setoption name TablePath value /nonexistent/tuzdik-tables",
    ];
    for line in refused {
        engine.send(line);
        // What the search prints meanwhile aside.
        let answer: Vec<String> = engine
            .sync()
            .into_iter()
            .filter(|l| !l.starts_with("info depth") && !l.starts_with("info currmove"))
            .collect();
        assert_eq!(answer.len(), 1, "{line}: {answer:#?}");
        assert!(
            answer[0].starts_with("info string error: "),
            "{line}: {answer:#?}"
        );
    }
    // The search is still the first one: `stop` ends it with its one bestmove.
    engine.send("stop");
    let lines = engine.until("bestmove", LONG);
    assert!(
        lines.iter().any(|l| l.starts_with("info depth")),
        "{lines:#?}"
    );
    assert!(engine.drain(Duration::from_millis(200)).is_empty());
    engine.quit();
}

#[test]
fn node_limits_are_exact_with_a_used_table_and_end_on_a_true_report() {
    let mut engine = Engine::start();
    for (moves, nodes) in [
        ("", 20_000),
        ("", 20_000),
        ("1 2 3", 33_333),
        ("1 2 3 4 5 6 7", 77_777),
    ] {
        engine.send(&format!("position startpos moves {moves}"));
        engine.send(&format!("go nodes {nodes}"));
        let lines = engine.until("bestmove", LONG);
        let last = last_info(&lines);
        assert_eq!(
            field(last, "nodes"),
            Some(nodes.to_string().as_str()),
            "{lines:#?}"
        );
        let best = field(lines.last().unwrap(), "bestmove").unwrap();
        assert_eq!(field(last, "pv"), Some(best), "{lines:#?}");
        // An unbounded final line repeats the last completed iteration (depth, score, pv).
        if !last.contains("bound") {
            let completed = lines
                .iter()
                .rfind(|l| {
                    // Not a `currmove` line (sent once a search has run 3 s).
                    l.starts_with("info depth")
                        && l.contains(" score ")
                        && !l.contains("bound")
                        && *l != last
                })
                .unwrap();
            for key in ["depth", "score", "pv"] {
                assert_eq!(field(last, key), field(completed, key), "{lines:#?}");
            }
        }
        let depth: u32 = field(last, "depth").unwrap().parse().unwrap();
        let seldepth: u32 = field(last, "seldepth").unwrap().parse().unwrap();
        assert!(seldepth >= depth, "{last}");
    }
    // Too few nodes for the first iteration: it is completed all the same.
    engine.send("ucinewgame");
    engine.send("position startpos");
    engine.send("go nodes 1");
    let lines = engine.until("bestmove", LONG);
    let last = last_info(&lines);
    assert_eq!(field(last, "depth"), Some("1"), "{lines:#?}");
    assert!(last.contains("score cp "), "{last}");
    assert!(!last.contains("bound"), "{last}");
    engine.quit();
}

#[test]
fn a_forced_move_is_searched_to_the_depth_asked_for_but_not_on_a_clock() {
    let mut engine = Engine::start();
    // South has one legal move (hole 9).
    engine.send("position fen 0,0,0,0,0,0,0,0,1/0,0,0,0,0,0,0,1,0 80 80 w 1");
    engine.send("go depth 6");
    let lines = engine.until("bestmove", LONG);
    let depth: u32 = field(last_info(&lines), "depth").unwrap().parse().unwrap();
    assert!(depth > 1, "{lines:#?}");
    engine.send("go wtime 10000 btime 10000");
    let lines = engine.until("bestmove", LONG);
    assert_eq!(field(last_info(&lines), "depth"), Some("1"), "{lines:#?}");
    // searchmoves leaving one move does not cut the depth either.
    engine.send("position startpos");
    engine.send("go depth 8 searchmoves 3");
    let lines = engine.until("bestmove", LONG);
    assert_eq!(field(last_info(&lines), "depth"), Some("8"), "{lines:#?}");
    assert_eq!(field(lines.last().unwrap(), "bestmove"), Some("3"));
    engine.quit();
}

#[test]
fn a_clock_without_the_movers_time_is_an_error_and_still_answers() {
    let mut engine = Engine::start();
    for go in [
        "go btime 1000",
        "go p2time 1000",
        "go winc 100",
        "go movestogo 5",
    ] {
        engine.send("position startpos");
        let asked = Instant::now();
        engine.send(go);
        let lines = engine.until("bestmove", Duration::from_secs(5));
        assert!(
            asked.elapsed() < Duration::from_secs(2),
            "{go} took {:?}",
            asked.elapsed()
        );
        let errors: Vec<&String> = lines
            .iter()
            .filter(|l| l.starts_with("info string error: "))
            .collect();
        assert_eq!(errors.len(), 1, "{go}: {lines:#?}");
        assert!(errors[0].contains("wtime"), "{go}: {lines:#?}");
    }
    engine.quit();
}

#[test]
fn multipv_ends_with_the_best_line() {
    let mut engine = Engine::start();
    engine.send("setoption name MultiPV value 3");
    engine.send("position startpos");
    engine.send("go depth 6");
    let lines = engine.until("bestmove", LONG);
    let last = last_info(&lines);
    assert_eq!(field(last, "multipv"), Some("1"), "{lines:#?}");
    assert_eq!(field(last, "depth"), Some("6"));
    assert_eq!(field(last, "pv"), field(lines.last().unwrap(), "bestmove"));
    engine.quit();
}

#[test]
fn stop_ends_a_deep_perft_at_once() {
    let mut engine = Engine::start();
    engine.send("perft 14");
    std::thread::sleep(Duration::from_millis(300));
    let asked = Instant::now();
    engine.send("stop");
    engine.send("isready");
    engine.until("readyok", Duration::from_secs(5));
    assert!(
        asked.elapsed() < Duration::from_millis(500),
        "{:?}",
        asked.elapsed()
    );
    engine.quit();
}

#[test]
fn long_garbage_comes_back_shortened() {
    let mut engine = Engine::start();
    let garbage = "x".repeat(600_000);
    engine.send(&format!("position fen {garbage}"));
    engine.send(&garbage);
    let lines = engine.sync();
    assert_eq!(lines.len(), 2, "{} lines", lines.len());
    for line in &lines {
        assert!(line.starts_with("info string error: "), "{}", &line[..100]);
        assert!(line.len() < 300, "{} bytes", line.len());
        assert!(line.contains("(600000 bytes)"), "{line}");
    }
    engine.quit();
}

#[test]
fn node_limits_hold_on_two_threads() {
    let mut engine = Engine::start();
    engine.send("setoption name Threads value 2");
    for nodes in [1000u64, 3000, 50_000] {
        engine.send("ucinewgame");
        engine.send("position startpos");
        engine.send(&format!("go nodes {nodes}"));
        let lines = engine.until("bestmove", LONG);
        let searched: u64 = field(last_info(&lines), "nodes").unwrap().parse().unwrap();
        assert!(
            searched <= nodes + nodes / 20 + 600,
            "go nodes {nodes}: {searched}"
        );
    }
    engine.quit();
}

/// The score of an `info` line as one number: mates beyond every centipawn score.
fn score_value(line: &str) -> i64 {
    let words: Vec<&str> = line.split_whitespace().collect();
    let at = words.iter().position(|&w| w == "score").expect("a score");
    let value: i64 = words[at + 2].parse().expect("a score value");
    match words[at + 1] {
        "cp" => value,
        "mate" if value > 0 => 1_000_000 - value,
        "mate" => -1_000_000 - value,
        kind => panic!("score kind {kind} in {line}"),
    }
}

#[test]
fn multipv_lines_come_best_first_at_every_depth() {
    for position in [
        "startpos",
        "startpos moves 7 7 9 1",
        "startpos moves 3 3 9 3 6 7",
    ] {
        let mut engine = Engine::start();
        engine.send("setoption name MultiPV value 3");
        engine.send(&format!("position {position}"));
        engine.send("go depth 9");
        let lines = engine.until("bestmove", LONG);
        assert!(!lines.iter().any(|l| l.contains("error")), "{lines:#?}");
        for depth in 1..=9 {
            let prefix = format!("info depth {depth} ");
            let exact: Vec<&String> = lines
                .iter()
                // Lines only: a search slower than 3 s also reports `currmove`.
                .filter(|l| l.starts_with(&prefix) && l.contains(" pv ") && !l.contains("bound"))
                .collect();
            assert!(exact.len() >= 3, "{position} depth {depth}: {lines:#?}");
            let numbers: Vec<&str> = exact[..3]
                .iter()
                .map(|l| field(l, "multipv").unwrap())
                .collect();
            assert_eq!(numbers, ["1", "2", "3"], "{position} depth {depth}");
            let scores: Vec<i64> = exact[..3].iter().map(|l| score_value(l)).collect();
            assert!(
                scores.windows(2).all(|pair| pair[0] >= pair[1]),
                "{position} depth {depth}: lines not best first {scores:?} in {exact:#?}"
            );
        }
        let best = field(lines.last().unwrap(), "bestmove").unwrap();
        assert_eq!(field(last_info(&lines), "pv"), Some(best), "{position}");
        engine.quit();
    }
}

/// End of input after `ponderhit` lets the timed search that `ponderhit` started run to its
/// move time (issue 37.3): it used to be stopped at once, at depth 2.
#[test]
fn end_of_input_after_ponderhit_lets_the_timed_search_finish() {
    let mut engine = Engine::start();
    engine.send("go ponder movetime 1500");
    engine.send("ponderhit");
    let started = Instant::now();
    let (status, lines) = engine.finish(LONG);
    let took = started.elapsed();
    assert!(status.success(), "exit status {status}");
    assert!(
        lines.last().is_some_and(|l| l.starts_with("bestmove")),
        "{lines:#?}"
    );
    assert!(
        took >= Duration::from_millis(1000),
        "answered after {took:?}: {lines:#?}"
    );
}

/// `go nodes N` on several threads stops within 5% of N, counted over all threads (issue
/// 37.5: at Threads=4 and N=2000 half the searches were outside, at Threads=16 up to +44%).
/// The searches start from a mid-game position, where the first iteration (never cut) is a
/// small part of N.
#[test]
fn node_limits_hold_within_five_percent_on_many_threads() {
    let mut engine = Engine::start();
    for threads in [4, 8, 16] {
        engine.send(&format!("setoption name Threads value {threads}"));
        for nodes in [1000u64, 2000, 5000] {
            for _ in 0..3 {
                engine.send("ucinewgame");
                engine.send("position startpos moves 7 7 9 1 3 3");
                engine.send(&format!("go nodes {nodes}"));
                let lines = engine.until("bestmove", LONG);
                let searched: u64 = field(last_info(&lines), "nodes").unwrap().parse().unwrap();
                assert!(
                    searched.abs_diff(nodes) <= nodes / 20,
                    "Threads {threads}, go nodes {nodes}: {searched}"
                );
            }
        }
    }
    engine.quit();
}

/// The contract's `cp`: the expected final margin of the side to move. In a late position with
/// 28 against 65 in the kazans and 37 stones on the board, South can finish anywhere from 74
/// stones behind to level, and no reported score may leave that range (the raw evaluation said
/// about -96 stones here). `UCI_ShowWDL` adds win/draw/loss chances summing to 1000.
#[test]
fn scores_stay_within_the_possible_margin_and_wdl_sums_to_a_thousand() {
    let mut engine = Engine::start();
    engine.send("position fen X,0,0,2,1,2,2,2,2/0,0,1,1,24,24,4,X,4 28 65 w 21");
    engine.send("go depth 8");
    let plain = engine.until("bestmove", LONG);
    assert!(
        plain.iter().all(|l| !l.contains(" wdl ")),
        "wdl without UCI_ShowWDL: {plain:#?}"
    );
    engine.send("setoption name UCI_ShowWDL value true");
    engine.send("go depth 10");
    let lines = engine.until("bestmove", LONG);
    let infos: Vec<&String> = lines.iter().filter(|l| l.contains(" score ")).collect();
    assert!(!infos.is_empty(), "{lines:#?}");
    for line in infos {
        let words: Vec<&str> = line.split_whitespace().collect();
        let at = |key: &str| words.iter().position(|w| *w == key);
        if let Some(i) = at("cp") {
            let cp: i32 = words[i + 1].parse().unwrap();
            assert!((-7400..=0).contains(&cp), "{line}");
        }
        let i = at("wdl").unwrap_or_else(|| panic!("no wdl in {line}"));
        let wdl: Vec<u32> = words[i + 1..i + 4]
            .iter()
            .map(|w| w.parse().unwrap())
            .collect();
        assert_eq!(wdl.iter().sum::<u32>(), 1000, "{line}");
        assert!(wdl[2] > wdl[0], "South is far behind: {line}");
    }
    engine.send("setoption name UCI_ShowWDL value perhaps");
    let refused = engine.drain(Duration::from_millis(300));
    assert!(
        refused
            .iter()
            .any(|l| l.starts_with("info string error") && l.contains("UCI_ShowWDL")),
        "{refused:#?}"
    );
    engine.quit();
}

#[test]
fn levels_are_options_that_weaken_the_answer_and_refuse_bad_values() {
    let mut engine = Engine::start();
    engine.send("uci");
    let handshake = engine.until("uciok", LONG);
    for option in [
        "option name UCI_LimitStrength type check default false",
        "option name UCI_Elo type spin default 1500 min 800 max 2700",
        "option name Skill Level type spin default 20 min 0 max 20",
    ] {
        assert!(handshake.iter().any(|l| l == option), "{handshake:#?}");
    }
    engine.send("setoption name UCI_Elo value 3000");
    engine.send("setoption name Skill Level value twenty");
    engine.send("setoption name UCI_LimitStrength value sometimes");
    let errors = engine.sync();
    assert_eq!(errors.len(), 3, "{errors:#?}");
    assert!(errors[0].starts_with("info string error:") && errors[0].contains("UCI_Elo"));
    assert!(errors[1].contains("Skill Level") && errors[1].contains("twenty"));
    assert!(errors[2].contains("UCI_LimitStrength"));
    // At Elo 800 the search ends on the level's small budget and shows one line only, yet a
    // legal move comes back, often not the full engine's.
    engine.send("setoption name UCI_LimitStrength value true");
    engine.send("setoption name UCI_Elo value 800");
    engine.send("position startpos moves 7 8");
    engine.send("go movetime 5000");
    let lines = engine.until("bestmove", LONG);
    let last = last_info(&lines);
    assert!(
        field(last, "nodes").unwrap().parse::<u64>().unwrap() < 5_000,
        "{last}"
    );
    assert!(lines.iter().all(|l| !l.contains("multipv 2")), "{lines:#?}");
    let best = field(lines.last().unwrap(), "bestmove").unwrap();
    assert!(("1"..="9").contains(&best), "{lines:#?}");
    engine.quit();
}

#[test]
fn limit_strength_off_is_exactly_the_full_engine() {
    let run = |options: &[&str]| {
        let mut engine = Engine::start();
        for option in options {
            engine.send(option);
        }
        engine.send("position startpos moves 7 8");
        engine.send("go nodes 20000");
        let lines = engine.until("bestmove", LONG);
        engine.quit();
        // Times and speeds differ between runs; everything else must not.
        lines
            .iter()
            .map(|line| {
                let words: Vec<&str> = line.split_whitespace().collect();
                let mut kept = Vec::new();
                let mut index = 0;
                while index < words.len() {
                    if words[index] == "nps" || words[index] == "time" {
                        index += 2;
                    } else {
                        kept.push(words[index]);
                        index += 1;
                    }
                }
                kept.join(" ")
            })
            .collect::<Vec<_>>()
    };
    let full = run(&[]);
    let off = run(&[
        "setoption name UCI_Elo value 900",
        "setoption name UCI_LimitStrength value false",
        "setoption name Skill Level value 20",
    ]);
    assert_eq!(full, off);
}
