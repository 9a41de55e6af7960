//! Strength levels through the real binary: the match runner between levels, and `play`.

mod common;

use std::time::Duration;

use common::run_binary;

const BIN: &str = env!("CARGO_BIN_EXE_tuzdik");

/// Plays `games` games between two levels of the real engine with the real match runner and
/// returns the stronger one's points (a win 1, a draw a half).
fn points_of_the_stronger(weak_elo: u32, strong_elo: u32, games: u32) -> f64 {
    let engine = |elo: u32| {
        format!("cmd='{BIN}' name=Elo{elo} option.UCI_LimitStrength=true option.UCI_Elo={elo}")
    };
    let (weak, strong) = (engine(weak_elo), engine(strong_elo));
    let games_text = games.to_string();
    let (status, stdout, stderr) = run_binary(
        &[
            "match",
            "--engine",
            &strong,
            "--engine",
            &weak,
            "--games",
            &games_text,
            // The levels search their own budgets; the match needs a limit of its own.
            "--nodes",
            "10000000",
            "--progress",
            "lines",
        ],
        b"",
        Duration::from_secs(600),
    );
    assert!(status.success(), "{stdout}\n{stderr}");
    // "Score of A vs B: W - L - D [...]"
    let line = stdout
        .lines()
        .rfind(|l| l.starts_with("Score of "))
        .unwrap_or_else(|| panic!("no score line in\n{stdout}"));
    let figures: Vec<f64> = line
        .split(':')
        .nth(1)
        .and_then(|rest| rest.split('[').next())
        .map(|score| {
            score
                .split('-')
                .map(|n| n.trim().parse().unwrap())
                .collect()
        })
        .unwrap();
    assert_eq!(figures.iter().sum::<f64>(), f64::from(games), "{line}");
    figures[0] + figures[2] / 2.0
}

#[test]
#[ignore = "slow: matches between levels, run optimised"]
fn the_ladder_rises_in_matches_between_levels() {
    // 600 UCI_Elo apart: the stronger level should score about 97%.
    let games = 6;
    let low = points_of_the_stronger(800, 1400, games);
    let high = points_of_the_stronger(1400, 2000, games);
    assert!(low >= 4.5, "Elo 1400 against 800: {low} of {games}");
    assert!(high >= 4.5, "Elo 2000 against 1400: {high} of {games}");
}

#[test]
fn play_takes_a_level_and_refuses_one_off_the_ladder() {
    let (status, stdout, _) = run_binary(
        &["play", "--level", "3", "--movetime", "50"],
        b"quit\n",
        Duration::from_secs(60),
    );
    assert!(status.success(), "{stdout}");
    assert!(
        stdout.contains("It plays at Elo 1100 (skill level 3)."),
        "{stdout}"
    );
    for (bad, named) in [
        ("21", "21 is neither a skill level"),
        ("--level=-2", "skill level -2"),
        ("500", "500"),
        ("2800", "2800"),
    ] {
        let args: &[&str] = match bad.strip_prefix("--level=") {
            Some(_) => &["play", bad],
            None => &["play", "--level", bad],
        };
        let (status, _, stderr) = run_binary(args, b"quit\n", Duration::from_secs(60));
        assert!(!status.success());
        assert!(
            stderr.contains("--level") && stderr.contains(named),
            "{stderr}"
        );
    }
}
